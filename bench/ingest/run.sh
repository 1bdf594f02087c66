#!/usr/bin/env bash
# Ingest benchmark: every file of ../shared/corpus/real-feeds, served as file:// URLs, ingested
# into a fresh database by longread (`crawl --all`) and by Debian's newsboat (`newsboat -x reload`), in
# the same run. Prints MB/s and entries/s for each (wall clock and CPU time, user+sys, measured with
# /usr/bin/time) and both ratios; CPU time is the fairer figure on a machine loaded by other work.
# Usage: bench/ingest/run.sh [ROUNDS]; LONGREAD_BIN=/path/to/longread picks another build.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
corpus=${LONGREAD_CORPUS_DIR:-$root/../shared/corpus}
rounds=${1:-3}
[ -d "$corpus/real-feeds" ] || { echo "skipped: ../shared not present"; exit 0; }
command -v newsboat >/dev/null || { echo "newsboat missing: bash scripts/install-deps.sh all"; exit 1; }
bin=${LONGREAD_BIN:-$root/build/src/app/longread}
[ -x "$bin" ] || cmake --build "$root/build" --target longread >/dev/null
[ -x /usr/bin/time ] || { echo "/usr/bin/time missing: apt-get install time"; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Feeds only: skip the feed-rs expectation JSON, licences and notes.
mapfile -t files < <(find "$corpus/real-feeds" -type f \( -name '*.xml' -o -name '*.rss' -o -name '*.atom' -o -name '*.json' -o -name '*.rdf' \) ! -name '*.serde.json' | sort)
bytes=0
{
  echo '<?xml version="1.0"?><opml version="2.0"><head><title>bench</title></head><body><outline text="bench">'
  for f in "${files[@]}"; do
    bytes=$((bytes + $(stat -c %s "$f")))
    u="file://$(python3 -c 'import sys,urllib.parse;print(urllib.parse.quote(sys.argv[1]))' "$f")"
    echo "$u" >> "$work/urls"
    printf '<outline type="rss" text="b" xmlUrl="%s"/>\n' "$(echo "$u" | sed 's/&/\&amp;/g')"
  done
  echo '</outline></body></opml>'
} > "$work/list.opml"
echo "feeds: ${#files[@]} files, $(awk -v b=$bytes 'BEGIN{printf "%.2f", b/1048576}') MB, $rounds rounds; load average: $(cut -d' ' -f1-3 /proc/loadavg)"

now() { date +%s.%N; }
# CPU seconds (user + sys) of the command that wrote /usr/bin/time's output file $1.
cpu_of() { awk '{print $1 + $2}' "$1"; }
lr_total=0; nb_total=0; lr_cpu=0; nb_cpu=0; lr_entries=0; nb_entries=0
for r in $(seq "$rounds"); do
  rm -f "$work/lr.db"*
  "$bin" --db "$work/lr.db" --log-level warn import "$work/list.opml" >/dev/null
  t0=$(now)
  LONGREAD_CRAWL_FETCH_FULL_TEXT=false /usr/bin/time -f '%U %S' -o "$work/lr.time" \
    "$bin" --db "$work/lr.db" --log-level error crawl --all >/dev/null 2>&1
  t1=$(now)
  lr_total=$(echo "$lr_total + $t1 - $t0" | bc -l)
  lr_cpu=$(echo "$lr_cpu + $(cpu_of "$work/lr.time")" | bc -l)
  lr_entries=$(sqlite3 "$work/lr.db" 'select count(*) from articles')

  rm -f "$work/cache.db"*
  t0=$(now)
  /usr/bin/time -f '%U %S' -o "$work/nb.time" \
    newsboat -u "$work/urls" -c "$work/cache.db" -C /dev/null -x reload >/dev/null 2>&1 || true
  t1=$(now)
  nb_total=$(echo "$nb_total + $t1 - $t0" | bc -l)
  nb_cpu=$(echo "$nb_cpu + $(cpu_of "$work/nb.time")" | bc -l)
  nb_entries=$(sqlite3 "$work/cache.db" 'select count(*) from rss_item')
done
mb=$(echo "$bytes / 1048576" | bc -l)
awk -v mb="$mb" -v r="$rounds" -v lt="$lr_total" -v nt="$nb_total" -v lc="$lr_cpu" -v nc="$nb_cpu" \
  -v le="$lr_entries" -v ne="$nb_entries" 'BEGIN {
  lmbs = mb * r / lt; nmbs = mb * r / nt; les = le * r / lt; nes = ne * r / nt;
  lcmbs = mb * r / lc; ncmbs = mb * r / nc;
  printf "longread ingest: %.2f MB/s, %.0f entries/s (%d entries stored, %.3f s per run)\n", lmbs, les, le, lt / r;
  printf "newsboat ingest: %.2f MB/s, %.0f entries/s (%d entries stored, %.3f s per run)\n", nmbs, nes, ne, nt / r;
  printf "longread CPU: %.3f s per run (user+sys), %.2f MB per CPU-second\n", lc / r, lcmbs;
  printf "newsboat CPU: %.3f s per run (user+sys), %.2f MB per CPU-second\n", nc / r, ncmbs;
  printf "ratio longread/newsboat: %.2fx (MB/s, wall), %.2fx (MB per CPU-second)\n", lmbs / nmbs, lcmbs / ncmbs;
}'
