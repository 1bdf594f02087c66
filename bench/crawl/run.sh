#!/usr/bin/env bash
# Crawl at scale: every blog of Kagi Small Web's list (36,515 feeds), each under its own host name, answered
# by bench/crawl/feed_server on one loopback port (the crawler reaches it through fetch.connect_to), then the
# site on the database that made.
#   bench/crawl/run.sh [BUILD_DIR] [BLOGS]
# The feed server renders every blog's first-pass feed before it listens (`--ahead`), so that making the
# synthetic text (three quarters of its CPU) does not share the two cores with the crawlers and the database
# server while a pass is timed; a body served from there is byte for byte the one it would have made.
# Runs, each on a fresh database and a fresh feed server:
#   sqlite          one `longread crawl` on SQLite
#   postgresql      one `longread crawl` on PostgreSQL (a throwaway server, bench/common/postgres.sh)
#   postgresql-x2   two `longread crawl` processes at once on one PostgreSQL database
# Each run has two passes. Pass 1: every feed is new (~730,000 articles for 36,515 blogs). Then every blog is
# made due (an hour later, as it were) and pass 2 runs: 80% of feeds answer 304, 15% have new entries, 5%
# fail (500, 429 with Retry-After, a 5 s stall then 503). For each pass it prints wall time, the crawlers'
# CPU seconds and peak RSS, the feed server's count of feeds polled twice in the pass (must be 0), the
# feeds asked for, the articles stored and the database's size. PostgreSQL's own CPU is not in the crawlers'
# figure: it is printed separately (the server's processes, from /proc).
# After each pass, `longread similar catch-up` indexes the back catalogue the pass queued for similar
# articles (crawl.similar_fresh_days; a crawl loop does it between passes), timed on its own line, and so is
# `longread db search-index`, the search index's upkeep that a crawl loop runs after each pass (on
# PostgreSQL: the newest articles' index, and a vacuum that marks the new rows' pages visible to all, which
# the index-only reads of the next pass rely on; on SQLite: FTS5's segment merges).
# Then wrk -t2 -c64 on the front page, an article page and a search, on the SQLite and the PostgreSQL
# database (`serve --no-crawl`), with PostgreSQL's share of SQLite's requests/s. Each page is asked for once
# before wrk starts, and that first request's time is printed beside wrk's figures ("first"): it is the page
# rendered from the database, where wrk measures the site serving it under load. Without it, the first
# render of a search (hundreds of milliseconds on the whole list) holds up the 64 connections at once and
# wrk reports it as the run's p99 (docs/perf.md, "The site's first seconds").
# Environment: RUNS (default "sqlite postgresql postgresql-x2"), CONCURRENCY (crawl.concurrency, 64),
# LOAD_SECONDS (10; 0 skips the site), CATCH_UP (1; 0 skips the catch-up), UPKEEP (1; 0 skips the search
# index's upkeep), CRAWL_DIR (where the SQLite database goes, /tmp), KEEP=1 keeps it.
# STATEMENTS=N prints, after each PostgreSQL pass and catch-up, the N statements the server spent most time executing
# (pg_stat_statements, triggers included in the statement that fired them): where the server's CPU goes.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"
blogs="${2:-36515}"
corpus="${LONGREAD_CORPUS_DIR:-$root/../shared/corpus}"
[ -d "$corpus/real-feeds" ] && [ -f "$corpus/blog-lists/kagi-smallweb/smallweb.txt" ] ||
  { echo "skipped: ../shared not present"; exit 0; }
longread="$build/src/app/longread"
server="$build/bench/crawl/feed_server"
for tool in "$longread" "$server"; do
  [ -x "$tool" ] || { echo "bench: build $(basename "$tool") first (ninja -C $build longread feed_server)"; exit 1; }
done
for tool in wrk curl /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is not installed (scripts/install-deps.sh all)"; exit 1; }
done
source "$root/bench/common/postgres.sh"
statements="${STATEMENTS:-0}"
[ "$statements" -gt 0 ] && export BENCH_PG_SETTINGS="-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.max=1000 -c pg_stat_statements.track_planning=on"

work="$(mktemp -d "${CRAWL_DIR:-/tmp}/longread-crawl-XXXXXX")"
server_pid=""
site_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  [ -n "$site_pid" ] && kill "$site_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  bench_postgres_stop
  [ "${KEEP:-0}" = 1 ] && echo "kept $work" || rm -rf "$work"
}
trap cleanup EXIT

# The blogs: the first BLOGS feed URLs of the list, over plain HTTP (the feed server has no TLS; the
# handshakes are not measured).
head -n "$blogs" "$corpus/blog-lists/kagi-smallweb/smallweb.txt" | sed 's#^https://#http://#' >"$work/urls"
python3 - "$work/urls" >"$work/blogs.opml" <<'EOF'
import sys
from xml.sax.saxutils import quoteattr
print('<?xml version="1.0"?><opml version="2.0"><head><title>Kagi Small Web</title></head><body>')
for url in open(sys.argv[1]):
    url = url.strip()
    if url:
        print(f'<outline type="rss" text="blog" xmlUrl={quoteattr(url)}/>')
print('</body></opml>')
EOF

start_feed_server() {
  [ -n "$server_pid" ] && { kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; }
  "$server" --corpus "$corpus/real-feeds" --ahead "$work/urls" >"$work/server.out" 2>"$work/server.err" &
  server_pid=$!
  # The server renders every feed's first-pass body before it listens (about a minute for the whole list).
  for _ in $(seq 1 6000); do grep -q '^listening on ' "$work/server.out" 2>/dev/null && break; sleep 0.1; done
  grep '^feed_server: .* rendered ahead' "$work/server.out" || true
  port="$(sed -n 's/^listening on 127.0.0.1://p' "$work/server.out")"
  [ -n "$port" ] || { echo "bench: feed_server did not start"; cat "$work/server.err"; exit 1; }
  export LONGREAD_FETCH_CONNECT_TO="::127.0.0.1:$port"
}

export LONGREAD_FETCH_ALLOW_NETWORKS="127.0.0.1/32"
export LONGREAD_CRAWL_CONCURRENCY="${CONCURRENCY:-64}"

pg_started=0
psql_on() { bench_postgres_as_owner "$BENCH_PG_BIN/psql" -h "$BENCH_PG_DIR" -U postgres -d "$1" -Atqc "$2"; }
# CPU seconds (user + system) of the PostgreSQL server: the postmaster's own and its exited children's (the
# kernel adds a reaped child's time to its parent's), plus its live children's.
pg_cpu() {
  [ "$pg_started" = 1 ] || { echo 0; return; }
  local main ticks child
  main="$(head -1 "$BENCH_PG_DIR/data/postmaster.pid")"
  ticks="$(awk '{print $14 + $15 + $16 + $17}' "/proc/$main/stat")"
  for child in $(pgrep -P "$main" || true); do
    ticks=$((ticks + $(awk '{print $14 + $15}' "/proc/$child/stat" 2>/dev/null || echo 0)))
  done
  echo "scale=1; $ticks / $(getconf CLK_TCK)" | bc
}

# Work an earlier run or pass left behind is done before the clock starts, so that a run does not pay for
# the one before it: PostgreSQL's autovacuum workers (a first pass's inserts make it vacuum and analyze the
# articles table afterwards) are waited for, its dirty buffers written (CHECKPOINT), and the kernel's dirty
# pages too (sync). The wait is printed when it is a second or more, as it is work the run before still had
# to do.
settle() {
  local name="$1" what="$2" start waited
  start="$(date +%s.%N)"
  if [ "$pg_started" = 1 ]; then
    for _ in $(seq 1 1200); do
      [ "$(psql_on postgres "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'")" = 0 ] && break
      sleep 1
    done
    psql_on postgres 'CHECKPOINT'
  fi
  sync
  waited="$(echo "$(date +%s.%N) - $start" | bc)"
  if [ "$(echo "$waited >= 1" | bc)" = 1 ]; then
    printf '%-14s settled %.1f s before %s (autovacuum, checkpoint and the page cache written out)\n' "$name" "$waited" "$what"
  fi
}

declare -A site_db
one_pass() {
  local name="$1" db="$2" crawlers="$3" pass="$4" start end i
  settle "$name" "pass $pass"
  curl -fs "http://127.0.0.1:$port/__bench/pass?n=$pass" >/dev/null
  local pg_before
  pg_statements_reset "$db"
  pg_before="$(pg_cpu)"
  start="$(date +%s.%N)"
  for i in $(seq 1 "$crawlers"); do
    /usr/bin/time -f '%e %U %S %M' -o "$work/time.$i" \
      "$longread" --db "$db" --log-level "${CRAWL_LOG_LEVEL:-warn}" crawl >"$work/crawl.$name.$pass.$i.log" 2>&1 &
  done
  local failed=0
  for i in $(seq 1 "$crawlers"); do wait -n || failed=1; done
  end="$(date +%s.%N)"
  [ "$failed" = 0 ] || { echo "bench: a crawl failed"; tail -5 "$work"/crawl.$name.$pass.*.log; exit 1; }
  local cpu=0 rss=0
  for i in $(seq 1 "$crawlers"); do
    read -r _ user sys kb <"$work/time.$i"
    cpu="$(echo "$cpu + $user + $sys" | bc)"
    [ "$kb" -gt "$rss" ] && rss="$kb"
  done
  local stats articles size
  stats="$(curl -fs "http://127.0.0.1:$port/__bench/stats")"
  if [[ "$db" == postgresql://* ]]; then
    local database="${db#postgresql:///}"
    database="${database%%\?*}"
    articles="$(psql_on "$database" 'SELECT COUNT(*) FROM articles')"
    size="$(psql_on "$database" 'SELECT pg_database_size(current_database())')"
  else
    articles="$(sqlite3 "$db" 'SELECT COUNT(*) FROM articles')"
    size="$(du -cb "$db"* | tail -1 | cut -f1)"
  fi
  printf '%-14s pass %d: %7.1f s wall %7.1f s CPU  peak RSS %4d MB  polled twice %s  feeds asked %s  answers %s  articles %s  db %d MB  postgres CPU %s s  bodies rendered ahead %s\n' \
    "$name" "$pass" "$(echo "$end - $start" | bc)" "$cpu" $((rss / 1024)) \
    "$(python3 -c 'import json,sys; print(json.load(sys.stdin)["polled_twice"])' <<<"$stats")" \
    "$(python3 -c 'import json,sys; print(json.load(sys.stdin)["distinct_feeds"])' <<<"$stats")" \
    "$(python3 -c 'import json,sys; print(" ".join(f"{k}:{v}" for k, v in json.load(sys.stdin)["by_status"].items()))' <<<"$stats")" \
    "$articles" $((size / 1048576)) "$(echo "$(pg_cpu) - $pg_before" | bc)" \
    "$(python3 -c 'import json,sys; print(json.load(sys.stdin)["served_ahead"])' <<<"$stats")"
  pg_statements_report "$db"
}

pg_database() { local d="${1#postgresql:///}"; echo "${d%%\?*}"; }
pg_statements_reset() {
  [ "$statements" -gt 0 ] && [[ "$1" == postgresql://* ]] || return 0
  psql_on "$(pg_database "$1")" 'CREATE EXTENSION IF NOT EXISTS pg_stat_statements; SELECT pg_stat_statements_reset()' >/dev/null
}
# Execution time is the server's wall time in the statement: CPU, I/O and waits for locks. Planning is
# apart ("plan"): a statement sent unprepared is planned on every call, a prepared one once or a few times.
pg_statements_report() {
  [ "$statements" -gt 0 ] && [[ "$1" == postgresql://* ]] || return 0
  psql_on "$(pg_database "$1")" "SELECT format('  %9s s %5s%% plan %7s s %8s calls %8s plans %8s rows %8s ms/call  %s', round((total_exec_time / 1000)::numeric, 1),
      round((100 * total_exec_time / sum(total_exec_time) OVER ())::numeric, 1), round((total_plan_time / 1000)::numeric, 1),
      calls, plans, rows, round((total_exec_time / calls)::numeric, 3), left(regexp_replace(query, '\s+', ' ', 'g'), 110))
    FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
    ORDER BY total_exec_time + total_plan_time DESC LIMIT $statements"
  psql_on "$(pg_database "$1")" "SELECT format('  all statements: %s s executing, %s s planning, %s calls, %s plans',
      round((sum(total_exec_time) / 1000)::numeric, 1), round((sum(total_plan_time) / 1000)::numeric, 1), sum(calls), sum(plans))
    FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())"
}

# The similar articles of the back catalogue the pass queued (docs/similar.md): `longread similar catch-up`,
# which a crawl loop runs between passes, timed on its own.
catch_up() {
  local name="$1" db="$2" pass="$3" start end pg_before
  settle "$name" "catch-up $pass"
  pg_before="$(pg_cpu)"
  pg_statements_reset "$db"
  start="$(date +%s.%N)"
  /usr/bin/time -f '%e %U %S %M' -o "$work/time.catch-up" \
    "$longread" --db "$db" --log-level warn similar catch-up >"$work/catch-up.$name.$pass.log" 2>&1 ||
    { echo "bench: the catch-up failed"; tail -5 "$work/catch-up.$name.$pass.log"; exit 1; }
  end="$(date +%s.%N)"
  local user sys kb
  read -r _ user sys kb <"$work/time.catch-up"
  printf '%-14s catch-up %d: %7.1f s wall %7.1f s CPU  peak RSS %4d MB  %s  postgres CPU %s s\n' \
    "$name" "$pass" "$(echo "$end - $start" | bc)" "$(echo "$user + $sys" | bc)" $((kb / 1024)) \
    "$(tail -1 "$work/catch-up.$name.$pass.log" | sed 's/^similar: //; s/, in [0-9.]* s$//')" \
    "$(echo "$(pg_cpu) - $pg_before" | bc)"
  pg_statements_report "$db"
}

# The search index's upkeep a crawl loop runs after each pass: `longread db search-index`, timed on its own.
upkeep() {
  local name="$1" db="$2" pass="$3" start end pg_before
  settle "$name" "upkeep $pass"
  pg_before="$(pg_cpu)"
  start="$(date +%s.%N)"
  "$longread" --db "$db" --log-level warn db search-index >"$work/upkeep.$name.$pass.log" 2>&1 ||
    { echo "bench: the search index's upkeep failed"; tail -5 "$work/upkeep.$name.$pass.log"; exit 1; }
  end="$(date +%s.%N)"
  printf '%-14s upkeep %d: %7.1f s wall  %s  postgres CPU %s s\n' "$name" "$pass" "$(echo "$end - $start" | bc)" \
    "$(tail -1 "$work/upkeep.$name.$pass.log")" "$(echo "$(pg_cpu) - $pg_before" | bc)"
}

make_all_due() {
  local db="$1"
  if [[ "$db" == postgresql://* ]]; then
    local database="${db#postgresql:///}"
    psql_on "${database%%\?*}" 'UPDATE blogs SET next_due_at = 0'
  else
    sqlite3 "$db" 'UPDATE blogs SET next_due_at = 0'
  fi
}

echo "crawl: $blogs blogs, $(nproc) cores, crawl.concurrency $LONGREAD_CRAWL_CONCURRENCY; load average $(cut -d' ' -f1-3 /proc/loadavg)"
for run in ${RUNS:-sqlite postgresql postgresql-x2}; do
  crawlers=1
  case "$run" in
    sqlite) db="$work/crawl.db" ;;
    postgresql | postgresql-x2)
      if [ "$pg_started" = 0 ]; then bench_postgres_start "$work"; pg_started=1; fi
      database="crawl_${run//-/_}"
      bench_postgres_as_owner "$BENCH_PG_BIN/createdb" -h "$BENCH_PG_DIR" -U postgres "$database"
      db="postgresql:///$database?host=$BENCH_PG_DIR&user=postgres"
      [ "$run" = postgresql-x2 ] && crawlers=2
      ;;
    *) echo "bench: unknown run $run"; exit 1 ;;
  esac
  start_feed_server
  [ "$run" = sqlite ] && grep '^feed_server: .* corpus feeds' "$work/server.out"
  "$longread" --db "$db" --log-level warn import "$work/blogs.opml" >/dev/null
  one_pass "$run" "$db" "$crawlers" 1
  [ "${CATCH_UP:-1}" = 1 ] && catch_up "$run" "$db" 1
  [ "${UPKEEP:-1}" = 1 ] && upkeep "$run" "$db" 1
  make_all_due "$db"
  one_pass "$run" "$db" "$crawlers" 2
  [ "${CATCH_UP:-1}" = 1 ] && catch_up "$run" "$db" 2
  # The site runs on the SQLite database and on the last PostgreSQL one (two crawlers' when both ran).
  if [ "$run" = sqlite ]; then site_db[sqlite]="$db"; else site_db[postgresql]="$db"; fi
done

[ "${LOAD_SECONDS:-10}" = 0 ] && exit 0
declare -A rps
site() {
  local backend="$1" db="$2" site_port article word
  site_port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  "$longread" --db "$db" serve --listen "127.0.0.1:$site_port" --no-crawl >"$work/site.log" 2>&1 &
  site_pid=$!
  for _ in $(seq 1 600); do curl -fs "http://127.0.0.1:$site_port/healthz" >/dev/null 2>&1 && break; sleep 0.5; done
  article="$(curl -fs "http://127.0.0.1:$site_port/" | grep -o 'href="/blog/[0-9]*/read/[^"]*"' | head -1 | cut -d'"' -f2)"
  word="$(curl -fs "http://127.0.0.1:$site_port$article" | grep -o '<h1[^>]*>[^<]*' | sed 's/<[^>]*>//' | tr -cs 'A-Za-z' '\n' | awk 'length > 4' | head -1 || true)"
  local page path out first
  for page in front article search; do
    case "$page" in front) path=/ ;; article) path="$article" ;; search) path="/search?q=${word:-system}" ;; esac
    first="$(curl -fs -o /dev/null -w '%{time_total}' "http://127.0.0.1:$site_port$path" | awk '{printf "%.1fms", $1 * 1000}')"
    out="$(wrk -t2 -c64 -d"${LOAD_SECONDS:-10}s" --latency "http://127.0.0.1:$site_port$path")"
    rps[$backend-$page]="$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")"
    printf 'site %-11s %-8s %10s req/s  p99 %8s  first %9s  %s\n' "$backend" "$page" "${rps[$backend-$page]}" \
      "$(awk '$1 == "99%" {print $2}' <<<"$out")" "$first" "$(grep -E 'Non-2xx|Socket errors' <<<"$out" || true)"
  done
  kill "$site_pid"; wait "$site_pid" 2>/dev/null || true; site_pid=""
}
for backend in sqlite postgresql; do
  [ -n "${site_db[$backend]:-}" ] && site "$backend" "${site_db[$backend]}"
done
if [ -n "${rps[sqlite-front]:-}" ] && [ -n "${rps[postgresql-front]:-}" ]; then
  for page in front article search; do
    awk -v a="${rps[postgresql-$page]}" -v b="${rps[sqlite-$page]}" -v p="$page" \
      'BEGIN { printf "site PostgreSQL / SQLite %-8s %.0f%%\n", p, 100 * a / b }'
  done
fi
