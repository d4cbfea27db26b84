#!/usr/bin/env bash
# Writes the fuzzers' seed corpus (Fuzz/Corpus/<target>/) from the real program's own output: a
# batch and a snapshot of a folder remote, sealed ones from an encrypted remote, a CSV export, and
# raw HTTP answers (with their headers) and change pages from a `lifelog serve`. See docs/testing.md.
#
#   scripts/fuzz-seeds.sh path/to/lifelog
#
# The clock and zone are fixed, so most seeds are the same bytes on every run (ids, device ids and
# keys are random, so not all). The corpus is committed; rerun this when a format changes.
set -euo pipefail

if [[ $# -ne 1 || ! -x "$1" ]]; then
  echo "Usage: $0 <path to the lifelog binary>" >&2
  exit 64
fi
lifelog=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
corpus=$(cd "$(dirname "$0")/.." && pwd)/Fuzz/Corpus
work=$(mktemp -d "${TMPDIR:-/tmp}/lifelog-seeds.XXXXXX")
server_pid=""
cleanup() {
  if [[ -n $server_pid ]]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

export TZ=Europe/Warsaw LIFELOG_NOW=2026-12-02T21:00:00+01:00 LIFELOG_DB="$work/a.db"
export LIFELOG_PASSPHRASE="correct horse battery staple"
ll() { "$lifelog" "$@" >/dev/null; }

ll add breakfast "oatmeal, coffee" --at 7:30 --tag home
ll add walk "around the \"park\", twice" --at 15:00 --duration 45m --qty 4.2
ll add tea --kind meal --at 20:30 "green tea"
ll add sleep --at "yesterday 23:00" --duration 7h30m
ll settings set mealGapHours 5 2>/dev/null || true

mkdir -p "$corpus"/{batch,envelope,json,csv,time,duration,http,changes}
ll export --output "$corpus/csv/export.csv"
printf 'at,activity,note\n2026-12-01 08:00,breakfast,"porridge, blueberries"\r\n' >"$corpus/csv/crlf.csv"
printf '\xef\xbb\xbfid,at\n"a ""quoted"" field","two\nlines"\n' >"$corpus/csv/bom-quotes.csv"

# Folder remotes: plain and sealed batches and snapshots, as the real program writes them.
ll remote add plain "$work/plain" --no-encrypt
ll remote add sealed "$work/sealed" --encrypt
ll sync
first_batch() { find "$1" -type f -path '*devices*' | sort | head -n 1; }
cp "$(first_batch "$work/plain")" "$corpus/batch/plain-batch"
cp "$(first_batch "$work/sealed")" "$corpus/envelope/sealed-batch"
cp "$(first_batch "$work/plain")" "$corpus/envelope/plain-batch"
for file in $(find "$work/plain" -type f -name '*.json*' | sort); do
  cp "$file" "$corpus/json/$(basename "$file")"
done

# A server: raw answers with their headers (the HTTP parser's input) and change pages (the index).
"$lifelog" serve user add me --data "$work/server" >"$work/token" 2>/dev/null
"$lifelog" serve --listen 127.0.0.1:0 --data "$work/server" >"$work/server.out" 2>"$work/server.log" &
server_pid=$!
for _ in $(seq 100); do
  grep -q listening "$work/server.out" 2>/dev/null && break
  sleep 0.05
done
url=$(sed -n 's|.*listening on \(http://[0-9.]*:[0-9]*\),.*|\1|p' "$work/server.out")
ll remote add home "$url" --token-file "$work/token" --no-encrypt
ll sync home
ll add snack apple --at 10am
ll sync home
token=$(cat "$work/token")
raw() { curl -s -i --raw -H "Authorization: Bearer $token" "$@"; }
raw "$url/v1/manifest" >"$corpus/http/manifest"
raw "$url/v1/changes?after=0&exclude=none&rows=5000" >"$corpus/http/changes"
raw "$url/v1/nothing-here" >"$corpus/http/not-found"
curl -s -i --raw "$url/v1/manifest" >"$corpus/http/unauthorized"
printf 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nRetry-After: 2\r\n\r\n4\r\nabcd\r\n0\r\n\r\n' \
  >"$corpus/http/chunked"
curl -s -H "Authorization: Bearer $token" "$url/v1/changes?after=0&exclude=none&rows=5000" \
  >"$corpus/changes/page"
curl -s -H "Authorization: Bearer $token" "$url/v1/changes?after=1&exclude=none&rows=5000" \
  >"$corpus/changes/page-after-1"
curl -s -H "Authorization: Bearer $token" "$url/v1/manifest" >"$corpus/json/manifest.json"

# Typed times and durations, as people write them (docs/cli.md).
i=0
for text in now 08:15 8am "yesterday 19:30" "mon 12:00" -2h "2 hours ago" "2026-12-01 08:15" \
  2026-12-01T08:15:00+01:00 2026-12-01T07:15:00Z today 12:30pm; do
  printf '%s' "$text" >"$corpus/time/$((i += 1))"
done
for text in 45m 1h30m 90s 1:30 7h30m 1:02:03 2d 0s; do
  printf '%s' "$text" >"$corpus/duration/$((i += 1))"
done
echo "seeds written to $corpus:"
find "$corpus" -type f | sed "s|$corpus/||" | sort | tr '\n' ' '
echo
