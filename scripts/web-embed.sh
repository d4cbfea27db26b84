#!/usr/bin/env bash
# Writes Sources/CLifelogWebAssets/lifelog_web_files.c: the list of the web app's files (Web/,
# docs/web.md) that the compiler embeds in the binary with C23's #embed, read from Web/ at build
# time, so `lifelog serve` serves the app from its one binary and no copy of Web/ is kept in the
# sources. The list changes only when a file is added, removed or renamed; an edit to a file needs
# nothing but a build (clang names each embedded file as a dependency of the object).
#
#   scripts/web-embed.sh          rewrite the list
#   scripts/web-embed.sh --check  fail when it differs from what Web/ holds (make lint)
#
# Only the files the page loads are listed (not Web/tools/, Web/test/ or Web/wasm/, the C source
# of the WebAssembly module that scripts/web-wasm.sh builds).
set -euo pipefail
cd "$(dirname "$0")/.."
output=Sources/CLifelogWebAssets/lifelog_web_files.c

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

files() {
  find Web -type f \( -path 'Web/tools/*' -o -path 'Web/test/*' -o -path 'Web/wasm/*' \) -prune -o -type f -print \
    | LC_ALL=C sort
}

generate() {
  echo '// Written by scripts/web-embed.sh from the list of files in Web/; do not edit (make lint checks it).'
  echo '// The bytes are embedded from Web/ when this is compiled.'
  echo '#include "lifelog_web_assets.h"'
  echo
  echo '#pragma clang diagnostic ignored "-Wc23-extensions"'
  echo
  local file index=0
  while IFS= read -r file; do
    # A 0 after the bytes: an empty file is still an array (its length is one less).
    printf 'static const unsigned char file_%d[] = {\n#embed "../../%s" suffix(, ) if_empty()\n0};\n' \
      "$index" "$file"
    index=$((index + 1))
  done < <(files)
  echo
  echo 'static const lifelog_web_file files[] = {'
  index=0
  while IFS= read -r file; do
    printf '    {"/%s", "%s", file_%d, sizeof file_%d - 1},\n' \
      "${file#Web/}" "$(content_type "$file")" "$index" "$index"
    index=$((index + 1))
  done < <(files)
  echo '};'
  echo
  echo 'const lifelog_web_file *lifelog_web_files(size_t *count) {'
  echo '  *count = sizeof files / sizeof files[0];'
  echo '  return files;'
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
