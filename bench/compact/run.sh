#!/usr/bin/env bash
# The compact store: bytes per article before and after `longread db compact`, and an article page's read
# cost in both forms, for both generators.
#   PEER_GENERATE=/path/to/main/build/src/storage/longread-generate bench/compact/run.sh [BUILD_DIR] [ARTICLES] [BLOGS]
# The named peer is the uncompressed store: PEER_GENERATE is a longread-generate built from a commit before
# migration 0021 (main before the compact store), so its database holds every body whole, as a site's
# database from before the upgrade does. For each mode (realistic, worst-case) it generates ARTICLES
# (default 100000) over BLOGS (default 200) with seed 42, VACUUMs and measures it; then converts a copy in
# place with this build's `longread db compact --vacuum` (timed) and measures that. "bytes/article" is the
# file size after VACUUM divided by the articles; the breakdown is from SQLite's dbstat table (pages, so
# free space inside pages counts). Then body_read_bench times Store::article() on both files and the
# decompression alone.
# Environment: COMPACT_DIR (default /tmp/longread-compact; needs ~3x one database's size free while
# converting), KEEP=1 keeps the databases, MODES (default "realistic worst-case").
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"
articles="${2:-100000}"
blogs="${3:-200}"
dir="${COMPACT_DIR:-/tmp/longread-compact}"
peer="${PEER_GENERATE:-}"
longread="$build/src/app/longread"
reader="$build/bench/compact/body_read_bench"
[ -x "$peer" ] || { echo "bench: set PEER_GENERATE to a longread-generate built from main before migration 0021"; exit 1; }
for tool in "$longread" "$reader"; do
  [ -x "$tool" ] || { echo "bench: build $(basename "$tool") first (ninja -C $build longread body_read_bench)"; exit 1; }
done
mkdir -p "$dir"

breakdown() {  # bytes per article by part of the file
  sqlite3 -readonly "$1" "SELECT printf('  %-28s %8.0f bytes/article', part, bytes * 1.0 / $articles) FROM (
      SELECT CASE WHEN name = 'articles' THEN 'articles table'
        WHEN name LIKE 'articles_fts%' THEN 'full-text index (FTS5)'
        WHEN name = 'body_dictionaries' THEN 'body dictionaries'
        ELSE 'other tables and indexes' END AS part, SUM(pgsize) AS bytes FROM dbstat GROUP BY part)
    ORDER BY bytes DESC"
}
size_line() {
  local bytes
  bytes=$(stat -c %s "$2")
  printf '%-32s %12d bytes  %6d bytes/article\n' "$1" "$bytes" $((bytes / articles))
}

echo "compact: $articles articles, $blogs blogs, seed 42; $(nproc) cores; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for mode in ${MODES:-realistic worst-case}; do
  before="$dir/$mode-$articles-whole.db"
  after="$dir/$mode-$articles-compact.db"
  flag=""
  [ "$mode" = worst-case ] && flag="--worst-case"
  rm -f "$before"* "$after"*
  echo "== $mode"
  "$peer" --db "$before" -n "$articles" -b "$blogs" --seed 42 $flag > /dev/null
  sqlite3 "$before" "PRAGMA wal_checkpoint(TRUNCATE); VACUUM;" > /dev/null
  cp "$before" "$after"
  size_line "main (whole bodies), vacuumed" "$before"
  breakdown "$before"
  /usr/bin/time -f "convert: %e s wall, %U s user, %S s sys, max RSS %M KB" \
    "$longread" --db "$after" db compact --batch 1000 --vacuum | grep -v "articles converted (up to"
  size_line "compact (this build), vacuumed" "$after"
  breakdown "$after"
  echo "read, main (whole bodies):"
  "$reader" "$before" 2000
  echo "read, compact:"
  "$reader" "$after" 2000
  [ "${KEEP:-0}" = 1 ] || rm -f "$before"* "$after"*
done
