#!/usr/bin/env bash
# Makes Tests/LifelogEndToEndTests/Fixtures/v030-log.db: a real log written by lifelog 0.3.0
# (commit a7111c7, migrations v1-initial, v2-sync, v3-remote-keys), and next to it what 0.3.0
# printed for that log (v030-*.txt, .csv, .json, .jsonl), which V030LogMigrationTests holds every
# later lifelog to. Run it only to remake the fixture; the committed files are the test's truth.
#
#   git worktree add /tmp/v030 a7111c7 && (cd /tmp/v030 && swift build --product lifelog)
#   scripts/make-v030-fixture.sh /tmp/v030/.build/debug/lifelog
#
# (A debug build writes the same log as a release one.) Needs jq, to read the ids `add --format
# json` prints, and sqlite3, to fold a WAL into the log file.
#
# The log is rich on purpose: default and custom activities (renamed, archived, with a unit and a
# target, one created by `add --kind`, two by `import`), entries over eleven days in five UTC
# offsets, notes with Unicode, quotes, commas and a line break, tags, quantities, durations, three
# deleted entries and one restored, an edited one, CSV and JSON Lines imports with their sources,
# every setting set, and a folder remote synced by two devices (so sync_device, sync_outbox,
# sync_applied and sync_remote hold rows), plus one change made after the last sync.
set -euo pipefail

bin=${1:?usage: $0 PATH-TO-LIFELOG-0.3.0 [FIXTURE-FOLDER]}
out=${2:-$(cd "$(dirname "$0")/.." && pwd)/Tests/LifelogEndToEndTests/Fixtures}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
version=$("$bin" --version)
[[ $version == "lifelog 0.3.0"* ]] || { echo "not lifelog 0.3.0: $version" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home" "$out"
cd "$work"
# The same clock and zone as V030LogMigrationTests, so reports and "today" agree.
export TZ=Europe/Warsaw LIFELOG_NOW=2026-11-30T21:00:00+01:00 HOME=$work/home NO_COLOR=1
export LIFELOG_DB=$work/log.db

ll() { "$bin" "$@"; }
# Adds an entry and prints its full id.
add() { ll add "$@" --format json | jq -r .id; }

ll activity add swim --kind exercise --unit km --target '2 km/week' >/dev/null
ll activity add vitamin-d --kind medication --unit mg --target '1 times/day' >/dev/null
ll activity rename workout gym >/dev/null

add breakfast 'oatmeal, coffee' --at '2026-11-20 07:30' >/dev/null
add snack apple --at '2026-11-20 10:00' --tag fruit >/dev/null
add lunch 'żurek z jajkiem 🍲' --at '2026-11-20 13:00' --tag home >/dev/null
add walk 'around the park' --at '2026-11-20 15:00' --duration 45m >/dev/null
add dinner 'salmon, rice & "salad"' --at '2026-11-20 19:00' >/dev/null
add sleep --at '2026-11-20 23:00' --duration 7h30m >/dev/null
add breakfast "toast, jam 'n' butter" --at '2026-11-21 08:15' >/dev/null
add swim 'lane 3' --at '2026-11-21 18:00' --duration 40m --qty 1.5 --tag pool >/dev/null
add vitamin-d --at '2026-11-21 09:00' --qty 25 >/dev/null
add run 'easy 5k' --at '2026-11-21 07:00' --duration 28m30s >/dev/null
add run 'intervals' --at '2026-11-19 07:00' --duration 35m >/dev/null
add gym 'legs; squats 5×5' --at '2026-11-21 19:30' --duration 1h --tag strength >/dev/null
# Travel: Tokyo, New York, Kolkata and UTC offsets typed into --at.
add breakfast 'onigiri at the airport' --at '2026-11-22T07:45:00+09:00' --tag travel >/dev/null
add lunch 'ramen 🍜' --at '2026-11-22T12:30:00+09:00' --tag travel --tag ramen >/dev/null
add sleep 'on the plane' --at '2026-11-22T20:00:00+09:00' --duration 9h >/dev/null
add dinner 'bagel' --at '2026-11-23T18:00:00-05:00' --tag travel >/dev/null
add walk 'Central Park' --at '2026-11-24T09:00:00-05:00' --duration 1h15m --tag travel >/dev/null
add lunch 'thali' --at '2026-11-25T13:00:00+05:30' >/dev/null
add snack 'chai' --at '2026-11-25T16:30:00+05:30' >/dev/null
add dinner 'layover' --at '2026-11-25T21:00:00Z' >/dev/null
add tea 'green tea' --kind meal --at '2026-11-26 20:30' >/dev/null
add breakfast $'two lines:\nfirst, then second' --at '2026-11-26 07:30' >/dev/null
add swim --at '2026-11-26 18:00' --qty 2 --duration 50m >/dev/null
add vitamin-d --at '2026-11-26 09:00' --qty 25 >/dev/null
add lunch 'pierogi ruskie' --at '2026-11-27 13:15' --tag home >/dev/null
add snack 'yogurt' --at '2026-11-27 16:30' >/dev/null
add dinner 'Zoë'"'"'s "famous" curry' --at '2026-11-27 19:00' --tag friends >/dev/null
add sleep --at '2026-11-27 23:30' --duration 8h >/dev/null
add walk --at '2026-11-28 11:00' --duration 30m >/dev/null
add snack 'late snack, after midnight' --at '2026-11-29 01:30' >/dev/null
add breakfast 'eggs' --at '2026-11-29 09:00' >/dev/null
edited=$(add lunch 'soup' --at '2026-11-29 13:00')
gone1=$(add snack 'chips' --at '2026-11-29 15:00')
gone2=$(add dinner 'pizza (mistake)' --at '2026-11-29 19:00')
back=$(add snack 'nuts' --at '2026-11-29 16:00')
gone3=$(add walk 'duplicate' --at '2026-11-28 11:00' --duration 30m)

ll edit "${edited:0:8}" --note 'tomato soup, bread' --tag home --tag warm --qty 1 >/dev/null
ll delete "${gone1:0:8}" "${gone2:0:8}" "$gone3" "${back:0:8}" >/dev/null
ll restore "${back:0:8}" >/dev/null
ll activity archive run >/dev/null

ll settings set mealGapHours 4.5 >/dev/null
ll settings set dayStartsAt 5am >/dev/null
ll settings set weekStartsOn Sunday >/dev/null
ll settings set name 'Zoë "Z" Kowalska' >/dev/null

# An import from a file (its name is the source) that creates an activity with a unit.
cat >garmin.csv <<'CSV'
at,activity,kind,duration,note,quantity,unit,tags
2026-11-23T07:10:00-05:00,cycling,exercise,3600,"hudson river, ""windy""",21.4,km,outdoor;travel
2026-11-28T10:00:00+01:00,cycling,exercise,45m,,12,km,outdoor
2026-11-30T08:00:00+01:00,run,exercise,1500,treadmill,,,
CSV
# `run` is archived: 0.3.0 refuses that row, so --skip-invalid imports the other two.
ll import garmin.csv --skip-invalid >/dev/null 2>&1 || true
cat >notes.jsonl <<'JSONL'
{"at":"2026-11-30T12:00:00+01:00","activity":"meditation","kind":"other","duration":600,"note":"breathing","tags":["calm"],"source":"headspace"}
{"at":"2026-11-30T12:30:00+01:00","activity":"lunch","note":"salad","source":"headspace"}
JSONL
ll import notes.jsonl >/dev/null

# A folder remote, a second device that joins it and writes, and this log pulling its batches.
ll remote add usb "$work/remote" --no-encrypt >/dev/null
ll sync >/dev/null
LIFELOG_DB=$work/other.db ll remote add usb "$work/remote" --no-encrypt >/dev/null
LIFELOG_DB=$work/other.db ll add dinner 'from the laptop' --at '2026-11-30 19:00' >/dev/null
LIFELOG_DB=$work/other.db ll add walk 'laptop walk' --at '2026-11-30 17:00' --duration 20m >/dev/null
LIFELOG_DB=$work/other.db ll activity add yoga --kind exercise --target '3 times/week' >/dev/null
LIFELOG_DB=$work/other.db ll sync >/dev/null
ll sync >/dev/null
# One change after the last sync, still waiting to be sent.
add snack 'after the sync' --at '2026-11-30 20:00' >/dev/null

# One file: fold the WAL (if 0.3.0 left one) into the log.
if [[ -e log.db-wal ]]; then sqlite3 log.db 'PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null; fi
rm -f log.db-wal log.db-shm
[[ $(sqlite3 log.db 'SELECT group_concat(identifier) FROM lifelog_migrations') == \
  "v1-initial,v2-sync,v3-remote-keys" ]]
cp log.db "$out/v030-log.db"
chmod 0644 "$out/v030-log.db"

# What 0.3.0 printed for that log; run on a copy so the fixture stays as synced.
cp log.db probe.db
export LIFELOG_DB=$work/probe.db
range=(--from 2026-01-01 --to 2027-01-01)
ll export >"$out/v030-export.csv"
ll export --format jsonl >"$out/v030-export.jsonl"
ll list "${range[@]}" >"$out/v030-list.txt"
ll list "${range[@]}" --format json >"$out/v030-list.json"
ll list "${range[@]}" --deleted >"$out/v030-list-deleted.txt"
ll activity list >"$out/v030-activity-list.txt"
ll activity list --format json >"$out/v030-activity-list.json"
ll settings >"$out/v030-settings.txt"
ll settings --format json >"$out/v030-settings.json"
ll report activity --from 2026-11-20 --to 2026-11-30 --by day >"$out/v030-report-activity.txt"
ll report meals --from 2026-11-20 --to 2026-11-30 >"$out/v030-report-meals.txt"
ll report meals --from 2026-11-20 --to 2026-11-30 --format json >"$out/v030-report-meals.json"
ll remote list --format json >"$out/v030-remote-list.json"
du -ch "$out"/v030-* | tail -n 1
