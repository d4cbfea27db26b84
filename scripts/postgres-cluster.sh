#!/bin/sh
# A throwaway PostgreSQL cluster for the tests and benchmarks (docs/development.md).
#
#   scripts/postgres-cluster.sh start OWNER [durable]
#       prints the cluster's folder and port; the cluster is stopped and removed once process
#       OWNER is gone
#   scripts/postgres-cluster.sh createdb FOLDER NAME   creates database NAME (none if it exists)
#   scripts/postgres-cluster.sh sql FOLDER SQL         runs SQL in database 'postgres'
#   scripts/postgres-cluster.sh stop FOLDER            stops the cluster and removes its folder
#
# The cluster listens on 127.0.0.1 and a free port only (and a socket in its folder), trusts local
# connections as user 'postgres', and runs as the 'postgres' system user when started by root
# (PostgreSQL refuses to run as root). Without 'durable', fsync is off: fast, and fine for tests.
set -eu

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bindir" ]; then
  echo "PostgreSQL is not installed; install it with 'apt install postgresql'" >&2
  exit 69
fi

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
start)
  # Started by a test process (system()) whose other threads hold pipes to their own children,
  # opened without close-on-exec: a daemon started here would keep those pipes open for its whole
  # life, and the test reading its child's output would wait for an end that never comes (the
  # whole test run hung that way). So the script runs again under bash, which can close any
  # descriptor (dash only 0-9), with nothing open but standard input, output and error.
  if [ -z "${LIFELOG_POSTGRES_CLEAN_FDS:-}" ]; then
    LIFELOG_POSTGRES_CLEAN_FDS=1 exec bash -c '
      for fd in /proc/$$/fd/*; do
        fd=${fd##*/}
        [ "$fd" -gt 2 ] && eval "exec $fd>&-"
      done
      exec /bin/sh "$0" "$@"' "$0" "$@"
  fi
  owner=$2
  folder=$(mktemp -d /tmp/lifelog-postgres.XXXXXX)
  chmod 0755 "$folder"
  [ "$(id -u)" = 0 ] && chown postgres:postgres "$folder"
  settings="-c listen_addresses=127.0.0.1 -c max_connections=300 -c shared_buffers=128MB"
  if [ "${3:-}" != durable ]; then
    settings="$settings -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
  fi
  as_owner "$bindir/initdb" -D "$folder/data" -U postgres -A trust -E UTF8 --locale=C \
    --no-sync >"$folder/initdb.log" 2>&1 || {
    echo "initdb failed:" >&2
    cat "$folder/initdb.log" >&2
    exit 1
  }
  # A random port; another one when it is taken.
  for attempt in 1 2 3 4 5 6 7 8; do
    port=$((20000 + $(od -An -N2 -tu2 /dev/urandom) % 40000))
    if as_owner "$bindir/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w -t 60 \
      -o "-p $port -k $folder $settings" start >/dev/null; then
      break
    fi
    grep -q "could not bind\|already in use" "$folder/server.log" && [ "$attempt" -lt 8 ] || {
      echo "pg_ctl start failed (attempt $attempt, port $port); $folder/server.log:" >&2
      cat "$folder/server.log" >&2
      exit 1
    }
  done
  # The owner may end without stopping the cluster (killed, or a crash): stop it then.
  nohup sh -c "while kill -0 $owner 2>/dev/null; do sleep 1; done; '$0' stop '$folder'" \
    </dev/null >/dev/null 2>&1 &
  echo "$folder $port"
  ;;
createdb)
  port=$(sed -n 4p "$2/data/postmaster.pid")
  # From template0, which nobody connects to: copying template1 fails with "source database
  # template1 is being accessed by other users" while another createdb copies it (tests create
  # databases in parallel). Still retried a few times for any such conflict, with the real
  # message when it persists.
  for attempt in 1 2 3 4 5 6 7 8 9 10; do
    if out=$("$bindir/createdb" -h 127.0.0.1 -p "$port" -U postgres -T template0 "$3" 2>&1); then
      exit 0
    fi
    case "$out" in
    *"already exists"*) exit 0 ;;
    *"being accessed by other users"*) [ "$attempt" -lt 10 ] && sleep 0.2 && continue ;;
    esac
    echo "createdb $3 failed (attempt $attempt): ${out:-no message}" >&2
    exit 1
  done
  ;;
sql)
  port=$(sed -n 4p "$2/data/postmaster.pid")
  "$bindir/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres -d postgres -c "$3"
  ;;
stop)
  as_owner "$bindir/pg_ctl" -D "$2/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$2"
  ;;
*)
  echo "usage: $0 start OWNER [durable] | createdb FOLDER NAME | sql FOLDER SQL | stop FOLDER" >&2
  exit 64
  ;;
esac
