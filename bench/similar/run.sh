#!/usr/bin/env bash
# Similar articles at scale (docs/similar.md): the CPU cost of adding one article at ARTICLES articles, and the
# index's size, against brute-force cosine over every article sharing a signature term (the named peer).
#   bench/similar/run.sh [BUILD_DIR] [ARTICLES=1000000] [MEASURED=300] [BLOGS=2000]
# The database goes to SIMILAR_DB (default /tmp/longread-similar-bench.db, ~1 GB at 1M) and is removed after
# unless KEEP=1. The bench holds the uncapped postings in memory for the peer (~0.6 GB at 1M).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"
bench="$build/bench/similar/similar_bench"
[ -x "$bench" ] || { echo "bench: build similar_bench first (ninja -C $build similar_bench)"; exit 1; }
db="${SIMILAR_DB:-/tmp/longread-similar-bench.db}"
/usr/bin/time -f "similar_bench: %e s wall, %U s user, %S s sys, max RSS %M KB" \
  "$bench" "$db" "${2:-1000000}" "${3:-300}" "${4:-2000}"
[ "${KEEP:-0}" = 1 ] || rm -f "$db" "$db-wal" "$db-shm"
