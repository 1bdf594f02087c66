#!/usr/bin/env bash
# bench/extract/run.sh [CORPUS_DIR]
# In one run: longread's extract_main_content (C++, gumbo) and Mozilla Readability (node, jsdom) on the
# same pages (default: ../shared/corpus/readability/*/source.html), each reporting MB/s of HTML and mean
# token F1 against expected.html (both scored by longread's tokenizer), then the throughput ratio.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
corpus="${1:-$root/../shared/corpus/readability}"
build="${LONGREAD_BENCH_BUILD_DIR:-$root/build-bench-extract}"
repeat_cpp="${REPEAT_CPP:-5}"
repeat_js="${REPEAT_JS:-1}"
[ -d "$corpus" ] || { echo "skipped: $corpus not present"; exit 0; }

echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "== building extract_bench (Release) in $build"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$build" extract_bench >/dev/null

echo "== installing @mozilla/readability + jsdom (bench/extract/node_modules)"
(cd "$here" && npm install --no-audit --no-fund --silent >/dev/null)

echo "== longread"
cpp_line="$("$build/bench/extract/extract_bench" "$corpus" --repeat "$repeat_cpp")"
echo "$cpp_line"
cpp_mbps="$(sed -E 's/.*: ([0-9.]+) MB\/s.*/\1/' <<<"$cpp_line")"

echo "== Mozilla Readability"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
js_out="$(node "$here/readability.mjs" "$corpus" "$out" --repeat "$repeat_js")"
grep -v '^MBPS' <<<"$js_out"
js_mbps="$(grep '^MBPS' <<<"$js_out" | cut -d' ' -f2)"
"$build/bench/extract/extract_bench" "$corpus" --score-dir "$out" | sed 's/^/Readability output /'

echo "== ratio"
awk -v a="$cpp_mbps" -v b="$js_mbps" 'BEGIN { printf "longread / Readability throughput: %.1fx (%.2f vs %.2f MB/s)\n", a / b, a, b }'
