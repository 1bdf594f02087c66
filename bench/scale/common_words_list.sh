#!/usr/bin/env bash
# How the list of common words in PostgreSQL migration 0011 was made.
#   bench/scale/common_words_list.sh [BUILD_DIR] [ARTICLES] [SHARE]
# Generates ARTICLES (default 100000) realistic articles over 200 blogs into a throwaway PostgreSQL
# (bench/common/postgres.sh) with longread-generate's default seed, and prints, most common first, each
# word of the search vectors in more than SHARE (default 0.1) of them as the migration's VALUES rows:
# (bit, 'lexeme', share). The words are counted in every word of each article (word_vectors puts them in
# search_vector, which since migration 0015 the index no longer reads), so the list's words are counted
# there too: the bitmaps are not read.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"
articles="${2:-100000}"
share="${3:-0.1}"
generate="$build/src/storage/longread-generate"
[ -x "$generate" ] && [ -x "$build/bench/scale/word_vectors" ] ||
  { echo "bench: build longread-generate and word_vectors first (ninja -C $build longread-generate word_vectors)"; exit 1; }
work="$(mktemp -d /tmp/longread-common-words-XXXXXX)"
# shellcheck source=../common/postgres.sh
source "$root/bench/common/postgres.sh"
trap 'bench_postgres_stop; rm -rf "$work"' EXIT
bench_postgres_start "$work"
psql_bench() { bench_postgres_as_owner psql -X -q -h "$BENCH_PG_DIR" -U postgres bench "$@"; }
PGOPTIONS="-c synchronous_commit=off" "$generate" --db "$BENCH_PG_URL" -n "$articles" -b 200 --votes 0 >&2
# The index keeps words as ids since migration 0015: every article's words go back into search_vector.
"$build/bench/scale/word_vectors" "$BENCH_PG_URL" >&2
psql_bench -v ON_ERROR_STOP=1 -A -t -v share="$share" <<'SQL'
WITH words AS (SELECT word, ndoc FROM ts_stat('SELECT search_vector FROM articles'))
SELECT format('(%s, %L, %s),', row_number() OVER (ORDER BY sum(ndoc) DESC, word) - 1, word,
              round(sum(ndoc)::numeric / (SELECT count(*) FROM articles), 4))
  FROM words GROUP BY word HAVING sum(ndoc) > :share * (SELECT count(*) FROM articles)
 ORDER BY sum(ndoc) DESC, word;
SQL
