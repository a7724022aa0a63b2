#!/usr/bin/env bash
# High availability on loopback (docs/decisions/0060-alta-disponibilidad.md): etcd (the consensus),
# two PostgreSQL nodes under Patroni (a primary and a synchronous standby) and HAProxy, the stable
# address of whichever node is the primary (it asks each node's Patroni `GET /primary`).
#
#   scripts/ha.sh up DIR [BASE_PORT=5440]   start everything in DIR; prints the primary's URL
#   scripts/ha.sh status DIR                the cluster as Patroni sees it (JSON)
#   scripts/ha.sh down DIR                  stop everything started in DIR (by its pid files)
#   scripts/ha.sh start-node DIR n1|n2      start a node's Patroni again (after its machine "died")
#
# Ports, from BASE_PORT: HAProxy BASE (the address the app uses), PostgreSQL n1 BASE+1 and n2
# BASE+2, Patroni's REST API n1 BASE+11 and n2 BASE+12, etcd BASE+21 (clients) and BASE+22 (peers).
# Everything listens on 127.0.0.1 with `trust` authentication: a test and bench setup, not a
# production one (the README's "Alta disponibilidad" says what changes on real machines).
# Patroni, PostgreSQL and etcd refuse to run as root: as root, they run as the `postgres` user.
# Needs the Debian packages postgresql-15 patroni etcd-server haproxy.
set -euo pipefail
cmd=${1:?up|status|down}
dir=${2:?directory}

if [ "$cmd" = up ]; then mkdir -p "$dir"; fi
dir=$(cd "$dir" && pwd)
portsfile="$dir/ports.env"

as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# Runs a daemon in the background, detached (its own session, no inherited output), writing its
# pid to DIR/NAME.pid and its output to DIR/NAME.log.
daemon() {
  local name=$1
  shift
  as_pg setsid sh -c 'echo $$ >"$0.pid"; exec "$@" >>"$0.log" 2>&1' "$dir/$name" "$@" </dev/null >/dev/null 2>&1 &
}

# Waits until a URL answers 200 (up to $2 tenths of a second).
wait_http() {
  local url=$1 tries=${2:-300}
  for _ in $(seq "$tries"); do
    if curl -sf -o /dev/null --max-time 1 "$url"; then return 0; fi
    sleep 0.1
  done
  return 1
}

node_yml() {
  local name=$1 pgport=$2 rest=$3 etcd=$4 pgbin=$5
  cat <<YML
scope: mostrador
namespace: /mostrador-ha/
name: $name
log:
  level: INFO
restapi:
  listen: 127.0.0.1:$rest
  connect_address: 127.0.0.1:$rest
etcd3:
  hosts: 127.0.0.1:$etcd
bootstrap:
  dcs:
    # The leader's key lives ttl seconds without renewal (Patroni's minimum: 20), renewed every
    # loop_wait. A crashed PostgreSQL under a live Patroni fails over at once (primary_start_timeout
    # 0, to the synchronous standby); a dead machine (Patroni gone too), when the key expires.
    ttl: 20
    loop_wait: 1
    retry_timeout: 5
    primary_start_timeout: 0
    # Only the synchronous standby is a candidate, and it has every acknowledged commit: a busy
    # primary's few MB of not yet confirmed WAL must not stop the failover.
    maximum_lag_on_failover: 16777216
    # Commits wait for the standby's flush; only the synchronous standby can be promoted.
    synchronous_mode: true
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        max_connections: 200
        wal_log_hints: 'on'
        synchronous_commit: 'on'
        max_wal_senders: 10
        max_replication_slots: 10
        wal_keep_size: 128MB
  initdb:
    - encoding: UTF8
    - locale: C.UTF-8
    - data-checksums
postgresql:
  listen: 127.0.0.1:$pgport
  connect_address: 127.0.0.1:$pgport
  data_dir: $dir/$name/data
  bin_dir: $pgbin
  pgpass: $dir/$name/pgpass
  # The old primary comes back as a standby: pg_rewind, or a new copy if that fails.
  remove_data_directory_on_rewind_failure: true
  remove_data_directory_on_diverged_timelines: true
  authentication:
    superuser:
      username: postgres
      password: postgres
    replication:
      username: replicador
      password: replicador
  parameters:
    unix_socket_directories: $dir/$name
  pg_hba:
    - local all all trust
    - host all all 127.0.0.1/32 trust
    - host replication all 127.0.0.1/32 trust
YML
}

haproxy_cfg() {
  local base=$1 p1=$2 p2=$3 r1=$4 r2=$5
  cat <<CFG
global
  maxconn 4000
defaults
  mode tcp
  timeout connect 1s
  timeout client 30m
  timeout server 30m
  # A loaded machine may take a while to answer the check: a slow answer is not a dead node.
  timeout check 2s
listen primario
  bind 127.0.0.1:$base
  # Only the node whose Patroni holds the leader key answers 200 to GET /primary. A node marked
  # down has its connections cut at once (the app sees them lost and answers 503).
  option httpchk GET /primary
  http-check expect status 200
  # Until the crashed node's Patroni notices (up to a second), both nodes may look up: a refused
  # connection is tried again on the other one.
  option redispatch
  retries 2
  default-server inter 500ms fastinter 250ms downinter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
  server n1 127.0.0.1:$p1 check port $r1
  server n2 127.0.0.1:$p2 check port $r2
CFG
}

stop_pid() {
  local file=$1 signal=${2:-TERM} waits=${3:-150}
  [ -f "$file" ] || return 0
  local pid
  pid=$(head -1 "$file")
  [ -n "$pid" ] || return 0
  kill -"$signal" "$pid" 2>/dev/null || return 0
  for _ in $(seq "$waits"); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
}

case "$cmd" in
up)
  base=${3:-5440}
  pgbin=${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
  for b in patroni etcd haproxy curl; do
    command -v "$b" >/dev/null 2>&1 || { echo "$b no está instalado (apt-get install -y postgresql-15 patroni etcd-server haproxy curl)" >&2; exit 1; }
  done
  [ -x "$pgbin/postgres" ] || { echo "no encuentro PostgreSQL en $pgbin" >&2; exit 1; }
  p1=$((base + 1)) p2=$((base + 2)) r1=$((base + 11)) r2=$((base + 12)) ec=$((base + 21)) ep=$((base + 22))
  mkdir -p "$dir/n1" "$dir/n2" "$dir/etcd"
  chmod 700 "$dir/n1" "$dir/n2" "$dir/etcd"
  cat >"$portsfile" <<ENV
HA_PORT=$base
N1_PG=$p1
N2_PG=$p2
N1_REST=$r1
N2_REST=$r2
ETCD_PORT=$ec
ENV
  node_yml n1 "$p1" "$r1" "$ec" "$pgbin" >"$dir/n1.yml"
  node_yml n2 "$p2" "$r2" "$ec" "$pgbin" >"$dir/n2.yml"
  haproxy_cfg "$base" "$p1" "$p2" "$r1" "$r2" >"$dir/haproxy.cfg"
  if [ "$(id -u)" = 0 ]; then chown -R postgres: "$dir"; fi

  daemon etcd etcd --name ha --data-dir "$dir/etcd" \
    --listen-client-urls "http://127.0.0.1:$ec" --advertise-client-urls "http://127.0.0.1:$ec" \
    --listen-peer-urls "http://127.0.0.1:$ep" --initial-advertise-peer-urls "http://127.0.0.1:$ep" \
    --initial-cluster "ha=http://127.0.0.1:$ep" --initial-cluster-state new --initial-cluster-token mostrador-ha
  wait_http "http://127.0.0.1:$ec/health" || { echo "etcd no arrancó (ver $dir/etcd.log)" >&2; exit 1; }

  # n1 bootstraps the cluster (initdb) and takes the leader key; n2 copies it and becomes the
  # synchronous standby.
  daemon n1 patroni "$dir/n1.yml"
  wait_http "http://127.0.0.1:$r1/primary" 600 || { echo "n1 no llegó a primario (ver $dir/n1.log)" >&2; exit 1; }
  daemon n2 patroni "$dir/n2.yml"
  wait_http "http://127.0.0.1:$r2/sync" 600 || { echo "n2 no llegó a standby sincrónico (ver $dir/n2.log)" >&2; exit 1; }

  daemon haproxy haproxy -db -f "$dir/haproxy.cfg"
  for _ in $(seq 100); do
    if "$pgbin/pg_isready" -q -h 127.0.0.1 -p "$base" 2>/dev/null; then
      echo "postgres://postgres@127.0.0.1:$base/postgres"
      exit 0
    fi
    sleep 0.1
  done
  echo "HAProxy no responde en 127.0.0.1:$base (ver $dir/haproxy.log)" >&2
  exit 1
  ;;
start-node)
  node=${3:?n1|n2}
  [ -f "$dir/$node.yml" ] || { echo "no hay nodo $node en $dir" >&2; exit 1; }
  daemon "$node" patroni "$dir/$node.yml"
  ;;
status)
  # shellcheck disable=SC1090
  . "$portsfile"
  curl -sf --max-time 2 "http://127.0.0.1:$N1_REST/cluster" || curl -sf --max-time 2 "http://127.0.0.1:$N2_REST/cluster"
  echo
  ;;
down)
  stop_pid "$dir/haproxy.pid"
  # Patroni stops its PostgreSQL on SIGTERM; both at once, then the consensus.
  stop_pid "$dir/n1.pid" TERM 300 &
  stop_pid "$dir/n2.pid" TERM 300 &
  wait
  for n in n1 n2; do
    # A PostgreSQL left behind by a killed Patroni: immediate shutdown.
    if [ -f "$dir/$n/data/postmaster.pid" ]; then stop_pid "$dir/$n/data/postmaster.pid" QUIT 100; fi
  done
  stop_pid "$dir/etcd.pid"
  ;;
*)
  echo "uso: $0 up|status|down|start-node DIR [BASE_PORT|NODE]" >&2
  exit 2
  ;;
esac
