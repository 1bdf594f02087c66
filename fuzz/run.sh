#!/usr/bin/env bash
# Builds the harnesses with AFL++ (afl-g++, ASan + UBSan) and fuzzes each for SECONDS, one after another.
# Usage: fuzz/run.sh [SECONDS] [HARNESS...]     (default: 600 seconds, every harness)
# Environment: LONGREAD_FUZZ_BUILD (build dir, default build-afl), LONGREAD_FUZZ_OUT (findings, default
# $LONGREAD_FUZZ_BUILD/findings; an existing run is resumed), LONGREAD_FUZZ_NICE (default 10).
# Needs Debian's afl++ (apt-get install afl++); see fuzz/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."

all=(feed opml html_text extract date url web_request ui_markup discover config)
seconds="${1:-600}"
[ $# -gt 0 ] && shift
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=("${all[@]}")
build="${LONGREAD_FUZZ_BUILD:-build-afl}"
out="${LONGREAD_FUZZ_OUT:-$build/findings}"
nice_level="${LONGREAD_FUZZ_NICE:-10}"

if ! command -v afl-fuzz >/dev/null || ! command -v afl-g++ >/dev/null; then
  echo "fuzz/run.sh: AFL++ is not installed: apt-get install afl++" >&2
  exit 2
fi

declare -A dict=([feed]=feed [opml]=feed [html_text]=html [extract]=html [date]=date [url]=url
                 [web_request]=web [ui_markup]=url [discover]=html [config]=config)
targets=()
for h in "${harnesses[@]}"; do
  [ -n "${dict[$h]:-}" ] || { echo "fuzz/run.sh: unknown harness '$h' (one of: ${all[*]})" >&2; exit 2; }
  targets+=("fuzz_$h")
done

# AFL++'s GCC plugin (afl-g++-fast) refuses Debian 12's gcc ("incompatible versions"), and clang-14 cannot
# compile the code base, so this uses afl-g++'s classic assembler instrumentation. ccache stays off: it
# would hand back objects instrumented for another build.
AFL_QUIET=1 cmake -S . -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=afl-g++ \
  -DCCACHE_PROGRAM=CCACHE_PROGRAM-NOTFOUND -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DLONGREAD_FUZZ=ON -DLONGREAD_SANITIZE=ON >/dev/null
AFL_QUIET=1 nice -n "$nice_level" ninja -C "$build" -j2 "${targets[@]}"

# afl-fuzz checks these itself; containers cannot change the CPU governor or core pattern.
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_AUTORESUME=1
export ASAN_OPTIONS=abort_on_error=1:symbolize=0:detect_leaks=0:allocator_may_return_null=1
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1
mkdir -p "$out"
for h in "${harnesses[@]}"; do
  echo "== fuzz_$h for ${seconds}s"
  nice -n "$nice_level" afl-fuzz -i "fuzz/seeds/$h" -o "$out/$h" -x "fuzz/dicts/${dict[$h]}.dict" -m none \
    -t 2000 -V "$seconds" -- "$build/fuzz/fuzz_$h" >"$out/$h.log" 2>&1 || true
  stats="$out/$h/default/fuzzer_stats"
  if [ -f "$stats" ]; then
    grep -E '^(run_time|execs_done|execs_per_sec|corpus_count|bitmap_cvg|saved_crashes|saved_hangs) ' "$stats"
  else
    echo "no fuzzer_stats: see $out/$h.log"
    tail -20 "$out/$h.log"
  fi
  # Leaks are not checked while fuzzing (LeakSanitizer at every exit is slow); check the corpus once here.
  leaks=0
  for f in "$out/$h/default/queue"/id:*; do
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 "$build/fuzz/fuzz_$h" "$f" >/dev/null 2>"$out/$h.leak" ||
      { leaks=1; echo "leak or crash replaying $f (see $out/$h.leak)"; break; }
  done
  [ "$leaks" = 1 ] || rm -f "$out/$h.leak"
  for f in "$out/$h/default/crashes"/id:* "$out/$h/default/hangs"/id:*; do
    if [ -e "$f" ]; then echo "finding: $f"; fi
  done
done
