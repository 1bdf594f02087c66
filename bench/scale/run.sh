#!/usr/bin/env bash
# Search at scale: a new, uncached query on a large database, for both generators.
#   bench/scale/run.sh [BUILD_DIR] [ARTICLES] [BLOGS]
# For each generator mode (realistic: the corpus model; worst-case: the old 106-word vocabulary), generates
# ARTICLES (default 1000000) articles over BLOGS (default 2000) blogs with longread-generate and prints how
# long that took, then runs search_bench on the database: p50/p95/p99 per query kind over distinct
# queries (one, two and three words at document frequencies of about 0.1 %, 2 % and 20 %, and phrases),
# the same queries on the old full-BM25 search (the named peer), and the database size and bytes per
# article; then the listings at page 1 and page 500 (longread-generate --measure --listings-only, after
# casting VOTES votes over 30 days so Top by period has something to rank), and `longread serve` on the
# database: its resident memory after start and after LOAD_SECONDS of wrk on the front, article, Top and
# search pages (wrk's requests/s and latency printed too).
# Environment: SCALE_DIR (where the databases go, default /tmp/longread-scale; 1M articles take ~10 GB each
# plus a WAL of up to ~16 GB while generating), QUERIES (distinct queries per kind, 40), PEER_QUERIES (of
# those, how many the old search runs, 10), KEEP=1 keeps the databases, REUSE=1 uses databases already
# there instead of generating them, MODES (default "realistic worst-case"), VOTES (200000),
# LOAD_SECONDS (10; 0 skips the serve step), LISTINGS=0 skips the listings.
# BACKENDS (default "sqlite"; "sqlite postgresql" or "postgresql"): on postgresql, a throwaway PostgreSQL
# (bench/common/postgres.sh: Debian's server, initdb'd under /tmp/longread-bench-pg-*, a Unix socket only,
# stopped when the script exits) holds one database per mode, generated the same way; search_bench then
# runs the same query kinds there, with PostgreSQL's plain full-text search the way Miniflux searches
# (tsvector + GIN + ts_rank, no candidate cap) as the named peer. REUSE and KEEP apply to SQLite files only:
# the server and its databases go with the script. Generating a million articles into PostgreSQL took
# 32 minutes here (and the 200,000 votes 32 more: docs/perf.md) and ~16 GB of disk; the generator's
# connections run with synchronous_commit off (PGOPTIONS), as a bulk load may.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"
articles="${2:-1000000}"
blogs="${3:-2000}"
dir="${SCALE_DIR:-/tmp/longread-scale}"
generate="$build/src/storage/longread-generate"
bench="$build/bench/scale/search_bench"
longread="$build/src/app/longread"
for tool in "$generate" "$bench"; do
  [ -x "$tool" ] || { echo "bench: build $(basename "$tool") first (ninja -C $build longread-generate search_bench)"; exit 1; }
done
mkdir -p "$dir"
echo "scale: $articles articles, $blogs blogs; $(nproc) cores; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
if [[ " ${BACKENDS:-sqlite} " == *" sqlite "* ]]; then
  for mode in ${MODES:-realistic worst-case}; do
    db="$dir/$mode-$articles.db"
    flag=""
    [ "$mode" = worst-case ] && flag="--worst-case"
    if [ "${REUSE:-0}" = 1 ] && [ -f "$db" ]; then
      echo "== $mode: reusing $db"
    else
      rm -f "$db" "$db-wal" "$db-shm"
      echo "== $mode: generating"
      /usr/bin/time -f "generate $mode: %e s wall, %U s user, %S s sys, max RSS %M KB" \
        "$generate" --db "$db" -n "$articles" -b "$blogs" --votes "${VOTES:-200000}" $flag
    fi
    "$bench" "$db" "${QUERIES:-40}" "${PEER_QUERIES:-10}"
    if [ "${LISTINGS:-1}" = 1 ]; then
      "$generate" --db "$db" -n 0 --measure 20 --listings-only
    fi
    if [ "${LOAD_SECONDS:-10}" != 0 ]; then
      "$root/bench/scale/serve_rss.sh" "$longread" "$db" "${LOAD_SECONDS:-10}"
    fi
    [ "${KEEP:-0}" = 1 ] || rm -f "$db" "$db-wal" "$db-shm"
  done
fi

# The PostgreSQL leg: one throwaway server, a database per mode.
if [[ " ${BACKENDS:-sqlite} " == *" postgresql "* ]]; then
  # shellcheck source=../common/postgres.sh
  source "$root/bench/common/postgres.sh"
  trap bench_postgres_stop EXIT
  bench_postgres_start "$dir"
  echo "postgresql: server in $BENCH_PG_DIR ($("$BENCH_PG_BIN/postgres" --version))"
  for mode in ${MODES:-realistic worst-case}; do
    flag=""
    [ "$mode" = worst-case ] && flag="--worst-case"
    name="${mode//-/_}"
    bench_postgres_as_owner "$BENCH_PG_BIN/createdb" -h "$BENCH_PG_DIR" -U postgres "$name"
    url="postgresql:///$name?host=$BENCH_PG_DIR&user=postgres"
    echo "== postgresql $mode: generating"
    PGOPTIONS="-c synchronous_commit=off" /usr/bin/time -f \
      "generate postgresql $mode: %e s wall, %U s user, %S s sys, max RSS %M KB (the client's)" \
      "$generate" --db "$url" -n "$articles" -b "$blogs" --votes "${VOTES:-200000}" $flag
    # Statistics and the GIN index's pending list as autovacuum leaves them a while after the load.
    "$BENCH_PG_BIN/psql" -q "$url" -c "SELECT gin_clean_pending_list('articles_search')" -c "ANALYZE articles" >/dev/null
    # The index of the newest articles, as a site's crawl loop keeps it (docs/storage.md).
    "$longread" --db "$url" db search-index
    "$bench" "$url" "${QUERIES:-40}" "${PEER_QUERIES:-10}"
    if [ "${LISTINGS:-1}" = 1 ]; then
      "$generate" --db "$url" -n 0 --measure 20 --listings-only
    fi
    if [ "${LOAD_SECONDS:-10}" != 0 ]; then
      "$root/bench/scale/serve_rss.sh" "$longread" "$url" "${LOAD_SECONDS:-10}"
    fi
    bench_postgres_as_owner "$BENCH_PG_BIN/dropdb" -h "$BENCH_PG_DIR" -U postgres "$name"
  done
fi
