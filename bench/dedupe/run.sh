#!/usr/bin/env bash
# The crawl writer's near-duplicate lookup (curate::SimhashIndex::near) at a whole-list first crawl's size,
# against a linear scan of every stored hash (the named peer), same queries, same run.
#   bench/dedupe/run.sh [BUILD_DIR] [N=750000] [LOOKUPS=20000]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"
bench="$build/bench/dedupe/near_bench"
[ -x "$bench" ] || { echo "bench: build near_bench first (ninja -C $build near_bench)"; exit 1; }
echo "near_bench: $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
"$bench" "${2:-750000}" "${3:-20000}"
