#!/usr/bin/env bash
# The site on PostgreSQL against the site on SQLite, in one run, same machine, same articles.
#   bench/web/backends.sh [BUILD_DIR] [ARTICLES]
# Generates ARTICLES (default 20000) articles with longread-generate into a SQLite file and into a throwaway
# PostgreSQL (bench/common/postgres.sh), starts longread-testsite on each in turn, and runs wrk -t2 -c64
# -d10s --latency against the front page, an article page, a search page and the second page of Newest
# (its cursor link). Prints requests/s and p99 for each, and PostgreSQL's share of SQLite's requests/s.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"
articles="${2:-20000}"
duration="${DURATION:-10s}"
threads="${THREADS:-2}"
for tool in wrk curl; do
  command -v "$tool" >/dev/null 2>&1 || { echo "bench: $tool not installed (scripts/install-deps.sh all)"; exit 1; }
done
testsite="$build/src/ui/longread-testsite"
generate="$build/src/storage/longread-generate"
[ -x "$testsite" ] || { echo "bench: build longread-testsite first"; exit 1; }
[ -x "$generate" ] || { echo "bench: build longread-generate first"; exit 1; }
source "$root/bench/common/postgres.sh"

work="$(mktemp -d)"
site_pid=""
cleanup() {
  [ -n "$site_pid" ] && kill "$site_pid" 2>/dev/null && wait "$site_pid" 2>/dev/null || true
  bench_postgres_stop
  rm -rf "$work"
}
trap cleanup EXIT

bench_postgres_start "$work"
declare -A db=([sqlite]="$work/bench.db" [postgresql]="$BENCH_PG_URL")
for backend in sqlite postgresql; do
  start=$(date +%s.%N)
  "$generate" --db "${db[$backend]}" --articles "$articles" >/dev/null
  printf '== generated %s articles into %s in %.1f s\n' "$articles" "$backend" "$(echo "$(date +%s.%N) - $start" | bc)"
done

declare -A rps p99
run() {
  local name="$1" url="$2" out
  curl -sf "$url" -o /dev/null || { echo "bench: $url failed"; exit 1; }
  out="$(wrk -t2 -c64 -d"$duration" --latency "$url")"
  rps[$name]="$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")"
  p99[$name]="$(awk '$1 == "99%" {print $2}' <<<"$out")"
  local errors
  errors="$(grep -E 'Non-2xx|Socket errors' <<<"$out" || true)"
  printf '%-22s %12s req/s   p99 %8s   %s\n' "$name" "${rps[$name]}" "${p99[$name]}" "$errors"
}

echo "== wrk -t2 -c64 -d$duration --latency ($(nproc) cores; the site uses $threads threads; load $(cut -d' ' -f1-3 /proc/loadavg))"
for backend in sqlite postgresql; do
  "$testsite" --db "${db[$backend]}" --threads "$threads" --quiet >"$work/site.out" 2>"$work/site.err" &
  site_pid=$!
  for _ in $(seq 1 200); do grep -q '^listening ' "$work/site.out" 2>/dev/null && break; sleep 0.1; done
  site="$(sed -n 's/^listening //p' "$work/site.out")"
  [ -n "$site" ] || { echo "bench: longread-testsite did not start on $backend"; cat "$work/site.err"; exit 1; }
  article="$(curl -sf "$site/" | grep -o 'href="/blog/[0-9]*/read/[^"]*"' | head -1 | sed 's/^href="//; s/"$//')"
  next="$(curl -sf "$site/newest" | grep -o 'href="/newest?after=[^"]*"' | head -1 | sed 's/^href="//; s/"$//; s/&amp;/\&/g')"
  run "$backend-front" "$site/"
  run "$backend-article" "$site$article"
  run "$backend-search" "$site/search?q=compiler"
  [ -n "$next" ] && run "$backend-newest-page-2" "$site$next"
  kill "$site_pid"; wait "$site_pid" 2>/dev/null || true; site_pid=""
done

echo "== PostgreSQL / SQLite requests/s"
for page in front article search newest-page-2; do
  [ -n "${rps[sqlite-$page]:-}" ] && [ -n "${rps[postgresql-$page]:-}" ] || continue
  awk -v a="${rps[postgresql-$page]}" -v b="${rps[sqlite-$page]}" -v p="$page" \
    'BEGIN { printf "%-14s %.0f%%\n", p, 100 * a / b }'
done
