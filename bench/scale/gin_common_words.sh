#!/usr/bin/env bash
# What the PostgreSQL search index's inserts would cost without the common words.
#   bench/scale/gin_common_words.sh [BUILD_DIR] [ARTICLES] [BLOGS]
# Generates ARTICLES (default 100000) realistic articles over BLOGS (default 200) blogs into a throwaway
# PostgreSQL (bench/common/postgres.sh) with longread-generate, then:
# - counts each word's articles (ts_stat over the search vectors) and prints, for document frequencies
#   above 0.5 % … 20 %, how many words that is and what share of the (word, article) pairs they hold;
# - copies the vectors into tables that differ only in the words they keep (all of them, the named peer:
#   today's index; or all but those above 5, 10 or 20 %), each with a GIN index as the articles table has
#   it (fastupdate, the default 4 MB pending list), 100 rows a transaction as a crawl saves them, and
#   into a table with no index, the baseline a GIN index's own cost is read from; in two rounds, the second
#   in the opposite order;
# - prints each load's wall and CPU seconds (the inserting backend's, from /proc, a checkpoint before each
#   load), the index's size and the vectors' average size.
# A GIN index's cost is (load with it) − (load of the same vectors without one): vectors short enough stay
# in the heap row rather than the TOAST table, so each source has its own baseline.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"
articles="${2:-100000}"
blogs="${3:-200}"
generate="$build/src/storage/longread-generate"
[ -x "$generate" ] && [ -x "$build/bench/scale/word_vectors" ] ||
  { echo "bench: build longread-generate and word_vectors first (ninja -C $build longread-generate word_vectors)"; exit 1; }
work="$(mktemp -d /tmp/longread-gin-XXXXXX)"
# shellcheck source=../common/postgres.sh
source "$root/bench/common/postgres.sh"
trap 'bench_postgres_stop; rm -rf "$work"' EXIT
bench_postgres_start "$work"
psql_bench() { bench_postgres_as_owner psql -X -q -h "$BENCH_PG_DIR" -U postgres bench "$@"; }
echo "gin_common_words: $articles articles, $blogs blogs; $(nproc) cores; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
PGOPTIONS="-c synchronous_commit=off" "$generate" --db "$BENCH_PG_URL" -n "$articles" -b "$blogs" --votes 0
# The index keeps words as ids since migration 0015: every article's words go back into search_vector.
"$build/bench/scale/word_vectors" "$BENCH_PG_URL" >&2

psql_bench -v ON_ERROR_STOP=1 <<'SQL'
CREATE TABLE wstat AS SELECT word, ndoc FROM ts_stat('SELECT search_vector FROM articles');
\echo words above a document frequency, and their share of the (word, article) pairs a GIN index holds
SELECT format('df > %5s %%   words %6s   pairs %9s   share %5s %%', t, count(*), sum(ndoc),
              round(100.0 * sum(ndoc) / (SELECT sum(ndoc) FROM wstat), 1))
  FROM wstat, unnest(ARRAY[0, 0.5, 1, 2, 5, 10, 20]) t
 WHERE ndoc > t / 100.0 * (SELECT count(*) FROM articles) GROUP BY t ORDER BY t \g (tuples_only)
CREATE TABLE src_all AS SELECT id, search_vector AS v FROM articles ORDER BY id;
CREATE FUNCTION without_common(pct numeric) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE TABLE %I AS SELECT id, ts_delete(v, (SELECT array_agg(word) FROM wstat'
                 ' WHERE ndoc > %s * (SELECT count(*) FROM articles))) AS v FROM src_all ORDER BY id',
                 'src_' || pct, pct / 100);
END $$;
SELECT without_common(5), without_common(10), without_common(20) \g /dev/null
-- This backend's CPU seconds so far (user + system, in clock ticks of 1/100 s): the inserts' own work,
-- whatever the checkpointer and the rest of the machine do meanwhile.
CREATE FUNCTION backend_cpu() RETURNS numeric LANGUAGE sql AS $$
  SELECT (split_part(s, ' ', 14)::numeric + split_part(s, ' ', 15)::numeric) / 100
    FROM pg_read_file('/proc/self/stat') s
$$;
CREATE PROCEDURE load(source text, indexed boolean) LANGUAGE plpgsql AS $$
DECLARE
  target text := 'load_' || source || CASE WHEN indexed THEN '' ELSE '_noindex' END;
  top bigint;
  lo bigint;
  t0 timestamptz;
  cpu0 numeric;
BEGIN
  EXECUTE format('DROP TABLE IF EXISTS %I', target);
  -- No autovacuum: it merges a GIN index's pending list too, in its own process, whose CPU this does not
  -- count; without it every merge is the inserting backend's, so the index's whole cost is counted here.
  EXECUTE format('CREATE TABLE %I (id bigint, v tsvector) WITH (autovacuum_enabled = off)', target);
  IF indexed THEN EXECUTE format('CREATE INDEX ON %I USING gin (v)', target); END IF;
  COMMIT;
  EXECUTE format('SELECT max(id) FROM %I', source) INTO top;
  CHECKPOINT;
  t0 := clock_timestamp();
  cpu0 := backend_cpu();
  FOR lo IN SELECT generate_series(0, top, 100) LOOP
    EXECUTE format('INSERT INTO %I SELECT * FROM %I WHERE id > $1 AND id <= $1 + 100', target, source) USING lo;
    COMMIT;
  END LOOP;
  RAISE NOTICE '%', format('%-8s %-8s %6s s wall %6s s CPU   index %4s MB', source,
    CASE WHEN indexed THEN 'GIN' ELSE 'no index' END,
    round(extract(epoch FROM clock_timestamp() - t0)::numeric, 1), round(backend_cpu() - cpu0, 1),
    (SELECT COALESCE(max(pg_relation_size(indexrelid)), 0) / 1048576 FROM pg_index
      WHERE indrelid = target::regclass));
END $$;
SQL
# The vectors' average size, once per source.
for s in src_all src_5 src_10 src_20; do
  psql_bench -At -c "SELECT format('%-8s vectors: %s bytes, %s words an article on average', '$s',
    round(avg(pg_column_size(v))), round(avg(length(v)))) FROM $s"
done
order="src_all:t src_all:f src_10:t src_10:f src_5:t src_5:f src_20:t src_20:f"  # t: with a GIN index, f: without
reverse="src_20:f src_20:t src_5:f src_5:t src_10:f src_10:t src_all:f src_all:t"
for round in 1 2; do
  [ "$round" = 1 ] && runs="$order" || runs="$reverse"
  for run in $runs; do
    indexed=false
    [ "${run##*:}" = t ] && indexed=true
    psql_bench -c "CALL load('${run%%:*}', $indexed)" 2>&1 | sed -n "s/^NOTICE: *\(src_\)/\1/p; /ERROR/p"
  done
done
