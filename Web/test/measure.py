"""Speed of the web app in Debian's chromium at 360x640 (docs/web.md, "Speed"): prints one JSON line.

    .build/venv/bin/python Web/test/measure.py --lifelog .build/debug/lifelog --db LOG [--remote NAME]

LOG is a log whose server remote (NAME, or the only one) already holds the entries, synced; the
script pairs a new browser from `lifelog pair` and measures: the first open, pairing and first sync
(until the page shows its last sync), a warm open from the service worker (until the meal buttons
are drawn) with the navigation timings, and five taps on "snack" (from the click until the entry
is in today's list, stored in IndexedDB first). Measurements, not tests: nothing here asserts a time.
"""

import argparse
import json
import os
import time

from browser_test import browser, run
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

TAP = """
const done = arguments[0];
const before = document.querySelectorAll('#today-list li[data-id]').length;
const button = [...document.querySelectorAll('#meal-buttons button')].find((b) => b.textContent === 'snack');
const start = performance.now();
button.click();
const poll = () => document.querySelectorAll('#today-list li[data-id]').length > before
  ? done(performance.now() - start) : setTimeout(poll, 1);
poll();
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lifelog", required=True)
    parser.add_argument("--db", required=True)
    parser.add_argument("--remote", default=None)
    arguments = parser.parse_args()
    environment = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TZ": "Europe/Warsaw",
                   "LIFELOG_DB": os.path.abspath(arguments.db), "HOME": os.environ.get("HOME", "/tmp")}
    remote = [arguments.remote] if arguments.remote else []
    name = f"measure-{int(time.time())}"
    link = json.loads(run(os.path.abspath(arguments.lifelog), environment, "pair", *remote,
                          "--name", name, "--format", "json"))["url"]
    driver = browser()
    try:
        start = time.time()
        driver.get(link)
        WebDriverWait(driver, 120, 0.02).until(
            lambda _: "Last sync" in driver.find_element(By.ID, "sync-status").text)
        first = time.time() - start
        WebDriverWait(driver, 60, 0.1).until(
            lambda _: driver.execute_script("return !!navigator.serviceWorker.controller"))
        start = time.time()
        driver.refresh()
        WebDriverWait(driver, 60, 0.01).until(
            lambda _: driver.find_elements(By.CSS_SELECTOR, "#meal-buttons button"))
        warm = time.time() - start
        navigation = driver.execute_script(
            "const n = performance.getEntriesByType('navigation')[0];"
            "return {domInteractive: n.domInteractive, domContentLoaded: n.domContentLoadedEventEnd}")
        taps = [round(driver.execute_async_script(TAP), 1) for _ in range(5)]
        print(json.dumps({"firstOpenPairAndSync_s": round(first, 2), "warmOpen_s": round(warm, 3),
                          "warmNavigation_ms": {k: round(v, 1) for k, v in navigation.items()},
                          "tap_ms": taps}))
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
