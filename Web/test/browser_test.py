"""The web app and a doctor's link in Debian's chromium at a phone's size (360x640), driven by selenium (docs/web.md).

Starts a real `lifelog serve`, joins a command-line log to it, pairs the page from a real
`lifelog pair` link, logs with a tap, and checks that `lifelog list` sees it after syncs; then goes
offline (DevTools network conditions, and the server stopped), logs two more, reloads (the service
worker serves the page), comes back online and checks that both reach the command line. Then a
second pairing link asks before it replaces the page's pairing; a `lifelog share` link opens
the report, a revoked one says it is gone, and a passcode is asked for.

    .build/venv/bin/python Web/test/browser_test.py --lifelog .build/debug/lifelog --work DIR \
        [--screenshot docs/web-phone.png] [--share-screenshot docs/web-share.png]

Exit 0 when every check passes; a failed check raises with what was seen.
"""

import argparse
import json
import os
import re
import subprocess
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

WAIT = 60  # seconds: a generous bound on a condition, never a race


class Server:
    """`lifelog serve` on 127.0.0.1 with its data in `folder`; restartable on the same port."""

    def __init__(self, lifelog, folder):
        self.lifelog, self.folder, self.port, self.process = lifelog, folder, 0, None

    def start(self):
        self.process = subprocess.Popen(
            [self.lifelog, "serve", "--listen", f"127.0.0.1:{self.port}", "--data", self.folder],
            stdout=subprocess.PIPE, stderr=open(self.folder + ".log", "a"), text=True)
        line = self.process.stdout.readline()
        match = re.search(r"127\.0\.0\.1:(\d+)", line)
        if not match:
            raise RuntimeError(f"lifelog serve did not start: {line!r}")
        self.port = int(match.group(1))

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=WAIT)

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"


def run(lifelog, environment, *arguments):
    result = subprocess.run([lifelog, *arguments], env=environment, capture_output=True, text=True,
                            timeout=WAIT)
    if result.returncode != 0:
        raise RuntimeError(f"lifelog {' '.join(arguments)}: {result.returncode} {result.stderr}")
    return result.stdout


def browser(language="en-US"):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                     "--window-size=360,640", f"--lang={language}"]:
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 360, "height": 640, "deviceScaleFactor": 2, "mobile": True})
    driver.execute_cdp_cmd("Network.enable", {})
    return driver


def offline(driver, value):
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": value, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def field(driver, label):
    """The input the <label> with this text names (what a screen reader announces)."""
    for element in driver.find_elements(By.TAG_NAME, "label"):
        if (element.get_attribute("textContent") or "").strip() == label:
            return driver.find_element(By.ID, element.get_attribute("for"))
    raise AssertionError(f"no field labelled {label!r}")


def button(driver, name):
    """The visible button whose accessible name is `name`."""
    for element in driver.find_elements(By.TAG_NAME, "button"):
        if element.is_displayed() and element.accessible_name == name:
            return element
    raise AssertionError(f"no button named {name!r}")


def press(driver, name):
    """Clicks the button named `name`. The page redraws its buttons when a sync ends, which can
    fall between finding a button and clicking it: then the button is found again."""
    retried(driver, f"the button {name!r}", lambda: button(driver, name).click())


def type_into(driver, label, text):
    """Types `text` into the field labelled `label`, found again if a redraw replaced it."""
    retried(driver, f"the field {label!r}", lambda: field(driver, label).send_keys(text))


def retried(driver, what, action):
    def attempt():
        try:
            action()
            return True
        except (StaleElementReferenceException, AssertionError):
            return False
    wait_for(driver, what, attempt)


def wait_for(driver, what, condition):
    try:
        return WebDriverWait(driver, WAIT, poll_frequency=0.1).until(lambda _: condition())
    except Exception as error:
        status = driver.execute_script(
            "const s = document.querySelector('[role=status]'); return s ? s.textContent : ''")
        raise AssertionError(f"timed out waiting for {what}; status: {status!r}") from error


def entry_items(driver):
    """(activity, time, note) of each item of today's list, read in one step (the list is redrawn
    after every sync)."""
    return [tuple(item) for item in driver.execute_script("""
        return [...document.querySelectorAll('#today-list li[data-id]')].map((item) => [
          item.querySelector('.activity').textContent, item.querySelector('time').textContent,
          item.querySelector('.note').textContent]);""")]


def cli_notes(lifelog, environment):
    run(lifelog, environment, "sync")
    listed = json.loads(run(lifelog, environment, "list", "--format", "json", "--limit", "1000"))
    return {entry["note"] for entry in listed}


def share_report(driver, lifelog, environment, work, screenshot):
    """A doctor's link opens the report; a revoked one says it is gone; a passcode is asked for."""
    shared = json.loads(run(lifelog, environment, "share", "--days", "2", "--format", "json"))
    assert "#" in shared["url"] and shared["id"] in shared["url"].split("#")[0], shared
    driver.get(shared["url"])
    wait_for(driver, "the report", lambda: driver.find_element(By.ID, "share-status").text == "Meal report")
    frame = driver.find_element(By.ID, "report")
    driver.switch_to.frame(frame)
    body = driver.find_element(By.TAG_NAME, "body").text
    driver.switch_to.default_content()
    assert "apple" in body and "offline one" in body, body[:500]
    if screenshot:
        driver.save_screenshot(screenshot)
    listed = json.loads(run(lifelog, environment, "share", "list", "--format", "json"))
    assert [entry["opened"] for entry in listed if entry["id"] == shared["id"]] == [1], listed
    run(lifelog, environment, "share", "revoke", shared["id"])
    driver.refresh()  # the same address: get() would only move to its fragment
    wait_for(driver, "the gone message", lambda: "expired or was revoked" in driver.find_element(By.ID, "share-status").text)

    with open(os.path.join(work, "code"), "w") as file:
        file.write("4711\n")
    locked = json.loads(run(lifelog, environment, "share", "--passcode-file", os.path.join(work, "code"),
                            "--format", "json"))
    driver.get(locked["url"])
    wait_for(driver, "the passcode field", lambda: field(driver, "Passcode").is_displayed())
    type_into(driver, "Passcode", "0000\n")
    wait_for(driver, "the tries left", lambda: "4 tries left" in driver.find_element(By.ID, "share-status").text)
    field(driver, "Passcode").clear()
    type_into(driver, "Passcode", "4711\n")
    wait_for(driver, "the report", lambda: driver.find_element(By.ID, "share-status").text == "Meal report")


def pair_again(driver, lifelog, environment):
    """A pairing link opened on a page already paired asks before replacing it: kept, nothing
    changes; replaced, the page is paired anew."""
    link = json.loads(run(lifelog, environment, "pair", "--name", "second", "--format", "json"))["url"]
    driver.get("about:blank")
    driver.get(link)
    wait_for(driver, "the question", lambda: "already paired" in driver.find_element(By.ID, "pair-message").text)
    assert "#pair" not in driver.current_url, driver.current_url
    press(driver, "Keep this pairing")
    wait_for(driver, "the kept pairing", lambda: driver.find_element(By.ID, "pair-view").get_attribute("hidden")
             is not None and any(item[2] == "offline one" for item in entry_items(driver)))
    assert "second" not in devices(lifelog, environment), devices(lifelog, environment)
    driver.get("about:blank")
    driver.get(link)
    wait_for(driver, "the question", lambda: "already paired" in driver.find_element(By.ID, "pair-message").text)
    press(driver, "Pair with the new account")
    wait_for(driver, "the new pairing's sync", lambda: devices(lifelog, environment).get("second"))


def devices(lifelog, environment):
    """Each paired device's name and when it was last used (None: never)."""
    listed = json.loads(run(lifelog, environment, "pair", "--list", "--format", "json"))
    return {device["name"]: device.get("lastUsed") for device in listed}


def polish(url):
    """A browser that prefers Polish gets the Polish catalog."""
    driver = browser("pl-PL")
    try:
        driver.get(url + "/")
        wait_for(driver, "the Polish page", lambda: driver.find_element(By.ID, "pair-title").text
                 == "Sparuj tę przeglądarkę")
        assert driver.execute_script("return document.documentElement.lang") == "pl"
        assert field(driver, "Notatka") is not None
    finally:
        driver.quit()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lifelog", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--screenshot")
    parser.add_argument("--share-screenshot")
    parser.add_argument("--encrypted", action="store_true",
                        help="an encrypted account: the page seals and opens in WebAssembly")
    arguments = parser.parse_args()
    lifelog = os.path.abspath(arguments.lifelog)
    work = arguments.work
    os.makedirs(work, exist_ok=True)
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
        if arguments.encrypted:
            with open(os.path.join(work, "passphrase"), "w") as file:
                file.write("correct horse battery staple\n")
            run(lifelog, environment, "remote", "add", "home", server.url, "--token-file",
                os.path.join(work, "me.token"), "--encrypt", "--passphrase-file",
                os.path.join(work, "passphrase"))
        else:
            run(lifelog, environment, "remote", "add", "home", server.url, "--token-file",
                os.path.join(work, "me.token"), "--no-encrypt")
        run(lifelog, environment, "add", "breakfast", "porridge", "--at", "-2h")
        run(lifelog, environment, "sync")
        link = json.loads(run(lifelog, environment, "pair", "--name", "phone", "--format", "json"))["url"]

        driver = browser()
        driver.get(link)
        wait_for(driver, "the meal buttons", lambda: driver.find_elements(
            By.CSS_SELECTOR, "#meal-buttons button"))
        assert "#pair" not in driver.current_url, driver.current_url
        wait_for(driver, "the first sync", lambda: "porridge" in driver.page_source)
        # One tap logs now; the note field is read and cleared.
        type_into(driver, "Note", "apple")
        press(driver, "snack")
        wait_for(driver, "the new entry", lambda: any(
            item[0] == "snack" and item[2] == "apple" for item in entry_items(driver)))
        assert field(driver, "Note").get_attribute("value") == ""
        # The "earlier" correction: 30 minutes back.
        press(driver, "−30m")
        type_into(driver, "Note", "tea")
        press(driver, "snack")
        wait_for(driver, "the earlier entry", lambda: any(item[2] == "tea" for item in entry_items(driver)))
        # Delete, then undo the delete.
        tea_time = next(item[1] for item in entry_items(driver) if item[2] == "tea")
        press(driver, f"Delete snack {tea_time}")
        wait_for(driver, "the delete", lambda: all(item[2] != "tea" for item in entry_items(driver)))
        press(driver, "Undo last change")
        wait_for(driver, "the undo", lambda: any(item[2] == "tea" for item in entry_items(driver)))
        # Exercise with a duration and a quantity.
        type_into(driver, "Minutes (exercise)", "40")
        type_into(driver, "Quantity (exercise: km, reps…)", "5.5")
        type_into(driver, "Note", "river")
        press(driver, "run")
        wait_for(driver, "the run", lambda: any(item[2] == "river" for item in entry_items(driver)))
        press(driver, "Sync")
        wait_for(driver, "the sync", lambda: "Everything synced" in driver.find_element(By.ID, "sync-status").text)
        notes = cli_notes(lifelog, environment)
        assert {"apple", "tea"} <= notes, notes
        listed = json.loads(run(lifelog, environment, "list", "--format", "json", "--limit", "1000"))
        runs = [(entry["duration"], entry["quantity"]) for entry in listed if entry["note"] == "river"]
        assert runs == [(2400, 5.5)], runs
        if arguments.screenshot:
            driver.save_screenshot(arguments.screenshot)

        # Offline: the network off in DevTools and the server stopped.
        wait_for(driver, "the service worker", lambda: driver.execute_script(
            "return !!(navigator.serviceWorker && navigator.serviceWorker.controller)"))
        offline(driver, True)
        server.stop()
        for note, activity in [("offline one", "lunch"), ("offline two", "dinner")]:
            type_into(driver, "Note", note)
            press(driver, activity)
            wait_for(driver, note, lambda: any(item[2] == note for item in entry_items(driver)))
        press(driver, "Sync")
        wait_for(driver, "the pending count", lambda: "2 changes waiting" in driver.find_element(By.ID, "sync-status").text)
        driver.refresh()
        wait_for(driver, "the page offline", lambda: {"offline one", "offline two"} <= {
            item[2] for item in entry_items(driver)})

        # Back online: both reach the command line.
        server.start()
        offline(driver, False)
        press(driver, "Sync")
        wait_for(driver, "the sync", lambda: "Everything synced" in driver.find_element(By.ID, "sync-status").text)
        notes = cli_notes(lifelog, environment)
        assert {"offline one", "offline two"} <= notes, notes
        if arguments.encrypted:
            assert "&key=" in link
            for name in os.listdir(server.folder):
                with open(os.path.join(server.folder, name), "rb") as file:
                    stored = file.read()
                for note in notes:
                    assert note.encode() not in stored, f"{note!r} in plaintext in {name}"
        pair_again(driver, lifelog, environment)
        share_report(driver, lifelog, environment, work, arguments.share_screenshot)
        polish(server.url)
        print("browser test passed:", sorted(notes))
    finally:
        if driver:
            driver.quit()
        if server.process and server.process.poll() is None:
            server.stop()


if __name__ == "__main__":
    main()
