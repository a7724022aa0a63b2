#!/usr/bin/env bash
# PgBouncer in transaction mode on loopback, in front of a PostgreSQL on loopback (CI and bench only;
# `npm test` never needs it). Every database name is routed to the server (wildcard entry), so the
# per-file test databases work without listing them.
#
#   scripts/ci/pgbouncer.sh start DIR [LISTEN_PORT=6432] [PG_PORT=5432] [USERS="postgres postgres_app"]
#     (USERS: names, or name=password when the server asks for one)
#   scripts/ci/pgbouncer.sh stop DIR
#
# Authentication is `trust` against an auth_file that lists the users: loopback only, the server
# behind it decides (it trusts loopback on CI). Startup `options` (the app's -c timeouts) are
# ignored by PgBouncer: behind it, set them on the role (README, Operación).
# PGBOUNCER_SERVER_LOGIN_RETRY (s, 15) and PGBOUNCER_QUERY_WAIT_TIMEOUT (s, 120): how soon PgBouncer
# tries a server again after a failed connection, and how long a query waits for one (the failover
# bench, bench/failover.mjs, shortens both: the primary moves and in-flight requests must fail fast).
set -euo pipefail
cmd=${1:?start|stop}
dir=${2:?directory}

case "$cmd" in
start)
  listen=${3:-6432}
  pgport=${4:-5432}
  users=${5:-postgres postgres_app}
  bin=$(command -v pgbouncer || echo /usr/sbin/pgbouncer)
  [ -x "$bin" ] || { echo "pgbouncer no está instalado (apt-get install -y pgbouncer)" >&2; exit 1; }
  mkdir -p "$dir"
  : >"$dir/userlist.txt"
  for u in $users; do
    # "name" or "name=password" (PgBouncer logs in to the server with it when the server asks).
    name=${u%%=*}
    pw=""
    [ "$name" != "$u" ] && pw=${u#*=}
    printf '"%s" "%s"\n' "$name" "$pw" >>"$dir/userlist.txt"
  done
  cat >"$dir/pgbouncer.ini" <<INI
[databases]
* = host=127.0.0.1 port=$pgport

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $listen
unix_socket_dir =
auth_type = trust
auth_file = $dir/userlist.txt
pool_mode = transaction
max_client_conn = 2000
default_pool_size = 20
max_db_connections = 40
server_idle_timeout = 10
server_login_retry = ${PGBOUNCER_SERVER_LOGIN_RETRY:-15}
query_wait_timeout = ${PGBOUNCER_QUERY_WAIT_TIMEOUT:-120}
ignore_startup_parameters = extra_float_digits,options
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
INI
  # PgBouncer refuses to run as root: drop to the postgres system user when we are root.
  as=()
  if [ "$(id -u)" = 0 ]; then
    chown -R postgres "$dir"
    chmod 600 "$dir/userlist.txt"
    as=(-u postgres)
  fi
  "$bin" -d "${as[@]}" "$dir/pgbouncer.ini"
  for _ in $(seq 50); do
    if pg_isready -q -h 127.0.0.1 -p "$listen" 2>/dev/null; then exit 0; fi
    sleep 0.1
  done
  echo "pgbouncer no arrancó en 127.0.0.1:$listen" >&2
  cat "$dir/pgbouncer.log" >&2 || true
  exit 1
  ;;
stop)
  if [ -f "$dir/pgbouncer.pid" ]; then
    pid=$(cat "$dir/pgbouncer.pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  ;;
*)
  echo "uso: $0 start|stop DIR …" >&2
  exit 2
  ;;
esac
