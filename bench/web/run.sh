#!/usr/bin/env bash
# longread's site vs nginx serving saved copies of the same two pages, in one run, same machine.
#   bench/web/run.sh [BUILD_DIR] [ARTICLES]
# Generates ARTICLES (default 100000) articles with longread-generate, starts longread-testsite on them and
# nginx (temporary config, same worker count as longread's threads) on the saved front and article pages,
# then runs wrk -t2 -c64 -d10s --latency against each. Prints requests/s, p99 and the ratio.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"
articles="${2:-100000}"
duration="${DURATION:-10s}"
threads="${THREADS:-2}"
for tool in wrk nginx curl; do
  command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] || { echo "bench: $tool not installed (scripts/install-deps.sh all)"; exit 1; }
done
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"
testsite="$build/src/ui/longread-testsite"
generate="$build/src/storage/longread-generate"
[ -x "$testsite" ] || { echo "bench: build longread-testsite first (ninja -C $build longread-testsite)"; exit 1; }
[ -x "$generate" ] || { echo "bench: build longread-generate first (ninja -C $build longread-generate)"; exit 1; }

work="$(mktemp -d)"
chmod 755 "$work"  # nginx workers run as an unprivileged user when started by root
site_pid=""
nginx_pid=""
cleanup() {
  [ -n "$site_pid" ] && kill "$site_pid" 2>/dev/null && wait "$site_pid" 2>/dev/null || true
  [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

echo "== generating $articles articles"
"$generate" --db "$work/bench.db" --articles "$articles" >/dev/null

"$testsite" --db "$work/bench.db" --threads "$threads" >"$work/site.out" 2>"$work/access.log" &
site_pid=$!
for _ in $(seq 1 100); do grep -q '^listening ' "$work/site.out" 2>/dev/null && break; sleep 0.1; done
site="$(sed -n 's/^listening //p' "$work/site.out")"
[ -n "$site" ] || { echo "bench: longread-testsite did not start"; cat "$work/access.log"; exit 1; }

front_path="/"
article_path="$(curl -sf "$site/" | grep -o 'href="/blog/[0-9]*/read/[^"]*"' | head -1 | sed 's/^href="//; s/"$//')"
[ -n "$article_path" ] || { echo "bench: no article link on the front page"; exit 1; }
mkdir -p "$work/www"
curl -sf "$site$front_path" -o "$work/www/index.html"
curl -sf "$site$article_path" -o "$work/www/article.html"
echo "== pages: front $(wc -c <"$work/www/index.html") bytes, article $article_path $(wc -c <"$work/www/article.html") bytes"

nginx_port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
cat >"$work/nginx.conf" <<NGINX
worker_processes $threads;
pid $work/nginx.pid;
error_log $work/nginx-error.log warn;
events { worker_connections 1024; }
http {
  access_log $work/nginx-access.log;
  client_body_temp_path $work/tmp-body; proxy_temp_path $work/tmp-proxy; fastcgi_temp_path $work/tmp-fcgi;
  uwsgi_temp_path $work/tmp-uwsgi; scgi_temp_path $work/tmp-scgi;
  default_type text/html;
  keepalive_requests 100000;
  server {
    listen 127.0.0.1:$nginx_port;
    root $work/www;
    location = / { try_files /index.html =404; }
    location = /article { try_files /article.html =404; }
  }
}
NGINX
"$nginx_bin" -c "$work/nginx.conf" -p "$work" -g 'daemon off;' &
nginx_pid=$!
for _ in $(seq 1 50); do curl -sf "http://127.0.0.1:$nginx_port/" -o /dev/null && break; sleep 0.1; done
curl -sf "http://127.0.0.1:$nginx_port/" -o /dev/null || { echo "bench: nginx did not start"; cat "$work/nginx-error.log"; exit 1; }

declare -A rps p99
run() {
  local name="$1" url="$2"
  curl -sf "$url" -o /dev/null  # warm (fills longread's page cache)
  local out
  out="$(wrk -t2 -c64 -d"$duration" --latency "$url")"
  rps[$name]="$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")"
  p99[$name]="$(awk '$1 == "99%" {print $2}' <<<"$out")"
  local errors
  errors="$(grep -E 'Non-2xx|Socket errors' <<<"$out" || true)"
  printf '%-16s %12s req/s   p99 %8s   %s\n' "$name" "${rps[$name]}" "${p99[$name]}" "$errors"
}

echo "== wrk -t2 -c64 -d$duration --latency ($(nproc) cores; servers use $threads threads/workers)"
run longread-front "$site$front_path"
run nginx-front "http://127.0.0.1:$nginx_port/"
run longread-article "$site$article_path"
run nginx-article "http://127.0.0.1:$nginx_port/article"

echo "== longread / nginx requests/s"
for page in front article; do
  awk -v a="${rps[longread-$page]}" -v b="${rps[nginx-$page]}" -v p="$page" \
    'BEGIN { printf "%-8s %.0f%%\n", p, 100 * a / b }'
done
echo "== access log lines written by longread: $(wc -l <"$work/access.log")"
