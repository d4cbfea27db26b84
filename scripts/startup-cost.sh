#!/usr/bin/env bash
# startup-cost.sh LIFELOG LOG: instructions (callgrind, the dynamic loader included) and system
# calls (strace -f -c) of `--version`, `add lunch salad`, `list --limit 20`, `due --short` and
# `show last`, each on a fresh copy of LOG (and its WAL), after one warm-up run on that copy.
# valgrind 3.19 cannot read the DWARF 5 of a Swift build, so it runs a copy of LIFELOG with its
# debug sections stripped.
# Prints: command | instructions | system calls | pread64 calls (docs/benchmarks.md, "Start-up").
set -euo pipefail
bin=${1:?lifelog binary}; log=${2:?a log, e.g. 100,000 entries made by lifelog import}
w=$(mktemp -d); trap 'rm -rf "$w"' EXIT
strip --strip-debug "$bin" -o "$w/lifelog"
for c in "--version" "add lunch salad" "list --limit 20" "due --short" "show last"; do
  cp "$log" "$w/l.db"; rm -f "$w/l.db-wal" "$w/l.db-shm"
  if [ -f "$log-wal" ]; then cp "$log-wal" "$w/l.db-wal"; fi
  LIFELOG_DB=$w/l.db "$w/lifelog" $c >/dev/null
  ir=$(LIFELOG_DB=$w/l.db valgrind --tool=callgrind --collect-atstart=yes \
    --callgrind-out-file=/dev/null "$w/lifelog" $c 2>&1 >/dev/null | awk '/refs/{gsub(",","",$4); print $4}')
  LIFELOG_DB=$w/l.db strace -f -c -o "$w/s" "$w/lifelog" $c >/dev/null
  calls=$(awk '/total/{print $4}' "$w/s"); pread=$(awk '$NF=="pread64"{print $4}' "$w/s")
  echo "$c | $ir | $calls | ${pread:-0}"
done
