#!/usr/bin/env bash
# Starts throw-away PostgreSQL and Redis servers on loopback for the storage and ephemeral-store tests, and prints
# the environment variables that point the tests at them. Used by .ci/run; handy on a laptop too:
#   eval "$(bash .ci/services.sh start)"      …      bash .ci/services.sh stop
# Needs the Debian packages postgresql and redis-server (.ci/run installs them).
set -euo pipefail

state="${HOLDFAST_SERVICES_DIR:-/tmp/holdfast-services}"
pg_port="${HOLDFAST_TEST_PG_PORT:-54329}"
redis_port="${HOLDFAST_TEST_REDIS_PORT:-63790}"
pg_bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"

run_as_postgres() {
  if [ "$(id -u)" = "0" ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start() {
  mkdir -p "$state"
  if [ -z "$pg_bin" ]; then echo "PostgreSQL binaries not found (apt-get install postgresql)" >&2; exit 1; fi
  if [ "$(id -u)" = "0" ]; then chown postgres "$state"; fi
  if [ ! -f "$state/pg/PG_VERSION" ]; then
    run_as_postgres "$pg_bin/initdb" -D "$state/pg" -U postgres --auth=trust -E UTF8 >"$state/initdb.log" 2>&1
  fi
  if ! run_as_postgres "$pg_bin/pg_ctl" -D "$state/pg" status >/dev/null 2>&1; then
    run_as_postgres "$pg_bin/pg_ctl" -D "$state/pg" -l "$state/pg.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $pg_port -k $state -c max_connections=600 -c fsync=off" start >/dev/null
  fi
  run_as_postgres "$pg_bin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -tAc \
    "SELECT 1 FROM pg_roles WHERE rolname='holdfast'" | grep -q 1 ||
    run_as_postgres "$pg_bin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -qc \
      "CREATE ROLE holdfast LOGIN PASSWORD 'holdfast' CREATEDB"
  run_as_postgres "$pg_bin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -tAc \
    "SELECT 1 FROM pg_database WHERE datname='holdfast_test'" | grep -q 1 ||
    run_as_postgres "$pg_bin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -qc \
      "CREATE DATABASE holdfast_test OWNER holdfast"
  if ! redis-cli -h 127.0.0.1 -p "$redis_port" ping >/dev/null 2>&1; then
    redis-server --bind 127.0.0.1 --port "$redis_port" --save '' --appendonly no --daemonize yes \
      --logfile "$state/redis.log" --pidfile "$state/redis.pid"
    for _ in $(seq 1 50); do redis-cli -h 127.0.0.1 -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 0.1; done
  fi
  echo "export HOLDFAST_TEST_POSTGRES_URL=postgres://holdfast:holdfast@127.0.0.1:$pg_port/holdfast_test"
  echo "export HOLDFAST_TEST_REDIS_URL=redis://127.0.0.1:$redis_port"
}

stop() {
  [ -n "$pg_bin" ] && [ -d "$state/pg" ] && run_as_postgres "$pg_bin/pg_ctl" -D "$state/pg" -m fast stop >/dev/null 2>&1 || true
  redis-cli -h 127.0.0.1 -p "$redis_port" shutdown nosave >/dev/null 2>&1 || true
}

case "${1:-start}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
