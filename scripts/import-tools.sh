#!/bin/sh
# Installs the tools whose real exports the import tests read (docs/import.md): Watson (td-watson),
# jrnl, and openpyxl and odfpy (which write and read sheets as Excel and LibreOffice do), pinned, into the virtual environment .build/venv that scripts/api-contract.sh also
# uses (created here with Debian's python3-venv when missing). Installed once, reused after.
set -eu
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/.build/venv"
tools="td-watson==2.1.0 jrnl==4.2.1 openpyxl==3.1.5 odfpy==1.4.1"
if [ -x "$venv/bin/watson" ] && [ -x "$venv/bin/jrnl" ] && "$venv/bin/python" -c "import openpyxl, odf" 2>/dev/null &&
  [ "$(cat "$venv/.import-tools" 2>/dev/null)" = "$tools" ]; then
  exit 0
fi
[ -x "$venv/bin/pip" ] || /usr/bin/python3 -m venv "$venv"
echo "import-tools: installing $tools into $venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check $tools
echo "$tools" >"$venv/.import-tools"
