#!/usr/bin/env python3
"""Times two lifelog binaries side by side, each run alternated with the other's, so the drift
of a shared machine falls on both alike (docs/benchmarks.md, the before-and-after section).

    scripts/paired-bench.py OLD_BINARY NEW_BINARY [ROWS] [SYNC_ROWS]

Prints one JSON line per figure: the median of each binary and their ratio (new / old).
"""
import os, shutil, statistics, subprocess, sys, tempfile, time

old, new = sys.argv[1], sys.argv[2]
rows_count = int(sys.argv[3]) if len(sys.argv) > 3 else 20000
sync_rows = int(sys.argv[4]) if len(sys.argv) > 4 else 50000
base = tempfile.mkdtemp(prefix="lifelog-paired-")
binaries = {"old": old, "new": new}


def csv(path, count):
    lines = ["at,activity"] + [
        f"2025-{1 + i % 12:02d}-{1 + i % 28:02d}T{i % 24:02d}:{i % 60:02d}:{i % 59:02d}+00:00,"
        + ("snack" if i % 2 else "walk") for i in range(count)]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def run(binary, db, *args):
    env = dict(os.environ, LIFELOG_DB=db)
    start = time.perf_counter()
    result = subprocess.run([binary, *args], env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"{binary} {' '.join(args)}: exit {result.returncode}: {result.stderr[:300]}")
    return elapsed


def order(i):
    return ("old", "new") if i % 2 else ("new", "old")


def report(name, times, unit, scale):
    o, n = statistics.median(times["old"]), statistics.median(times["new"])
    print(f'{{"name":"{name}","old_{unit}":{o * scale:.3f},"new_{unit}":{n * scale:.3f},'
          f'"ratio":{n / o:.2f}}}', flush=True)


try:
    csv(f"{base}/rows.csv", rows_count)
    for tag, binary in binaries.items():
        run(binary, f"{base}/{tag}.db", "import", f"{base}/rows.csv")
    commands = {
        "add": ["add", "snack"], "list_limit20": ["list", "--limit", "20"],
        "report_activity_all": ["report", "activity", "--from", "2025-01-01"],
        "report_meals_all": ["report", "meals", "--from", "2025-01-01"],
    }
    for name, args in commands.items():
        times = {"old": [], "new": []}
        for i in range(25):
            for tag in order(i):
                times[tag].append(run(binaries[tag], f"{base}/{tag}.db", *args))
        report(f"{name}_{rows_count}", times, "ms", 1000)
    csv(f"{base}/sync.csv", sync_rows)
    times = {"push": {"old": [], "new": []}, "pull": {"old": [], "new": []}}
    for i in range(3):
        for tag in order(i):
            folder = f"{base}/sync-{tag}-{i}"
            os.makedirs(folder)
            binary = binaries[tag]
            run(binary, f"{folder}/a.db", "import", f"{base}/sync.csv")
            run(binary, f"{folder}/a.db", "remote", "add", "usb", f"{folder}/remote", "--no-encrypt")
            times["push"][tag].append(run(binary, f"{folder}/a.db", "sync", "--quiet"))
            run(binary, f"{folder}/b.db", "remote", "add", "usb", f"{folder}/remote", "--no-encrypt")
            times["pull"][tag].append(run(binary, f"{folder}/b.db", "sync", "--quiet"))
    for step in ("push", "pull"):
        report(f"sync_{step}_{sync_rows}", times[step], "s", 1)
finally:
    shutil.rmtree(base)
