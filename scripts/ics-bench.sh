#!/bin/sh
# make bench: `lifelog export --format ics` of ENTRIES (100,000) entries over three UTC offsets,
# read back whole by Python's icalendar (scripts/ics-dump.py --count, which fails on any line it
# finds unclean). Prints one JSON line: entries, file bytes, export and parse seconds. No limit is
# asserted; the run fails only if the file does not parse or holds another number of events.
#
#   scripts/ics-bench.sh LIFELOG_BINARY [ENTRIES]
set -eu

binary=$1
entries=${2:-100000}
root=$(cd "$(dirname "$0")/.." && pwd)
python=$("$root/scripts/python-tools.sh")
work=$(mktemp -d /tmp/lifelog-ics-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM
export LIFELOG_DB="$work/log.db" TZ=UTC

"$python" - "$entries" >"$work/in.csv" <<'PY'
import datetime, sys
print("at,activity,duration,note,tags")
for i in range(int(sys.argv[1])):
    zone = datetime.timezone(datetime.timedelta(minutes=(0, 60, 330)[i % 3]))
    at = datetime.datetime.fromtimestamp(1_780_000_000 + 600 * i, zone).isoformat()
    note = f"note {i} żółć 日本 🍵 with a longer text to fold"
    print(f"{at},walk,{i % 7200},{note},tag{i % 10}")
PY
"$binary" import "$work/in.csv" >/dev/null
start=$(date +%s.%N)
"$binary" export --format ics --output "$work/out.ics" >/dev/null
exported=$(date +%s.%N)
count=$("$python" "$root/scripts/ics-dump.py" --count "$work/out.ics")
parsed=$(date +%s.%N)
[ "$count" = "{\"events\": $entries}" ] || { echo "ics-bench: icalendar read $count" >&2; exit 1; }
bytes=$(stat -c %s "$work/out.ics")
awk -v n="$entries" -v b="$bytes" -v s="$start" -v e="$exported" -v p="$parsed" 'BEGIN {
  printf "{\"figure\":\"export ics\",\"entries\":%d,\"bytes\":%d,", n, b
  printf "\"exportSeconds\":%.2f,\"icalendarParseSeconds\":%.2f}\n", e - s, p - e }'
