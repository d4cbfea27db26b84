#!/bin/sh
# Fails when a Swift file imports a module its folder may not import (scripts/module-imports.txt,
# the module graph of docs/architecture.md), or when a folder of Swift code has no entry there.
#
#   scripts/check-imports.sh [ROOT]     ROOT defaults to the repository this script is in
#
# Every import form counts: `import M`, `@testable import M`, `@preconcurrency import M`,
# `@_exported import M`, `import struct M.T`; not a line inside a multi-line string. Run by
# `make lint` and by `make test` before the tests; Tests/LifelogEndToEndTests/ImportRuleTests.swift
# proves it fails on a forbidden import (the server importing the client; the server, the wire
# format or Core importing LifelogExchange, the file readers of imports and exports).
set -eu
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
rules="$root/scripts/module-imports.txt"
[ -f "$rules" ] || { echo "check-imports: no $rules" >&2; exit 2; }
cd "$root"

# Each folder that holds Swift code: Sources/*, Tests/* and the fuzz harness.
folders=$(for d in Sources/* Tests/* Fuzz/Harness; do
  if [ -d "$d" ] && [ -n "$(find "$d" -name '*.swift' | head -n 1)" ]; then echo "$d"; fi
done)

status=0
for folder in $folders; do
  allowed=$(sed -n "s|^$folder:[[:space:]]*||p" "$rules")
  if ! grep -q "^$folder:" "$rules"; then
    echo "$folder: not in scripts/module-imports.txt; add it with the modules it may import"
    status=1
    continue
  fi
  # file:line:module for every import in the folder.
  # Lines inside a multi-line string literal (between lines holding an odd number of `"""`) are
  # text, not code: a Python snippet's `import sys` in a test is not an import.
  imports=$(find "$folder" -name '*.swift' -exec awk '
    FNR == 1 { text = 0 }
    {
      quotes = gsub(/"""/, "&")
      if (!text && /^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*import[[:space:]]/) {
        line = $0
        sub(/^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*import[[:space:]]+/, "", line)
        sub(/^(struct|class|enum|protocol|typealias|func|var|let)[[:space:]]+/, "", line)
        sub(/[.[:space:]].*$/, "", line)
        print FILENAME ":" FNR ":" line
      }
      if (quotes % 2 == 1) text = !text
    }' {} +)
  forbidden=$(printf '%s\n' "$imports" | while IFS= read -r entry; do
    [ -n "$entry" ] || continue
    module=${entry##*:}
    case " $allowed " in
      *" $module "*) ;;
      *) echo "${entry%:*}: $folder may not import $module (allowed: $allowed)" ;;
    esac
  done)
  if [ -n "$forbidden" ]; then
    printf '%s\n' "$forbidden"
    status=1
  fi
done
if [ "$status" -ne 0 ]; then
  echo "check-imports: forbidden imports (the graph is in scripts/module-imports.txt)" >&2
fi
exit "$status"
