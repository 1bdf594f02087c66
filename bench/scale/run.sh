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
