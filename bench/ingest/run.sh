#!/usr/bin/env bash
# Ingest benchmark (issue 2): every file of ../shared/corpus/real-feeds, served as file:// URLs, ingested
# into a fresh database by longread (`crawl --all`) and by Debian's newsboat (`newsboat -x reload`), in
# the same run. Prints MB/s and entries/s for each and the ratio. Usage: bench/ingest/run.sh [ROUNDS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
corpus=${LONGREAD_CORPUS_DIR:-$root/../shared/corpus}
rounds=${1:-3}
[ -d "$corpus/real-feeds" ] || { echo "skipped: ../shared not present"; exit 0; }
command -v newsboat >/dev/null || { echo "newsboat missing: bash scripts/install-deps.sh all"; exit 1; }
bin=$root/build/src/app/longread
[ -x "$bin" ] || cmake --build "$root/build" --target longread >/dev/null

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
echo "feeds: ${#files[@]} files, $(awk -v b=$bytes 'BEGIN{printf "%.2f", b/1048576}') MB, $rounds rounds"

now() { date +%s.%N; }
lr_total=0; nb_total=0; lr_entries=0; nb_entries=0
for r in $(seq "$rounds"); do
  rm -f "$work/lr.db"*
  "$bin" --db "$work/lr.db" --log-level warn import "$work/list.opml" >/dev/null
  t0=$(now)
  LONGREAD_CRAWL_FETCH_FULL_TEXT=false "$bin" --db "$work/lr.db" --log-level error crawl --all >/dev/null 2>&1
  t1=$(now)
  lr_total=$(echo "$lr_total + $t1 - $t0" | bc -l)
  lr_entries=$(sqlite3 "$work/lr.db" 'select count(*) from articles')

  rm -f "$work/cache.db"*
  t0=$(now)
  newsboat -u "$work/urls" -c "$work/cache.db" -C /dev/null -x reload >/dev/null 2>&1 || true
  t1=$(now)
  nb_total=$(echo "$nb_total + $t1 - $t0" | bc -l)
  nb_entries=$(sqlite3 "$work/cache.db" 'select count(*) from rss_item')
done
mb=$(echo "$bytes / 1048576" | bc -l)
awk -v mb="$mb" -v r="$rounds" -v lt="$lr_total" -v nt="$nb_total" -v le="$lr_entries" -v ne="$nb_entries" 'BEGIN {
  lmbs = mb * r / lt; nmbs = mb * r / nt; les = le * r / lt; nes = ne * r / nt;
  printf "longread ingest: %.2f MB/s, %.0f entries/s (%d entries stored, %.3f s per run)\n", lmbs, les, le, lt / r;
  printf "newsboat ingest: %.2f MB/s, %.0f entries/s (%d entries stored, %.3f s per run)\n", nmbs, nes, ne, nt / r;
  printf "ratio longread/newsboat: %.2fx (MB/s)\n", lmbs / nmbs;
}'
