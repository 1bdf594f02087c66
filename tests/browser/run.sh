#!/usr/bin/env bash
# Browser test: starts longread-testsite on a fresh SQLite file with the fixtures, then drives Debian's
# Chromium through playwright-core (site.test.mjs). Exit 77 (CTest: skipped) only when node or chromium is
# missing. Screenshots land in ${LONGREAD_BINARY_DIR}/screenshots. filters.test.mjs (mutes, read state) runs
# on a site of its own. The admin area's test (admin.test.mjs) runs
# on a site of its own and needs LONGREAD_CLI, the longread binary, to promote its operator.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
chromium_bin="${CHROMIUM:-/usr/bin/chromium}"
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "SKIPPED: node/npm not installed (scripts/install-deps.sh test installs them)"; exit 77
fi
if [ ! -x "$chromium_bin" ]; then
  echo "SKIPPED: $chromium_bin not installed (scripts/install-deps.sh test installs chromium)"; exit 77
fi
testsite="${LONGREAD_TESTSITE:?set LONGREAD_TESTSITE to the longread-testsite binary}"
out="${LONGREAD_BINARY_DIR:-$here}/screenshots"
mkdir -p "$out"

# playwright-core and axe-core from the npm registry, at the versions package-lock.json pins.
if [ ! -d "$here/node_modules/playwright-core" ] || [ ! -d "$here/node_modules/axe-core" ]; then
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
fi

work="$(mktemp -d)"
site_pids=()
cleanup() {
  for pid in "${site_pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# start_site NAME [testsite options...]: a seeded test site on a free port; prints its URL.
start_site() {
  local name="$1"; shift
  "$testsite" --db "$work/$name.db" --seed --quiet --threads 2 "$@" >"$work/$name.out" 2>"$work/$name.err" &
  site_pids+=($!)
  for _ in $(seq 1 100); do
    grep -q '^listening ' "$work/$name.out" 2>/dev/null && break
    sleep 0.1
  done
  if ! grep -q '^listening ' "$work/$name.out"; then
    echo "longread-testsite did not start:" >&2; cat "$work/$name.out" "$work/$name.err" >&2; exit 1
  fi
}
start_site site
url="$(sed -n 's/^listening //p' "$work/site.out")"
# A blog for the admin area's "approve a suggestion" flow, served by the fixture HTTP server on 127.0.0.1
# (tests/fixture_server/fixture_server.py); the admin site's discovery worker may fetch from exactly that
# address (--fetch-allow-networks), as the crawl tests allow it.
mkdir -p "$work/www/river"
cat >"$work/www/river/index.html" <<'HTML'
<!DOCTYPE html><html lang="en"><head><title>River Notes</title>
<link rel="alternate" type="application/rss+xml" title="River Notes" href="feed.xml"></head>
<body><h1>River Notes</h1></body></html>
HTML
river_post="<p>Every winter the river below the old mill freezes from the banks inward, and the village gathers to watch the last channel of open water close. My grandmother kept a notebook of the dates for sixty years, and reading it now I can see the winters getting shorter, one careful line at a time.</p>"
{
  echo '<?xml version="1.0"?><rss version="2.0"><channel><title>River Notes</title><link>http://river.example/</link>'
  echo "<item><title>The old mill</title><guid>mill</guid><pubDate>$(date -u -R)</pubDate><description><![CDATA["
  for _ in 1 2 3 4 5 6; do echo "$river_post"; done
  echo ']]></description></item>'
  echo "<item><title>Back soon</title><guid>soon</guid><pubDate>$(date -u -R)</pubDate><description>Back next week.</description></item>"
  echo '</channel></rss>'
} >"$work/www/river/feed.xml"
python3 "$here/../fixture_server/fixture_server.py" "$work/www" --host 127.0.0.1 --port 0 \
  >"$work/fixture.out" 2>"$work/fixture.err" </dev/null &
site_pids+=($!)
for _ in $(seq 1 100); do
  grep -q '^listening on ' "$work/fixture.out" 2>/dev/null && break
  sleep 0.1
done
fixture_port="$(sed -n 's/^listening on //p' "$work/fixture.out")"
if [ -z "$fixture_port" ]; then
  echo "fixture server did not start:" >&2; cat "$work/fixture.err" >&2; exit 1
fi
# A second site that sends mail (links to a file): the newsletter box shows only where mail can be sent.
start_site mailed --mail-links "$work/mail-links"
mail_url="$(sed -n 's/^listening //p' "$work/mailed.out")"
article_id="$(sed -n 's/^seeded lock_free_article=\([0-9]*\) ada_blog=\([0-9]*\).*/\1/p' "$work/site.out")"
blog_id="$(sed -n 's/^seeded lock_free_article=\([0-9]*\) ada_blog=\([0-9]*\).*/\2/p' "$work/site.out")"

status=0
SITE_URL="$url" MAIL_SITE_URL="$mail_url" ARTICLE_PATH="/blog/$blog_id/read/$article_id" SCREENSHOTS="$out" \
  CHROMIUM="$chromium_bin" node "$here/site.test.mjs" || status=1
# A reader's personal filters (mutes, read state) on a site of their own: they change what listings show.
start_site filters
filters_url="$(sed -n 's/^listening //p' "$work/filters.out")"
SITE_URL="$filters_url" SCREENSHOTS="$out" CHROMIUM="$chromium_bin" node "$here/filters.test.mjs" || status=1
# The admin area on its own seeded site (its actions change blogs and articles): the operator is promoted
# with the real command line on the site's database file.
if [ -n "${LONGREAD_CLI:-}" ]; then
  start_site admin --fetch-allow-networks 127.0.0.1/32
  admin_url="$(sed -n 's/^listening //p' "$work/admin.out")"
  SITE_URL="$admin_url" SITE_DB="$work/admin.db" LONGREAD_CLI="$LONGREAD_CLI" SCREENSHOTS="$out" \
    BLOG_URL="http://127.0.0.1:$fixture_port/river/index.html" \
    CHROMIUM="$chromium_bin" node "$here/admin.test.mjs" || status=1
else
  echo "admin browser test not run: set LONGREAD_CLI to the longread binary"; status=1
fi
exit $status
