#!/usr/bin/env bash
# Load benchmark of `lifelog serve` (docs/benchmarks.md): CONNECTIONS clients on loopback, each
# alternating a push of a 50-change batch and a pull, for SECONDS; prints wrk's figures.
# Needs wrk (Debian package) and python3. Usage: scripts/bench-server.sh path/to/lifelog
set -euo pipefail
lifelog=${1:?usage: bench-server.sh LIFELOG_BINARY}
connections=${CONNECTIONS:-50}
seconds=${SECONDS_TO_RUN:-10}
threads=${THREADS:-2}
rows=${ROWS:-50}
command -v wrk >/dev/null || { echo "bench-server.sh needs wrk: apt install wrk" >&2; exit 69; }
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
token=$("$lifelog" serve user add bench --data "$work/data" 2>/dev/null)
python3 "$here/bench-server-batches.py" "$work/batches-" "$threads" $((seconds * 1500)) "$rows"
"$lifelog" serve --listen 127.0.0.1:0 --data "$work/data" --rate-limit 0 --max-concurrent 1024 \
  --max-connections-per-address 0 \
  > "$work/out" 2> "$work/log" &
server=$!
for _ in $(seq 100); do grep -q listening "$work/out" 2>/dev/null && break; sleep 0.05; done
port=$(sed -E 's/.*:([0-9]+),.*/\1/' "$work/out")
BENCH_TOKEN=$token BENCH_BATCHES="$work/batches-" wrk -t"$threads" -c"$connections" -d"${seconds}s" \
  --latency -s "$here/bench-server.lua" "http://127.0.0.1:$port"
echo "server log: $(grep -c ' 201 ' "$work/log") pushes stored, $(grep -c ' GET /v1/changes 200 ' "$work/log") pulls," \
  "$(grep -vc -E ' (200|201) ' "$work/log") other lines"
