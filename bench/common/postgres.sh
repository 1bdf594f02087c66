# Sourced by benchmarks: a throwaway PostgreSQL from Debian's `postgresql` package, initdb'd into a
# temporary folder and started with pg_ctl on a Unix socket only, as a non-root user (the package's
# `postgres` user when run as root: initdb refuses root). Stopped by bench_postgres_stop (call it from the
# script's EXIT trap).
#   source bench/common/postgres.sh
#   bench_postgres_start "$work"      # sets BENCH_PG_URL (database "bench")
#   ... longread-generate --db "$BENCH_PG_URL" ...
#   bench_postgres_stop
# BENCH_PG_KEEP=1 keeps the server's folder after the stop, to look into afterwards.
# BENCH_PG_SETTINGS adds server settings ("-c name=value ..."), e.g. to preload pg_stat_statements.
bench_postgres_bin() {
  local v
  for v in 17 16 15; do
    [ -x "/usr/lib/postgresql/$v/bin/initdb" ] && { echo "/usr/lib/postgresql/$v/bin"; return; }
  done
  echo "bench: PostgreSQL is not installed (scripts/install-deps.sh test)" >&2
  return 1
}

bench_postgres_as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

bench_postgres_start() {
  local work="$1" bin
  bin="$(bench_postgres_bin)" || return 1
  BENCH_PG_DIR="$(mktemp -d /tmp/longread-bench-pg-XXXXXX)"
  BENCH_PG_BIN="$bin"
  mkdir -p "$BENCH_PG_DIR/data"
  [ "$(id -u)" -eq 0 ] && chown -R postgres:postgres "$BENCH_PG_DIR"
  bench_postgres_as_owner "$bin/initdb" -D "$BENCH_PG_DIR/data" -U postgres --auth=trust --encoding=UTF8 \
    --locale=C.UTF-8 >"$work/initdb.log" 2>&1 || { cat "$work/initdb.log"; return 1; }
  # Durable settings as a real site would run them (fsync on); memory sized for a small machine.
  bench_postgres_as_owner "$bin/pg_ctl" start -w -t 60 -D "$BENCH_PG_DIR/data" -l "$BENCH_PG_DIR/server.log" \
    -o "-k $BENCH_PG_DIR -c listen_addresses='' -c shared_buffers=512MB -c max_connections=200 ${BENCH_PG_SETTINGS:-}" \
    >"$work/pg_ctl.log" 2>&1 || { cat "$work/pg_ctl.log" "$BENCH_PG_DIR/server.log"; return 1; }
  bench_postgres_as_owner "$bin/createdb" -h "$BENCH_PG_DIR" -U postgres bench
  BENCH_PG_URL="postgresql:///bench?host=$BENCH_PG_DIR&user=postgres"
  export BENCH_PG_URL
}

bench_postgres_stop() {
  [ -n "${BENCH_PG_DIR:-}" ] || return 0
  bench_postgres_as_owner "$BENCH_PG_BIN/pg_ctl" stop -m fast -D "$BENCH_PG_DIR/data" >/dev/null 2>&1 || true
  if [ "${BENCH_PG_KEEP:-0}" = 1 ]; then
    echo "kept the PostgreSQL data folder $BENCH_PG_DIR/data (start it with $BENCH_PG_BIN/pg_ctl)"
  else
    rm -rf "$BENCH_PG_DIR"
  fi
  BENCH_PG_DIR=""
}
