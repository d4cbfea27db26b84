#!/usr/bin/env python3
"""Writes batches in the lifelog sync format (docs/sync-protocol.md §3) for scripts/bench-server.sh.

Usage: bench-server-batches.py OUT_PREFIX THREADS BATCHES_PER_THREAD ROWS
Writes OUT_PREFIX<n>.bin for each wrk thread: records of "<path>\n<length>\n<bytes>".
"""
import hashlib
import json
import sys
import uuid

prefix, threads, per_thread, rows = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
for thread in range(threads):
    device = str(uuid.uuid4())
    devpart = device.replace("-", "")[:12]
    with open(f"{prefix}{thread}.bin", "wb") as out:
        for seq in range(1, per_thread + 1):
            ms = 1780000000000 + seq
            lines = [json.dumps({"lifelog": "batch", "format": 1, "device": device, "seq": seq, "created": ms},
                                separators=(",", ":"))]
            for index in range(rows):
                stamp = f"{ms:012x}{index:04x}{devpart}"
                row = {"entity": "setting", "id": f"bench-{seq}-{index}",
                       "fields": {"value": [f"value {seq}.{index} of a benchmark batch", stamp]}}
                lines.append(json.dumps(row, separators=(",", ":")))
            body = ("\n".join(lines) + "\n").encode()
            trailer = json.dumps({"end": True, "changes": rows, "sha256": hashlib.sha256(body).hexdigest()},
                                 separators=(",", ":"))
            body += (trailer + "\n").encode()
            path = f"/v1/batches/{device}/{seq}"
            out.write(f"{path}\n{len(body)}\n".encode() + body)
