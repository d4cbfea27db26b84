"""Speed of the web app in Debian's chromium at 360x640 (docs/benchmarks.md, "The web app"):
prints one JSON line per figure, as lifelog-bench does.

    .build/venv/bin/python Web/test/measure.py --lifelog .build/release/lifelog [--entries 10000] [--encrypted]

Starts a `lifelog serve` in a temporary folder, imports ENTRIES meals (10,000: one every two hours
back from now, a fixed pattern) into a new log, syncs it to a new account (encrypted with
--encrypted), pairs a browser from `lifelog pair`, and measures: the first open, pairing and
first sync (until the page shows its last sync); a warm open from the service worker (until the
meal buttons are drawn), median of 5, with its navigation timings on stderr; and 20 taps on
"snack" (from the click until the entry is stored in IndexedDB and in today's list), the median.
Measurements, not tests: nothing here fails on a time.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from browser_test import Server, browser, run
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

TAP = """
const done = arguments[0];
const before = document.querySelectorAll('#today-list li[data-id]').length;
const button = [...document.querySelectorAll('#meal-buttons button')].find((b) => b.textContent === 'snack');
const start = performance.now();
button.click();
const poll = () => document.querySelectorAll('#today-list li[data-id]').length > before
  ? done(performance.now() - start) : setTimeout(poll, 0);
poll();
"""


def figure(name, value, unit, target, met):
    print(json.dumps({"name": name, "value": value, "unit": unit, "target": target, "met": met},
                     separators=(",", ":")), flush=True)


def meals_csv(path, count):
    """`count` meals, one every two hours back from now, named by a fixed cycle."""
    names = ["breakfast", "lunch", "dinner", "snack"]
    now = int(time.time())
    with open(path, "w") as file:
        file.write("at,activity,note\n")
        for index in range(count):
            at = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(now - 3600 - index * 7200))
            file.write(f"{at},{names[index % 4]},{'bread' if index % 3 == 0 else ''}\n")


def measure(lifelog, work, entries, encrypted):
    environment = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TZ": "Europe/Warsaw",
                   "LIFELOG_DB": os.path.join(work, "laptop.db"), "HOME": work}
    server = Server(lifelog, os.path.join(work, "server"))
    token = subprocess.run([lifelog, "serve", "user", "add", "me", "--data", server.folder],
                           capture_output=True, text=True, check=True).stdout
    with open(os.path.join(work, "me.token"), "w") as file:
        file.write(token)
    server.start()
    driver = None
    try:
        mode = ["--no-encrypt"]
        if encrypted:
            with open(os.path.join(work, "passphrase"), "w") as file:
                file.write("correct horse battery staple\n")
            mode = ["--encrypt", "--passphrase-file", os.path.join(work, "passphrase")]
        run(lifelog, environment, "remote", "add", "home", server.url, "--token-file",
            os.path.join(work, "me.token"), *mode)
        meals_csv(os.path.join(work, "meals.csv"), entries)
        run(lifelog, environment, "import", os.path.join(work, "meals.csv"), "--kind", "meal")
        run(lifelog, environment, "sync")
        link = json.loads(run(lifelog, environment, "pair", "--name", "bench", "--format", "json"))["url"]
        driver = browser()
        start = time.monotonic()
        driver.get(link)
        WebDriverWait(driver, 120, 0.02).until(
            lambda _: "Last sync" in driver.find_element(By.ID, "sync-status").text)
        first = time.monotonic() - start
        WebDriverWait(driver, 60, 0.1).until(
            lambda _: driver.execute_script("return !!navigator.serviceWorker.controller"))
        warm = []
        for _ in range(5):
            start = time.monotonic()
            driver.refresh()
            WebDriverWait(driver, 60, 0.005).until(
                lambda _: driver.find_elements(By.CSS_SELECTOR, "#meal-buttons button"))
            warm.append(time.monotonic() - start)
            navigation = driver.execute_script(
                "const n = performance.getEntriesByType('navigation')[0];"
                "const marks = Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, m.startTime]));"
                "return {workerStart: n.workerStart, responseEnd: n.responseEnd, domInteractive: n.domInteractive,"
                " domContentLoaded: n.domContentLoadedEventEnd, ...marks}")
            navigation = {name: round(value, 1) for name, value in navigation.items()}
            print(f"warm open {warm[-1]:.3f} s, navigation {navigation}", file=sys.stderr)
        # The first sync after the open is left to finish, so the taps time the tap alone.
        WebDriverWait(driver, 120, 0.05).until(
            lambda _: "Last sync" in driver.find_element(By.ID, "sync-status").text)
        taps = [driver.execute_async_script(TAP) for _ in range(20)]
        print(f"taps (ms): {[round(tap, 1) for tap in taps]}, p90 {sorted(taps)[17]:.1f}", file=sys.stderr)
        suffix = "_encrypted" if encrypted else ""
        thousands = f"{entries // 1000}k"
        figure(f"web_first_sync_{thousands}{suffix}_s", round(first, 2), "s",
               "<= 5 s" if encrypted else "<= 3 s", first <= (5 if encrypted else 3))
        open_ms = statistics.median(warm) * 1000
        figure(f"web_warm_open_{thousands}{suffix}_ms", round(open_ms, 1), "ms", "<= 500 ms", open_ms <= 500)
        tap = statistics.median(taps)
        figure(f"web_tap_{thousands}{suffix}_ms", round(tap, 1), "ms", "<= 50 ms", tap <= 50)
    finally:
        if driver:
            driver.quit()
        if server.process and server.process.poll() is None:
            server.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lifelog", required=True)
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--encrypted", action="store_true")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="lifelog-web-bench-") as work:
        measure(os.path.abspath(arguments.lifelog), work, arguments.entries, arguments.encrypted)


if __name__ == "__main__":
    main()
