#!/usr/bin/env bash
# Writes Sources/LifelogServer/Web/WebFiles.swift: every file of the web app (Web/, docs/web.md)
# as a Swift string, so `lifelog serve` serves the app from its one binary.
#
#   scripts/web-embed.sh          rewrite the Swift file
#   scripts/web-embed.sh --check  fail when it differs from what Web/ holds (make lint)
#
# Only the files the page loads are embedded (not Web/tools/, Web/test/ or Web/wasm/, the C source
# of the WebAssembly module that scripts/web-wasm.sh builds). Each must be UTF-8
# text without the raw-string delimiter.
set -euo pipefail
cd "$(dirname "$0")/.."
output=Sources/LifelogServer/Web/WebFiles.swift

content_type() {
  case $1 in
    *.html) echo "text/html; charset=utf-8" ;;
    *.js | *.mjs) echo "text/javascript; charset=utf-8" ;;
    *.css) echo "text/css; charset=utf-8" ;;
    *.json) echo "application/json" ;;
    *.webmanifest) echo "application/manifest+json" ;;
    *.svg) echo "image/svg+xml" ;;
    *) echo "unsupported file type: $1" >&2; exit 1 ;;
  esac
}

generate() {
  echo '// swift-format-ignore-file'
  echo '// Written by scripts/web-embed.sh from Web/; do not edit (make lint checks it).'
  echo
  echo '/// The files of the web app by path (docs/web.md).'
  echo 'enum WebFiles {'
  echo '  static let files: [String: WebFile] = ['
  local file
  while IFS= read -r file; do
    if grep -q '"""####' "$file"; then
      echo "$file holds the raw-string delimiter" >&2
      exit 1
    fi
    printf '    "/%s": WebFile(\n      type: "%s",\n      text: ####"""\n' \
      "${file#Web/}" "$(content_type "$file")"
    cat "$file"
    printf '\n"""####),\n'
  done < <(find Web -type f \( -path 'Web/tools/*' -o -path 'Web/test/*' -o -path 'Web/wasm/*' \) -prune -o -type f -print \
    | LC_ALL=C sort)
  echo '  ]'
  echo '}'
}

if [[ ${1:-} == --check ]]; then
  if ! diff -q <(generate) "$output" >/dev/null; then
    echo "$output is out of date with Web/; run scripts/web-embed.sh" >&2
    exit 1
  fi
else
  generate > "$output.tmp"
  mv "$output.tmp" "$output"
fi
