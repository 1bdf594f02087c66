#!/usr/bin/env bash
# `longread serve` on a large database: resident memory after start and after some seconds of load.
#   bench/scale/serve_rss.sh LONGREAD_BINARY DATABASE [LOAD_SECONDS]
# Starts serve without the crawler on a free port of 127.0.0.1, reads VmRSS once /healthz answers, runs wrk
# (2 threads, 50 connections) for LOAD_SECONDS on each of the front page, an article page, Top this week
# and a search, then prints VmRSS and the peak (VmHWM) and stops the server with SIGTERM.
set -euo pipefail
longread="$1"
db="$2"
seconds="${3:-10}"
[ -x "$longread" ] || { echo "bench: build longread first"; exit 1; }
command -v wrk >/dev/null || { echo "bench: wrk is not installed (apt-get install wrk)"; exit 1; }
port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
log="$(mktemp)"
"$longread" --db "$db" serve --listen "127.0.0.1:$port" --no-crawl >"$log" 2>&1 &
pid=$!
trap 'kill -TERM $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 1 600); do
  curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
  kill -0 $pid 2>/dev/null || { echo "serve: exited"; cat "$log"; exit 1; }
  sleep 0.5
done
kib() { awk -v k="$1" '$1 == k":" {print $2}' "/proc/$pid/status"; }
echo "serve: VmRSS after start $(( $(kib VmRSS) / 1024 )) MB"
article=$(curl -fs "http://127.0.0.1:$port/newest" | grep -o 'href="/blog/[0-9]*/read/[^"]*"' | head -1 | cut -d'"' -f2)
word=$(curl -fs "http://127.0.0.1:$port$article" | grep -o "<h1[^>]*>[^<]*" | sed "s/<[^>]*>//" | tr -cs "A-Za-z" "\n" | awk "length > 4" | head -1 || true)
for path in / "$article" /top "/search?q=${word:-system}"; do
  printf 'serve: wrk %-40s ' "$path"
  wrk -t2 -c50 -d"${seconds}s" --latency "http://127.0.0.1:$port$path" |
    awk '/Requests\/sec/ {rps = $2} /^ +99%/ {p99 = $2} /^ +50%/ {p50 = $2} END {printf "%10s req/s  p50 %8s  p99 %8s\n", rps, p50, p99}'
done
echo "serve: VmRSS after load $(( $(kib VmRSS) / 1024 )) MB, peak $(( $(kib VmHWM) / 1024 )) MB"
