#!/usr/bin/env bash
# Ranking on the corpus (docs/ranking.md): every feed of ../shared/corpus/real-feeds, served as file://
# URLs, imported into one "programming" outline and crawled once with full-text fetching off (as issue 14's
# reading did), then bench/ranking/ranking_report prints what the first two pages of Hot hold under the
# old formula and under the new one: the share of the 3 busiest blogs, distinct blogs, median words.
# Usage: bench/ranking/run.sh [extra ranking_report flags, e.g. --cap 3]; LONGREAD_BIN / REPORT_BIN pick
# other builds.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
corpus=${LONGREAD_CORPUS_DIR:-$root/../shared/corpus}
[ -d "$corpus/real-feeds" ] || { echo "skipped: ../shared not present"; exit 0; }
bin=${LONGREAD_BIN:-$root/build/src/app/longread}
report=${REPORT_BIN:-$root/build/bench/ranking/ranking_report}
[ -x "$bin" ] || cmake --build "$root/build" --target longread >/dev/null
[ -x "$report" ] || cmake --build "$root/build" --target ranking_report >/dev/null

work=$(mktemp -d)
trap '[ -n "${KEEP_DB:-}" ] && cp "$work/lr.db" "$KEEP_DB"; rm -rf "$work"' EXIT
mapfile -t files < <(find "$corpus/real-feeds" -type f \( -name '*.xml' -o -name '*.rss' -o -name '*.atom' -o -name '*.json' -o -name '*.rdf' \) ! -name '*.serde.json' | sort)
{
  echo '<?xml version="1.0"?><opml version="2.0"><head><title>ranking</title></head><body><outline text="programming">'
  for f in "${files[@]}"; do
    u="file://$(python3 -c 'import sys,urllib.parse;print(urllib.parse.quote(sys.argv[1]))' "$f")"
    printf '<outline type="rss" text="" xmlUrl="%s"/>\n' "$(echo "$u" | sed 's/&/\&amp;/g')"
  done
  echo '</outline></body></opml>'
} > "$work/list.opml"
echo "feeds: ${#files[@]} files"
"$bin" --db "$work/lr.db" --log-level warn import "$work/list.opml" >/dev/null
LONGREAD_CRAWL_FETCH_FULL_TEXT=false "$bin" --db "$work/lr.db" --log-level error crawl --all >/dev/null 2>&1
"$report" --db "$work/lr.db" "$@"
