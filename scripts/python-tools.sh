#!/bin/sh
# Installs the Python tools some tests run (docs/testing.md) into the virtual environment
# .build/venv, which scripts/api-contract.sh shares: icalendar, the iCalendar library that reads
# `export --format ics` back, selenium, which drives Debian's chromium through chromium-driver in
# the web app's browser tests (docs/web.md), and openpyxl, which reads `export --format xlsx` and
# `report meals --format xlsx` back. Pinned, so a new release changes the test only on purpose; installed
# once, then reused. Prints the venv's python.
#
#   scripts/python-tools.sh
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
venv="$root/.build/venv"
tools="icalendar==7.3.0 selenium==4.27.1 openpyxl==3.1.5"

if ! "$venv/bin/python" -c 'import icalendar, selenium, openpyxl, sys
sys.exit(icalendar.__version__ != "7.3.0" or selenium.__version__ != "4.27.1"
         or openpyxl.__version__ != "3.1.5")' 2>/dev/null; then
  echo "python-tools: installing $tools into $venv" >&2
  [ -x "$venv/bin/python" ] || /usr/bin/python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check $tools >&2
fi
echo "$venv/bin/python"
