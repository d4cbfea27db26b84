#!/bin/sh
# make bench: the web app in Debian's chromium (Web/test/measure.py, docs/benchmarks.md "The web
# app"): a first sync, a warm open and a tap on a log of ENTRIES (10,000) meals, plain and
# encrypted. One JSON line per figure, with its target; a time is never a failure.
#
#   scripts/web-bench.sh LIFELOG_BINARY [ENTRIES]
set -eu

binary=$1
entries=${2:-10000}
root=$(cd "$(dirname "$0")/.." && pwd)
python=$("$root/scripts/python-tools.sh")
"$python" "$root/Web/test/measure.py" --lifelog "$binary" --entries "$entries"
"$python" "$root/Web/test/measure.py" --lifelog "$binary" --entries "$entries" --encrypted
