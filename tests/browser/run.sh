#!/usr/bin/env bash
# Browser test: starts longread-testsite on a fresh SQLite file with the fixtures, then drives Debian's
# Chromium through playwright-core (site.test.mjs). Exit 77 (CTest: skipped) only when node or chromium is
# missing. Screenshots land in ${LONGREAD_BINARY_DIR}/screenshots.
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

if [ ! -d "$here/node_modules/playwright-core" ]; then
  (cd "$here" && npm install --no-audit --no-fund --loglevel=error)
fi

work="$(mktemp -d)"
site_pid=""
cleanup() {
  if [ -n "$site_pid" ]; then kill "$site_pid" 2>/dev/null || true; wait "$site_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

"$testsite" --db "$work/site.db" --seed --quiet --threads 2 >"$work/site.out" 2>"$work/site.err" &
site_pid=$!
for _ in $(seq 1 100); do
  grep -q '^listening ' "$work/site.out" 2>/dev/null && break
  sleep 0.1
done
url="$(sed -n 's/^listening //p' "$work/site.out")"
if [ -z "$url" ]; then
  echo "longread-testsite did not start:"; cat "$work/site.out" "$work/site.err"; exit 1
fi
article_id="$(sed -n 's/^seeded lock_free_article=\([0-9]*\) ada_blog=\([0-9]*\).*/\1/p' "$work/site.out")"
blog_id="$(sed -n 's/^seeded lock_free_article=\([0-9]*\) ada_blog=\([0-9]*\).*/\2/p' "$work/site.out")"

SITE_URL="$url" ARTICLE_PATH="/blog/$blog_id/read/$article_id" SCREENSHOTS="$out" CHROMIUM="$chromium_bin" \
  node "$here/site.test.mjs"
