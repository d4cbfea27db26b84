#!/usr/bin/env bash
# hot-functions.sh LIFELOG [OUT]: the functions lifelog's everyday commands run, in the order they
# first run, written to OUT (default Sources/lifelog/hot-functions.txt) for the release link's
# `--symbol-ordering-file` (Package.swift; docs/benchmarks.md, "Where the wall time goes, and
# the code's layout").
#
# Each command runs under callgrind on its own copy of a small log the script makes with LIFELOG
# itself (a few dozen entries over the last days, so `list`, `due`, `show` and `undo` take their
# usual paths). Only functions defined in LIFELOG are kept, by their mangled names. Run it on a
# release build (`make build`) whenever start-up or these commands change; names the linker no
# longer finds are skipped by it, so a stale list costs only layout, never correctness.
# valgrind 3.19 cannot read the DWARF 5 of a Swift build: it runs a copy with debug sections stripped.
set -euo pipefail
bin=${1:?usage: hot-functions.sh LIFELOG [OUT]}
out=${2:-"$(cd "$(dirname "$0")/.." && pwd)/Sources/lifelog/hot-functions.txt"}
command -v valgrind >/dev/null || { echo "hot-functions.sh: valgrind is needed (apt-get install valgrind)" >&2; exit 69; }
w=$(mktemp -d); trap 'rm -rf "$w"' EXIT
strip --strip-debug "$bin" -o "$w/lifelog"

export LIFELOG_DB="$w/base.db" TZ=UTC HOME="$w"
"$w/lifelog" add breakfast oatmeal --at '-48h' >/dev/null
for h in 30 27 24 21 18 15 12 9 6 3; do
  "$w/lifelog" add snack apple --at "-${h}h" --tag fruit >/dev/null
  "$w/lifelog" add lunch salad --at "-$((h + 1))h" --qty 1 >/dev/null
  "$w/lifelog" add walk --kind exercise --at "-$((h + 2))h" --duration 30m >/dev/null
done

# The commands the release link lays out first: the five the floor benchmark pairs, then undo and again.
commands=("--version" "list --limit 20" "add lunch salad" "due --short" "show last" "undo" "again")
i=0
for c in "${commands[@]}"; do
  i=$((i + 1))
  cp "$w/base.db" "$w/run.db"
  # shellcheck disable=SC2086 # each command is words
  LIFELOG_DB="$w/run.db" valgrind --tool=callgrind --demangle=no --callgrind-out-file="$w/cg.$i" \
    "$w/lifelog" $c >/dev/null 2>&1 || { echo "hot-functions.sh: '$c' failed under callgrind" >&2; exit 1; }
done

python3 - "$w/lifelog" "$out" "$w"/cg.* <<'PY'
import re, sys
binary, out, files = sys.argv[1], sys.argv[2], sorted(sys.argv[3:], key=lambda f: int(f.rsplit(".", 1)[1]))
order, seen = [], set()
for path in files:
    objects, functions, current = {}, {}, None
    for line in open(path, errors="replace"):
        m = re.match(r"^(ob|fn|cob|cfn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
        if not m:
            continue
        kind, number, name = m.groups()
        table = objects if kind in ("ob", "cob") else functions
        if name is not None:
            table[number] = name
        if kind == "ob":
            current = objects.get(number)
        elif kind == "fn" and current == binary:
            # callgrind marks a function's second and later copies (recursion, inlined calls) 'N
            symbol = functions.get(number, "").split("'")[0]
            if symbol and not symbol.startswith("0x") and not symbol.startswith("(") and symbol not in seen:
                seen.add(symbol)
                order.append(symbol)
with open(out, "w") as f:
    f.write("".join(s + "\n" for s in order))
print(f"hot-functions.sh: {len(order)} functions written to {out}", file=sys.stderr)
PY
