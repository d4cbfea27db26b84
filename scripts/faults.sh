#!/usr/bin/env bash
# The fault-injection campaign (docs/reliability.md): lifelog's commands run with libfiu making
# open/read/write/fsync/mmap/socket calls (and, through scripts/faults/fiu_at.c, openat/renameat/
# unlinkat/mkdirat) fail at random with a real errno, and after every run the log and the remotes
# are checked with no faults at all.
#
#   scripts/faults.sh LIFELOG_BINARY [RUNS] [SEED]     (make faults: FAULT_RUNS=1000)
#
# A third of the seeds (every scenario, every probability) also make malloc/calloc/realloc (libc/mm/*, 1 in 2,000) and mmap/munmap/
# mprotect (posix/mm/*, 1 in 100) fail: Swift traps on a failed allocation, which is accepted
# as long as it costs nothing stored.
#
# Each run gets its own seed (SEED + run number, printed in every violation) for libfiu's PRNG
# (FIU_PRNG_SEED), its scenario and its fault probability; a run is replayed by the same seed.
# The faults are injected exactly as `fiu-run -x -f '' -c 'enable_random name=posix/io/*,
# probability=P'` does (its FIU_ENABLE and LD_PRELOAD), with our preload appended.
#
# Invariants: those marked "honest" are about what a failing command *says*; they fail the
# campaign unless FAULT_HONEST=0 (then they are counted and printed only). The others always
# fail it. FAULT_VIOLATIONS=FILE keeps every violation's line (the report prints the first 20).
set -u

binary=${1:?usage: $0 LIFELOG_BINARY [RUNS] [SEED]}
runs=${2:-${FAULT_RUNS:-1000}}
base_seed=${3:-${FAULT_SEED:-24000}}
honest=${FAULT_HONEST:-1}
binary=$(realpath "$binary")
here=$(cd "$(dirname "$0")" && pwd)

for tool in fiu-run cc; do
  command -v "$tool" >/dev/null || { echo "faults: $tool is missing (make test-deps installs fiu-utils, libfiu-dev)" >&2; exit 69; }
done
[ -f /usr/lib/fiu/fiu_posix_preload.so ] && [ -f /usr/include/fiu.h ] ||
  { echo "faults: libfiu is missing (apt install fiu-utils libfiu-dev)" >&2; exit 69; }

work=$(mktemp -d "${TMPDIR:-/tmp}/lifelog-faults.XXXXXX")
server=""
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
cc -shared -fPIC -O2 -DFIU_ENABLE=1 "$here/faults/fiu_at.c" -o "$work/fiu_at.so" -lfiu -ldl || exit 70
preload="/usr/lib/fiu/fiu_run_preload.so /usr/lib/fiu/fiu_posix_preload.so $work/fiu_at.so"

export TZ=UTC HOME=$work LIFELOG_BUSY_TIMEOUT_MS=2000
clean() { "$binary" "$@"; }

# --- The invariants -------------------------------------------------------------------------
always_invariants="integrity saved-when-exit-0 no-duplicates no-half-import converges"
honest_invariants="says-if-saved exit-code complete-output no-raw-sqlite"
declare -A trap_unsaid=() violations=() runs_of=() faulted=() faults=() exit0=() exit74=() other=() crashed=()
failures_log="$work/violations"
: >"$failures_log"

violate() { # scenario invariant seed detail
  violations["$1 $2"]=$((${violations["$1 $2"]:-0} + 1))
  echo "violation: $1 seed $3: $2: $(printf '%s' "$4" | tr '\n' ' ' | head -c 300)" >>"$failures_log"
}

# Runs one command under faults: faulty SEED PROBABILITY OUT ERR -- ARGUMENTS...; sets rc and hit.
faulty() {
  local seed=$1 probability=$2 out=$3 err=$4
  shift 4
  : >"$work/count"
  # The errno of a failed call: what disks report (EIO, and ENOSPC for a full one), not libfiu's
  # random pick among every errno a call may return (ENOENT from open, EBADF from read), which
  # no disk makes and which would test lifelog against a C library that lies.
  local errno=5
  [ $((seed % 3)) -eq 1 ] && errno=28
  local enable="enable_random name=posix/io/*,probability=$probability,failinfo=$errno"
  # Every third seed also fails allocations and mmap (a Swift trap may end the process then).
  if [ $(((seed / 18) % 3)) -eq 2 ]; then
    enable="$enable
enable_random name=libc/mm/*,probability=0.0005
enable_random name=posix/mm/*,probability=0.01"
  fi
  # SWIFT_BACKTRACE: no backtracer after a trap (it would run, faulted too, for up to 30 s).
  # timeout: a command that hangs under faults is ended (exit 124, counted as "other").
  # The subshell keeps bash's "Segmentation fault" line (a trap is expected) out of the report.
  (timeout -k 5 120 env SWIFT_BACKTRACE=enable=no FAULT_COUNT_FILE="$work/count" \
    FIU_PRNG_SEED="$seed" FIU_CTRL_FIFO="" FIU_ENABLE="$enable" LD_PRELOAD="$preload" \
    "$binary" "$@" >"$out" 2>"$err" </dev/null
  status=$?
  exit $status) 2>/dev/null
  rc=$?
  hit=$(stat -c %s "$work/count" 2>/dev/null || echo 0)
}

# Counts the outcome and checks what every run must keep: no raw SQLite text, a sysexits code.
outcome() { # scenario seed allowed-codes err
  local scenario=$1 seed=$2 allowed=$3 err=$4
  runs_of[$scenario]=$((${runs_of[$scenario]:-0} + 1))
  faults[$scenario]=$((${faults[$scenario]:-0} + hit))
  [ "$hit" -gt 0 ] && faulted[$scenario]=$((${faulted[$scenario]:-0} + 1))
  case $rc in
  0) exit0[$scenario]=$((${exit0[$scenario]:-0} + 1)) ;;
  74) exit74[$scenario]=$((${exit74[$scenario]:-0} + 1)) ;;
  *) other[$scenario]=$((${other[$scenario]:-0} + 1))
     # 128+: a signal (a Swift trap on a failed allocation): accepted, if it cost nothing stored.
     if [ "$rc" -ge 128 ]; then crashed[$scenario]=$((${crashed[$scenario]:-0} + 1)); fi ;;
  esac
  if [ "$rc" -ne 0 ] && [ "$rc" -lt 128 ] && ! [[ " $allowed " == *" $rc "* ]]; then
    violate "$scenario" exit-code "$seed" "exit $rc: $(head -c 300 "$err")"
  fi
  if grep -q -e 'SQLite error' -e 'while executing' "$err"; then
    violate "$scenario" no-raw-sqlite "$seed" "$(grep -m1 -e 'SQLite error' -e 'while executing' "$err" | head -c 300)"
  fi
}

integrity() { # scenario seed log
  if ! clean --db "$3" check >"$work/check" 2>&1; then
    violate "$1" integrity "$2" "$(head -c 300 "$work/check")"
  fi
}

# The number of entries whose note is exactly $2 in the log $1 (read with no faults).
count_note() { clean --db "$1" export --format jsonl | grep -c "\"note\":\"$2\"" ; }

# --- The fixtures (made once, with no faults) ------------------------------------------------
base="$work/base.db"
{
  echo "activity,at,note"
  for i in $(seq 1 300); do
    printf 'snack,2026-11-%02dT%02d:%02d:00Z,base %d\n' $((i % 28 + 1)) $((i % 24)) $((i % 60)) "$i"
  done
} >"$work/base.csv"
clean --db "$base" import "$work/base.csv" >/dev/null || exit 70
clean --db "$base" export --format jsonl >"$work/base.jsonl"
{
  echo "id,activity,at,note"
  for i in $(seq 1 200); do
    printf '%08x-0000-4000-8000-%012x,walk,2026-10-%02dT10:00:00Z,imported row\n' "$i" "$i" $((i % 28 + 1))
  done
} >"$work/import.csv"

mkdir -p "$work/usb"
clean --db "$work/B-folder.db" remote add usb "$work/usb" --no-encrypt >/dev/null || exit 70
clean serve user add faults --data "$work/srv" >"$work/token" 2>/dev/null || exit 70
"$binary" serve --listen 127.0.0.1:0 --data "$work/srv" --rate-limit 0 >"$work/srv.out" 2>"$work/srv.err" </dev/null &
server=$!
for _ in $(seq 1 300); do grep -q "listening on" "$work/srv.out" 2>/dev/null && break; sleep 0.1; done
url=$(sed -n 's/.*listening on \(http:\/\/127\.0\.0\.1:[0-9]*\).*/\1/p' "$work/srv.out")
[ -n "$url" ] || { echo "faults: lifelog serve did not start" >&2; cat "$work/srv.err" >&2; exit 70; }
clean --db "$work/B-serve.db" remote add home "$url" --token-file "$work/token" --no-encrypt >/dev/null || exit 70

# --- The scenarios ---------------------------------------------------------------------------
fresh_copy() { cp "$base" "$1"; [ -f "$base-wal" ] && cp "$base-wal" "$1-wal"; true; }

run_add() { # seed probability dir
  local log="$3/log.db" note="added $1"
  fresh_copy "$log"
  faulty "$1" "$2" "$3/out" "$3/err" --db "$log" add snack "$note"
  outcome add "$1" "74 75" "$3/err"
  integrity add "$1" "$log"
  local count
  count=$(count_note "$log" "$note")
  [ "$rc" -eq 0 ] && [ "$count" -ne 1 ] && violate add saved-when-exit-0 "$1" "exit 0 but $count copies"
  [ "$count" -gt 1 ] && violate add no-duplicates "$1" "$count copies"
  if [ "$rc" -ne 0 ]; then
    # What a script may conclude from the message: saved, not saved, or nothing.
    local says=""
    if grep -qiE 'cannot tell' "$3/err"; then
      says=""
    elif grep -qiE 'nothing was (written|saved|added|changed)|was not (saved|added|written)|not in the log' "$3/err"; then
      says=no
    elif grep -qiE '(is|was) (saved|added|in the log)' "$3/err"; then
      says=yes
    fi
    if [ -z "$says" ] && [ "$rc" -ge 128 ]; then
      # The named exception (docs/reliability.md): a trap before lifelog's handler could speak
      # (the process's first allocations), or while its COMMIT was in doubt (the handler's line
      # then says it cannot tell). Counted and listed; the other invariants still hold.
      trap_unsaid[add]=$((${trap_unsaid[add]:-0} + 1))
      echo "exception: add seed $1: trap-unsaid: signal $((rc - 128)), $(grep -m1 'stopped abruptly' "$3/err" | head -c 120)" >>"$failures_log"
    elif [ -z "$says" ]; then
      violate add says-if-saved "$1" "the message does not say: $(head -c 200 "$3/err")"
    elif [ "$says" = no ] && [ "$count" -ne 0 ]; then
      violate add says-if-saved "$1" "says not saved, but it is: $(head -c 200 "$3/err")"
    elif [ "$says" = yes ] && [ "$count" -ne 1 ]; then
      violate add says-if-saved "$1" "says saved, but it is not: $(head -c 200 "$3/err")"
    fi
    # A script retries only what it was told was not saved.
    if [ "$says" = no ]; then
      clean --db "$log" add snack "$note" >/dev/null 2>&1
      count=$(count_note "$log" "$note")
      [ "$count" -ne 1 ] && violate add no-duplicates "$1" "$count copies after the retry"
    fi
  fi
}

run_import() {
  local log="$3/log.db"
  fresh_copy "$log"
  faulty "$1" "$2" "$3/out" "$3/err" --db "$log" import "$work/import.csv"
  outcome import "$1" "74 75" "$3/err"
  integrity import "$1" "$log"
  local count
  count=$(count_note "$log" "imported row")
  [ "$count" -ne 0 ] && [ "$count" -ne 200 ] && violate import no-half-import "$1" "$count of 200 rows"
  [ "$rc" -eq 0 ] && [ "$count" -ne 200 ] && violate import saved-when-exit-0 "$1" "exit 0 but $count rows"
  # An import with ids is safe to retry whatever it said.
  clean --db "$log" import "$work/import.csv" >/dev/null 2>&1
  count=$(count_note "$log" "imported row")
  [ "$count" -ne 200 ] && violate import no-duplicates "$1" "$count rows after the retry"
}

run_output() { # scenario seed probability dir -- arguments...
  local scenario=$1 seed=$2 probability=$3 dir=$4
  shift 5
  local log="$dir/log.db"
  fresh_copy "$log"
  clean --db "$log" "$@" >"$dir/expected" 2>/dev/null
  faulty "$seed" "$probability" "$dir/out" "$dir/err" --db "$log" "$@"
  outcome "$scenario" "$seed" "74 75" "$dir/err"
  integrity "$scenario" "$seed" "$log"
  if [ "$rc" -eq 0 ] && ! cmp -s "$dir/out" "$dir/expected"; then
    violate "$scenario" complete-output "$seed" "exit 0 with $(stat -c %s "$dir/out") of $(stat -c %s "$dir/expected") bytes"
  fi
}

run_sync() { # scenario seed probability dir remote-name url observer [token options...]
  local scenario=$1 seed=$2 probability=$3 dir=$4 name=$5 url=$6 observer=$7
  shift 7
  local log="$dir/A.db" note="synced $seed"
  clean --db "$log" remote add "$name" "$url" --no-encrypt "$@" >/dev/null 2>&1 || { violate "$scenario" converges "$seed" "remote add failed"; return; }
  clean --db "$log" add snack "$note" >/dev/null
  faulty "$seed" "$probability" "$dir/out" "$dir/err" --db "$log" sync --timeout 20
  outcome "$scenario" "$seed" "69 74 75" "$dir/err"
  integrity "$scenario" "$seed" "$log"
  clean --db "$observer" sync >/dev/null 2>&1
  if [ "$rc" -eq 0 ] && [ "$(count_note "$observer" "$note")" -ne 1 ]; then
    violate "$scenario" saved-when-exit-0 "$seed" "sync exit 0 but the entry is not on the remote"
  fi
  for _ in 1 2; do
    clean --db "$log" sync >/dev/null 2>&1
    clean --db "$observer" sync >/dev/null 2>&1
  done
  integrity "$scenario" "$seed" "$observer"
  if ! cmp -s <(clean --db "$log" export --format jsonl | sort) <(clean --db "$observer" export --format jsonl | sort); then
    violate "$scenario" converges "$seed" "the two logs differ after syncing with no faults"
  fi
  [ "$(count_note "$observer" "$note")" -ne 1 ] && violate "$scenario" no-duplicates "$seed" "the entry is not there once"
}

scenarios=(add import sync-folder sync-serve export report)
probabilities=(0.002 0.01 0.05)
echo "faults: $runs runs, seeds $base_seed..$((base_seed + runs - 1)), binary $binary"
for ((run = 0; run < runs; run++)); do
  seed=$((base_seed + run))
  scenario=${scenarios[$((seed % ${#scenarios[@]}))]}
  probability=${probabilities[$(((seed / ${#scenarios[@]}) % ${#probabilities[@]}))]}
  dir="$work/run"
  rm -rf "$dir"
  mkdir -p "$dir"
  case $scenario in
  add) run_add "$seed" "$probability" "$dir" ;;
  import) run_import "$seed" "$probability" "$dir" ;;
  export) run_output export "$seed" "$probability" "$dir" -- export --format jsonl ;;
  report) run_output report "$seed" "$probability" "$dir" -- report --from 2026-11-01 --to 2026-11-28 ;;
  sync-folder) run_sync sync-folder "$seed" "$probability" "$dir" usb "$work/usb" "$work/B-folder.db" ;;
  sync-serve) run_sync sync-serve "$seed" "$probability" "$dir" home "$url" "$work/B-serve.db" --token-file "$work/token" ;;
  esac
done

# --- A real full disk: a small tmpfs (root only) ------------------------------------------------
# The log and the export's output on a 2 MiB tmpfs filled to within 0..1024 KiB of its end: the
# same invariants, with ENOSPC from the kernel instead of from libfiu.
full="$work/full"
if [ "$(id -u)" -ne 0 ]; then
  echo "faults: NOT ROOT: THE DISK-FULL TESTS ON A TMPFS ARE SKIPPED (run make faults or make test as root)" >&2
elif ! mkdir -p "$full" || ! mount -t tmpfs -o size=2m lifelog-faults "$full"; then
  echo "faults: CANNOT MOUNT A TMPFS: THE DISK-FULL TESTS ARE SKIPPED" >&2
else
  scenarios+=(full-add full-import full-export)
  for spare in 0 16 64 128 256 512 1024; do
    for scenario in full-add full-import full-export; do
      seed=$spare
      rm -rf "${full:?}"/*
      fresh_copy "$full/log.db"
      head -c $((2048 * 1024)) /dev/zero >"$full/filler" 2>/dev/null
      truncate -s -$((spare * 1024)) "$full/filler" 2>/dev/null
      sync
      hit=1
      log="$full/log.db"
      case $scenario in
      full-add)
        "$binary" --db "$log" add snack "full $spare" >"$work/out" 2>"$work/err" </dev/null
        rc=$?
        outcome "$scenario" "$seed" "74 75" "$work/err"
        rm -f "$full/filler"
        integrity "$scenario" "$seed" "$log"
        count=$(count_note "$log" "full $spare")
        [ "$rc" -eq 0 ] && [ "$count" -ne 1 ] && violate "$scenario" saved-when-exit-0 "$seed" "exit 0 but $count copies"
        [ "$count" -gt 1 ] && violate "$scenario" no-duplicates "$seed" "$count copies" ;;
      full-import)
        "$binary" --db "$log" import "$work/import.csv" >"$work/out" 2>"$work/err" </dev/null
        rc=$?
        outcome "$scenario" "$seed" "74 75" "$work/err"
        rm -f "$full/filler"
        integrity "$scenario" "$seed" "$log"
        count=$(count_note "$log" "imported row")
        [ "$count" -ne 0 ] && [ "$count" -ne 200 ] && violate "$scenario" no-half-import "$seed" "$count of 200 rows"
        [ "$rc" -eq 0 ] && [ "$count" -ne 200 ] && violate "$scenario" saved-when-exit-0 "$seed" "exit 0 but $count rows" ;;
      full-export)
        "$binary" --db "$base" export --format jsonl --output "$full/out.jsonl" >"$work/out" 2>"$work/err" </dev/null
        rc=$?
        outcome "$scenario" "$seed" "74 75" "$work/err"
        if [ "$rc" -eq 0 ] && ! cmp -s "$full/out.jsonl" "$work/base.jsonl"; then
          violate "$scenario" complete-output "$seed" "exit 0 with an incomplete file"
        fi ;;
      esac
    done
  done
  umount "$full"
fi

# --- Standard output on a full device: /dev/full answers every write with ENOSPC ---------------
scenarios+=(stdout-full)
for arguments in "export --format jsonl" "report --from 2026-11-01 --to 2026-11-28" "list --format json"; do
  hit=1
  # shellcheck disable=SC2086
  "$binary" --db "$base" $arguments >/dev/full 2>"$work/err" </dev/null
  rc=$?
  outcome stdout-full "$arguments" "74" "$work/err"
  [ "$rc" -eq 0 ] && violate stdout-full complete-output "$arguments" "exit 0 though nothing could be written"
done

# --- The table -------------------------------------------------------------------------------
printf '\n%-12s %5s %8s %7s %6s %5s %6s %7s %11s' scenario runs faulted faults "exit0" 74 other crashed trap-unsaid
for invariant in $always_invariants $honest_invariants; do printf ' %s' "$invariant"; done
echo
failed=0
for scenario in "${scenarios[@]}"; do
  printf '%-12s %5d %8d %7d %6d %5d %6d %7d %11d' "$scenario" "${runs_of[$scenario]:-0}" \
    "${faulted[$scenario]:-0}" "${faults[$scenario]:-0}" "${exit0[$scenario]:-0}" \
    "${exit74[$scenario]:-0}" "${other[$scenario]:-0}" "${crashed[$scenario]:-0}" \
    "${trap_unsaid[$scenario]:-0}"
  for invariant in $always_invariants $honest_invariants; do
    printf " %${#invariant}d" "${violations["$scenario $invariant"]:-0}"
  done
  echo
done
for invariant in $always_invariants; do
  for scenario in "${scenarios[@]}"; do [ "${violations["$scenario $invariant"]:-0}" -gt 0 ] && failed=1; done
done
honest_failed=0
for invariant in $honest_invariants; do
  for scenario in "${scenarios[@]}"; do [ "${violations["$scenario $invariant"]:-0}" -gt 0 ] && honest_failed=1; done
done
echo "(faulted: runs in which at least one fault was injected; faults: how many in all;"
echo " crashed: ended by a signal, e.g. a Swift trap on a failed allocation; trap-unsaid: an add that"
echo " trapped before it could say what it left (an exception, docs/reliability.md);"
echo " honest invariants: $honest_invariants)"
if [ -s "$failures_log" ]; then
  echo "First violations and exceptions (the seed picks the scenario too: replay one with $0 BINARY 1 SEED):"
  sort -u "$failures_log" | head -20
fi
[ -n "${FAULT_VIOLATIONS:-}" ] && sort -u "$failures_log" >"$FAULT_VIOLATIONS"
if [ "$failed" -ne 0 ]; then
  echo "faults: FAILED: an invariant that must always hold was broken" >&2
  exit 1
fi
if [ "$honest_failed" -ne 0 ]; then
  if [ "$honest" = 1 ]; then
    echo "faults: FAILED: an honesty invariant was broken (FAULT_HONEST=1)" >&2
    exit 1
  fi
  echo "faults: the honesty invariants were broken (counted, not asserted: FAULT_HONEST=0)"
fi
echo "faults: every asserted invariant held over $runs runs"
