#!/bin/sh
# bench/parse/run.sh [BUILD_DIR] [REPS] [DIR]: parses every feed of the real-feeds corpus with longread's
# parse_bench and with Debian's python3-feedparser (same files, same repetitions, one thread each, in-process)
# and prints MB/s, entries/s and the ratio. Rates are per CPU second of the process (the machine may be
# shared with builds; wall-clock is printed as well).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
reps=${2:-10}
dir=${3:-$here/../../../shared/corpus/real-feeds}
[ -d "$dir" ] || { echo "skipped: $dir not present"; exit 0; }
ninja -C "$build" parse_bench >/dev/null
ours=$("$build/bench/parse/parse_bench" "$dir" "$reps")
theirs=$(/usr/bin/python3 "$here/feedparser_bench.py" "$dir" "$reps")
echo "$ours"
echo "$theirs"
rate() { echo "$1" | sed -n "s|^.* $2=\([0-9.]*\).*|\1|p"; }
awk -v a="$(rate "$ours" MB/s)" -v b="$(rate "$theirs" MB/s)" -v c="$(rate "$ours" entries/s)" \
    -v d="$(rate "$theirs" entries/s)" \
    'BEGIN { printf "ratio      MB/s %.1fx, entries/s %.1fx (longread / feedparser)\n", a / b, c / d }'
