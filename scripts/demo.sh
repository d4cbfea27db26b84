#!/usr/bin/env bash
# Logs one day of meals and activities in a throw-away database and shows every command with its
# output, as a person would see it in a shell.
#
#   scripts/demo.sh path/to/lifelog        (or: make demo)
#
# The clock is fixed (LIFELOG_NOW) and the zone is Europe/Warsaw, so the times are the same on every
# run; the entry ids are random, so they are not.
set -euo pipefail

if [[ $# -ne 1 || ! -x "$1" ]]; then
  echo "Usage: $0 <path to the lifelog binary>" >&2
  exit 64
fi
lifelog_binary=$1
repository=$(cd "$(dirname "$0")/.." && pwd)
[[ $lifelog_binary == /* ]] || lifelog_binary="$PWD/$lifelog_binary"

demo_folder=$(mktemp -d "${TMPDIR:-/tmp}/lifelog-demo.XXXXXX")
server_pid=""
# Always stops the demo's server (if it was started) and removes the folder, however the demo ends.
cleanup() {
  if [[ -n $server_pid ]]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$demo_folder"
}
trap cleanup EXIT

export LIFELOG_DB="$demo_folder/lifelog.db"
export TZ=Europe/Warsaw
export LIFELOG_NOW=2026-12-02T21:00:00+01:00

# Prints the command line as it would be typed: words that need it are double-quoted.
show() {
  local line='$ lifelog' word
  for word in "$@"; do
    if [[ $word =~ ^[A-Za-z0-9_.:/@%+=-]+$ ]]; then
      line+=" $word"
    else
      word=${word//\\/\\\\}
      word=${word//\"/\\\"}
      word=${word//\$/\\\$}
      word=${word//\`/\\\`}
      line+=" \"$word\""
    fi
  done
  printf '\n%s\n' "$line"
}

# Shows a command, then runs it.
run() {
  show "$@"
  "$lifelog_binary" "$@"
}

echo "A day of meals and activities, logged on Wednesday 2026-12-02 at 21:00 in Warsaw."
echo "Database: $LIFELOG_DB (removed at the end)"

run add breakfast "oatmeal, coffee" --at 7:30
run add snack apple --at 10am
run add lunch "lentil soup, bread" --at 13:00
run add walk "around the park" --at 15:00 --duration 45m

# The afternoon snack is added with --format json, to pick its short id out of the output.
show add snack yogurt --at 16:30 --format json
snack_json=$("$lifelog_binary" add snack yogurt --at 16:30 --format json)
printf '%s\n' "$snack_json"
snack_id=$(printf '%s\n' "$snack_json" | sed -n 's/^{"id":"\([0-9a-f]\{8\}\).*/\1/p')
if [[ -z $snack_id ]]; then
  echo "demo: could not find the id in the output above" >&2
  exit 1
fi

run add dinner "salmon, rice, salad" --at 19:00
run add tea --kind meal --at 20:30 "green tea"
run add sleep --at "yesterday 23:00" --duration 7h30m

run list

run edit "$snack_id" --note "yogurt, walnuts"
run delete "$snack_id"
run list --deleted
run restore "$snack_id"

run activity list
run settings

# Keeping the rhythm: when the next meal is due (the last one was tea at 20:30), the entry in full,
# and a one-word undo of the last change.
run due
run show last
run add snack "rice cake" --at 20:45
run undo

printf '\n%s\n' '$ lifelog list --format json | head -n 4'
"$lifelog_binary" list --format json | head -n 4

run list --format csv

# A refused input: the error goes to stderr, the exit code says what kind of failure it was, and
# nothing is written. `|| status=$?` keeps `set -e` from ending the demo here.
show add brekfast toast
status=0
"$lifelog_binary" add brekfast toast 2>&1 || status=$?
echo "(exit code $status)"
if [[ $status -ne 65 ]]; then
  echo "demo: expected exit code 65 for an unknown activity" >&2
  exit 1
fi

# Import: yesterday's meals, kept in a spreadsheet, as CSV. Importing the same file again adds
# nothing (rows without an id get one derived from their content).
echo
echo "Yesterday's meals were kept in a spreadsheet; import them, twice (the second time adds nothing)."
csv_file="$demo_folder/yesterday.csv"
cat > "$csv_file" <<'CSV'
at,activity,note
2026-12-01 08:00,breakfast,"porridge, blueberries"
2026-12-01 11:00,snack,banana
2026-12-01 13:30,lunch,chicken wrap
2026-12-01 19:15,dinner,"pasta, salad"
CSV
printf '\n$ cat yesterday.csv\n'
cat "$csv_file"
run import "$csv_file"
run import "$csv_file"
show export --from "2026-12-01 00:00" --to "2026-12-01 12:00"
"$lifelog_binary" export --from "2026-12-01 00:00" --to "2026-12-01 12:00"

# Another tool's history: a timewarrior export (what `timew export` prints), twice again.
echo
echo "Last week's walks were tracked in timewarrior; bring them over (again, twice adds nothing)."
timew_file="$demo_folder/timew.json"
cat > "$timew_file" <<'JSON'
[
{"id":2,"start":"20261125T160000Z","end":"20261125T164500Z","tags":["outdoor","walk"],"annotation":"park loop"},
{"id":1,"start":"20261126T163000Z","end":"20261126T171500Z","tags":["walk"]}
]
JSON
run import --from timewarrior "$timew_file"
run import --from timewarrior "$timew_file"

# A calendar file of the morning, for a calendar app (the first event only, to keep it short).
show export --format ics --from "2026-12-01 00:00" --to "2026-12-01 09:00"
"$lifelog_binary" export --format ics --from "2026-12-01 00:00" --to "2026-12-01 09:00" \
  | sed -n '/BEGIN:VEVENT/,/END:VEVENT/p'

# The report the doctor asked for, for the two days.
run report meals --from 2026-12-01 --to 2026-12-02

# Commands from a script, one per line, through `lifelog shell` (at a terminal it is a prompt with
# history and Tab completion).
printf '\n%s\n' '$ lifelog shell <<EOF'
printf '%s\n' 'add tea "camomile" --at 20:45' 'list --limit 3' 'EOF'
"$lifelog_binary" shell <<'SHELL'
add tea "camomile" --at 20:45
list --limit 3
SHELL

# Sync: a second machine (another log) and a folder remote, both in the temporary folder. The
# remote is encrypted: the folder holds only ciphertext (the passphrase comes from
# LIFELOG_PASSPHRASE here; at a terminal lifelog asks for it without echo).
echo
echo "Now a second machine joins through an encrypted folder remote (a USB stick, say)."
remote_folder="$(dirname "$LIFELOG_DB")/usb-remote"
laptop_db="$(dirname "$LIFELOG_DB")/laptop.db"
export LIFELOG_PASSPHRASE="correct horse battery staple"

run remote add usb "$remote_folder" --encrypt
run sync
printf '\n%s\n' '$ grep -rl lentil usb-remote    # the note of lunch is nowhere in the remote'
if grep -rl lentil "$remote_folder"; then
  echo "demo: plaintext found in the encrypted remote" >&2
  exit 1
fi
echo "(no file holds it)"

show --db laptop.db remote add usb "$remote_folder"
"$lifelog_binary" --db "$laptop_db" remote add usb "$remote_folder"
show --db laptop.db sync
"$lifelog_binary" --db "$laptop_db" sync
show --db laptop.db add snack "rice cake" --at 21:00
"$lifelog_binary" --db "$laptop_db" add snack "rice cake" --at 21:00
show --db laptop.db edit "$snack_id" --duration 10m
"$lifelog_binary" --db "$laptop_db" edit "$snack_id" --duration 10m
show --db laptop.db sync
"$lifelog_binary" --db "$laptop_db" sync

run sync
run list --from today
run status
# Everything on the remote decodes (opened with the kept key), no device has a gap, and every
# batch this machine pushed is there byte for byte.
run check --remote usb

# Sync through a server: `lifelog serve` on a free loopback port, with its data in the temporary
# folder (the working folder from here on), and the same two machines as its clients.
echo
echo "Now both machines sync through a lifelog server instead (here on this machine, on a free port)."
cd "$demo_folder"

printf '\n%s\n' '$ lifelog serve user add me --data server > me.token'
"$lifelog_binary" serve user add me --data server > me.token

printf '\n%s\n' '$ lifelog serve --listen 127.0.0.1:0 --data server &'
"$lifelog_binary" serve --listen 127.0.0.1:0 --data server > server.out 2> server.log &
server_pid=$!
for _ in $(seq 100); do
  grep -q listening server.out 2>/dev/null && break
  sleep 0.05
done
server_url=$(sed -n 's|.*listening on \(http://[0-9.]*:[0-9]*\),.*|\1|p' server.out)
if [[ -z $server_url ]]; then
  echo "demo: lifelog serve did not start:" >&2
  cat server.out server.log >&2
  exit 1
fi
cat server.out

run remote add home "$server_url" --token-file me.token
run sync home
show --db laptop.db remote add home "$server_url" --token-file me.token
"$lifelog_binary" --db "$laptop_db" remote add home "$server_url" --token-file me.token
show --db laptop.db add walk "to the station" --at 21:00 --duration 20m
"$lifelog_binary" --db "$laptop_db" add walk "to the station" --at 21:00 --duration 20m
show --db laptop.db sync home
"$lifelog_binary" --db "$laptop_db" sync home
run sync home
run list --from today
run status

# The web app: the same server serves it at its root, and `lifelog pair` makes a one-time link
# (with a QR code) that turns a phone's browser into one more device of the account.
echo
echo "The server also serves the web app, for a phone: $server_url/"
curl_page=$(command -v curl || true)
if [[ -n $curl_page ]]; then
  printf '\n%s\n' "\$ curl -sI $server_url/ | grep -i -E 'content-type|content-security|referrer'"
  curl -sI "$server_url/" | grep -i -E 'content-type|content-security|referrer' || true
fi
run pair home --name phone
pair_link=$("$lifelog_binary" pair home --name demo-phone --format json |
  sed -n 's|.*"url":"\([^"]*\)".*|\1|p')
if command -v node >/dev/null; then
  # The web app's own sync core, run as a command-line device (what the page does in a browser).
  device_tool="$repository/Web/tools/device.mjs"
  printf '\n%s\n' "\$ node Web/tools/device.mjs --state phone pair '<the demo-phone link>'"
  node "$device_tool" --state phone pair "$pair_link"
  printf '\n%s\n' "\$ node Web/tools/device.mjs --state phone add snack \"apple\" && … sync"
  node "$device_tool" --state phone add snack "apple" >/dev/null
  node "$device_tool" --state phone sync
  run sync home
  run list --from today
fi
run pair --list

printf '\n%s\n' "The server's request log (one line per request):"
cat server.log
kill "$server_pid"
wait "$server_pid" || true
server_pid=""
echo "(server stopped)"
