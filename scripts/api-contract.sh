#!/bin/sh
# Checks the HTTP API against its contract with tools we did not write (docs/testing.md):
# docs/openapi.yaml must pass openapi-spec-validator, and schemathesis, run with every check
# against a live `lifelog serve`, must find nothing.
#
#   scripts/api-contract.sh LIFELOG_BINARY sqlite|postgres
#
# The tools live in a virtual environment under .build/venv (the system python3 with Debian's
# python3-venv), installed at pinned versions the first time and reused after. The server runs on
# 127.0.0.1 and a free port, with one user, until the script ends; on PostgreSQL, in a throwaway
# cluster (scripts/postgres-cluster.sh). The run is deterministic: a fixed seed, a bounded number
# of examples per operation, no example database carried between runs.
set -eu

binary=$1
store=$2
root=$(cd "$(dirname "$0")/.." && pwd)
venv="$root/.build/venv"
spec="$root/docs/openapi.yaml"
# Pinned: a new release may check more, and the contract should change only on purpose.
tools="openapi-spec-validator==0.9.0 schemathesis==4.32.5"
seed=20261203
examples=${LIFELOG_CONTRACT_EXAMPLES:-40}

if ! "$venv/bin/python" -c 'import openapi_spec_validator, schemathesis' 2>/dev/null ||
  [ "$(cat "$venv/.tools" 2>/dev/null)" != "$tools" ]; then
  echo "api-contract: installing $tools into $venv"
  # The venv is shared (import-tools.sh, python-tools.sh): add to it, never remove it, or the
  # next `swift test` would find no selenium, icalendar, jrnl or watson.
  [ -x "$venv/bin/pip" ] || /usr/bin/python3 -m venv "$venv"
  # shellcheck disable=SC2086
  "$venv/bin/pip" install --quiet --disable-pip-version-check $tools
  echo "$tools" >"$venv/.tools"
fi

"$venv/bin/openapi-spec-validator" "$spec"

work=$(mktemp -d /tmp/lifelog-contract.XXXXXX)
server=""
cluster=""
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  [ -n "$cluster" ] && "$root/scripts/postgres-cluster.sh" stop "$cluster"
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

case "$store" in
sqlite) location="--data $work/data" ;;
postgres)
  set -- $("$root/scripts/postgres-cluster.sh" start $$)
  cluster=$1
  "$root/scripts/postgres-cluster.sh" createdb "$cluster" contract
  location="--store postgres://postgres@127.0.0.1:$2/contract"
  ;;
*)
  echo "usage: $0 LIFELOG_BINARY sqlite|postgres" >&2
  exit 64
  ;;
esac

# shellcheck disable=SC2086
token=$(env -i PATH=/usr/bin:/bin HOME="$work" "$binary" serve user add contract $location)
# No rate limit, per token or per address (--max-connections-per-address 0 turns off the limits
# per client address too): schemathesis sends far more than a client would, and 429 is not what
# is tested (the route tests test it).
# shellcheck disable=SC2086
env -i PATH=/usr/bin:/bin HOME="$work" "$binary" serve --listen 127.0.0.1:0 $location \
  --rate-limit 0 --max-connections-per-address 0 >"$work/out" 2>"$work/log" </dev/null &
server=$!
tries=0
until grep -q "listening on" "$work/out" 2>/dev/null; do
  tries=$((tries + 1))
  if [ "$tries" -gt 200 ] || ! kill -0 "$server" 2>/dev/null; then
    echo "api-contract: lifelog serve did not start:" >&2
    cat "$work/out" "$work/log" >&2
    exit 1
  fi
  sleep 0.1
done
url=$(sed -n 's/.*listening on \(http:\/\/127\.0\.0\.1:[0-9]*\).*/\1/p' "$work/out")

echo "api-contract: schemathesis on $store at $url (seed $seed, $examples examples per operation)"
status=0
"$venv/bin/schemathesis" --config-file "$root/scripts/api-contract.toml" run "$spec" --url "$url" --checks all \
  --header "Authorization: Bearer $token" \
  --seed "$seed" --max-examples "$examples" --generation-database none \
  --workers 1 --no-color --report-dir "$work/report" || status=$?
if [ "$status" != 0 ]; then
  echo "api-contract: the server's log:" >&2
  tail -n 50 "$work/log" >&2
fi
exit "$status"
