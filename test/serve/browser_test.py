#!/usr/bin/env python3
"""The playground in a real browser (headless Chromium driven by Selenium): type a shape with
an error and see it underlined with its explanation, fix it and see the canonical JSON, open
the permalink in a new tab and see the same, then match a V1 jobspec against an R. Screenshots
are saved in OUTDIR for people to look at.

usage: browser_test.py JOBSPEC OUTDIR     (exit 77, skipped, without chromium or selenium)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

SKIP = 77
DEBIAN_PYTHON = "/usr/bin/python3"

try:
    from selenium import webdriver
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError:
    # Debian's python3-selenium is for Debian's python3, which may not be the first on PATH.
    if os.path.realpath(sys.executable) != os.path.realpath(DEBIAN_PYTHON) and \
            os.path.exists(DEBIAN_PYTHON) and "JOBSPEC_BROWSER_TEST_REEXEC" not in os.environ:
        os.environ["JOBSPEC_BROWSER_TEST_REEXEC"] = "1"
        os.execv(DEBIAN_PYTHON, [DEBIAN_PYTHON, *sys.argv])
    print("skipped: python3-selenium is not installed (tools/setup.sh installs it)")
    sys.exit(SKIP)

from serve_util import Server

JOBSPEC = OUTDIR = None
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


def browser(profile):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-quic", "--no-first-run", "--mute-audio",
                 "--window-size=1400,1000", "--force-device-scale-factor=1",
                 f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


class Playground(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = Server(JOBSPEC)
        cls.profile = tempfile.mkdtemp(prefix="jobspec-chromium-")
        cls.driver = browser(cls.profile)
        cls.driver.set_page_load_timeout(30)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        shutil.rmtree(cls.profile, ignore_errors=True)
        status, _, err = cls.server.stop()
        assert status == 0, err

    # -- helpers -------------------------------------------------------------------------

    def wait(self, condition, what, timeout=15):
        try:
            return WebDriverWait(self.driver, timeout).until(lambda d: condition())
        except TimeoutException:
            self.driver.save_screenshot(os.path.join(OUTDIR, "playground-failure.png"))
            self.fail(f"timed out waiting for {what}; summary: "
                      f"{self.driver.find_element(By.ID, 'summary').text!r}")

    def find(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def settled(self):
        """Waits for the answers to the state as it is now (no request pending)."""
        self.wait(lambda: self.driver.execute_script(
            "return document.body.dataset.generation !== undefined && "
            "!document.getElementById('results').hasAttribute('aria-busy')"), "the answers")

    def type_text(self, text):
        area = self.find("#text")
        area.click()
        area.send_keys(Keys.CONTROL, "a")
        area.send_keys(Keys.DELETE)
        area.send_keys(text)

    def cli(self, *args, stdin=None):
        return subprocess.run([JOBSPEC, *args], input=stdin, capture_output=True, text=True,
                              timeout=60).stdout

    # -- the story from issue 20 ---------------------------------------------------------

    def test_the_playground(self):
        d = self.driver
        d.get(self.server.url)
        self.wait(lambda: self.find("#summary").text not in ("", "Loading…"), "the page")
        self.assertEqual(Select(self.find("#language")).first_selected_option.get_attribute(
            "value"), "shape")

        # An error, underlined where it is, with its code, help and explanation.
        self.type_text("slot=3-1/core")
        self.wait(lambda: d.find_elements(By.CSS_SELECTOR,
                                          '#text-backdrop [data-code="shape.range-order"]'),
                  "the underline")
        self.settled()
        mark = self.find('#text-backdrop [data-code="shape.range-order"]')
        self.assertEqual(mark.text if mark.text else mark.get_attribute("textContent"), "3-1")
        self.assertEqual(mark.get_attribute("data-columns"), "line 1, columns 6–8")
        style = d.execute_script(
            "const s = getComputedStyle(arguments[0]);"
            "return [s.textDecorationLine, s.textDecorationStyle];", mark)
        self.assertEqual(style, ["underline", "wavy"])
        item = self.find("#diagnostics li")
        self.assertIn("error", item.text)
        self.assertIn("[shape.range-order]", item.text)
        self.assertIn("range maximum 1 is below its minimum 3", item.text)
        self.wait(lambda: "Fix" in self.find("#diagnostics li details").text,
                  "the explanation")
        explain = self.cli("explain", "shape.range-order")
        self.assertIn(explain.splitlines()[2][:40], self.find("#diagnostics li details").text)
        self.assertEqual(self.find("#summary").text, "1 error.")
        d.save_screenshot(os.path.join(OUTDIR, "playground-error.png"))

        # Fixed: no diagnostics, the canonical JSON.
        self.type_text("slot=3-30/node")
        self.wait(lambda: self.find("#summary").text == "No problems.", "no problems")
        self.settled()
        self.assertEqual(self.find("#output").text.strip(),
                         self.cli("shape", "slot=3-30/node").strip())
        self.assertEqual(d.find_elements(By.CSS_SELECTOR, "#text-backdrop [data-code]"), [])

        # The tokens: pointing at one shows its range.
        self.find("#tab-tokens").click()
        self.wait(lambda: len(d.find_elements(By.CSS_SELECTOR, "#tokens tbody tr")) == 6,
                  "the tokens")
        ActionChains(d).move_to_element(d.find_elements(By.CSS_SELECTOR,
                                                        "#tokens tbody tr")[2]).perform()
        self.wait(lambda: "bytes 5–9" in self.find("#token-range").text, "the token's range")
        self.assertEqual(self.find("#text-backdrop .mark-token").get_attribute("textContent"),
                         "3-30")
        # The parse tree, drawn.
        self.find("#tab-tree").click()
        self.wait(lambda: d.find_elements(By.CSS_SELECTOR, "#tree svg"), "the parse tree")
        self.assertIn("COUNT", self.find("#tree svg").get_attribute("textContent"))
        d.save_screenshot(os.path.join(OUTDIR, "playground-tree.png"))
        self.find("#tab-output").click()

        # The permalink reproduces the state in a new tab.
        link = self.find("#permalink").get_attribute("href")
        self.assertIn("#lang=shape", link)
        first = d.current_window_handle
        d.switch_to.new_window("tab")
        d.get(link)
        self.wait(lambda: self.find("#summary").text == "No problems.", "the permalink's page")
        self.settled()
        self.assertEqual(self.find("#text").get_attribute("value"), "slot=3-30/node")
        self.assertEqual(self.find("#output").text.strip(),
                         self.cli("shape", "slot=3-30/node").strip())
        d.close()
        d.switch_to.window(first)

        # A V1 jobspec and an R: does it fit?
        Select(self.find("#language")).select_by_value("jobspec")
        self.wait(lambda: self.find("#option-v1").is_displayed(), "the --v1 option")
        self.find("#option-v1").click()
        self.assertTrue(self.find("#r").is_displayed())
        self.find("#tab-match").click()
        self.wait(lambda: self.find("#verdict").text.startswith("Fits."), "the allocation")
        self.settled()
        allocation = json.loads(self.find("#allocation").text)
        with tempfile.TemporaryDirectory() as tmp:
            job, r = os.path.join(tmp, "job.yaml"), os.path.join(tmp, "r.json")
            with open(job, "w", encoding="utf-8") as f:
                f.write(self.find("#text").get_attribute("value"))
            with open(r, "w", encoding="utf-8") as f:
                f.write(self.find("#r").get_attribute("value"))
            self.assertEqual(allocation, json.loads(self.cli("match", job, r)))
        self.assertIn("v1=1", d.current_url)
        d.save_screenshot(os.path.join(OUTDIR, "playground-match.png"))

        # An R that is too small says why.
        r_area = self.find("#r")
        r_area.click()
        r_area.send_keys(Keys.CONTROL, "a")
        r_area.send_keys(Keys.DELETE)
        r_area.send_keys('{"version":1,"execution":{"R_lite":[{"rank":"0","children":'
                         '{"core":"0-3","gpu":"0"}}],"nodelist":["n0"],"starttime":0,"expiration":0}}')
        self.wait(lambda: self.find("#verdict").text.startswith("Does not fit"), "the reason")
        self.assertIn("jobspec.unsatisfiable", self.find("#verdict").text)

        # An instance's state: each job's forecast, and the schedule drawn.
        Select(self.find("#language")).select_by_value("forecast")
        self.wait(lambda: self.find("#output").text.startswith("ƒ"), "the forecast")
        self.settled()
        with tempfile.TemporaryDirectory() as tmp:
            state = os.path.join(tmp, "state.json")
            with open(state, "w", encoding="utf-8") as f:
                f.write(self.find("#text").get_attribute("value"))
            self.assertEqual(self.find("#output").text.strip(),
                             self.cli("forecast", state).strip())
        self.assertEqual(self.find("#tab-graph").text, "Schedule")
        self.find("#tab-graph").click()
        self.wait(lambda: d.find_elements(By.CSS_SELECTOR, "#graph svg"), "the schedule")
        self.assertEqual(self.find("#graph svg").get_attribute("aria-label"), "schedule")
        self.assertIn("node2", self.find("#graph svg").get_attribute("textContent"))
        self.assertFalse(self.find("#graph-dot-box").is_displayed())
        d.save_screenshot(os.path.join(OUTDIR, "playground-forecast.png"))

    def test_keyboard_alone(self):
        d = self.driver
        d.get(self.server.url + "#lang=shape&text=slot%3D2%2Fcore")
        self.wait(lambda: self.find("#summary").text == "No problems.", "the page")
        seen = []
        body = self.find("body")
        body.send_keys(Keys.TAB)
        for _ in range(20):
            seen.append(d.switch_to.active_element.get_attribute("id"))
            d.switch_to.active_element.send_keys(Keys.TAB)
        for control in ["language", "option-format", "permalink", "text", "tab-output"]:
            self.assertIn(control, seen)
        self.find("#tab-output").send_keys(Keys.ARROW_RIGHT)
        self.assertEqual(d.switch_to.active_element.get_attribute("id"), "tab-tokens")
        self.assertEqual(self.find("#tab-tokens").get_attribute("aria-selected"), "true")
        self.assertFalse(self.find("#panel-tokens").get_attribute("hidden"))
        for control in d.find_elements(By.CSS_SELECTOR, "textarea, select, input"):
            labelled = d.execute_script("return arguments[0].labels.length", control)
            self.assertGreater(labelled, 0, control.get_attribute("id"))


if __name__ == "__main__":
    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        print("skipped: chromium and chromium-driver are not installed (tools/setup.sh "
              "installs them)")
        sys.exit(SKIP)
    JOBSPEC = os.path.abspath(sys.argv[1])
    OUTDIR = os.path.abspath(sys.argv[2])
    os.makedirs(OUTDIR, exist_ok=True)
    unittest.main(argv=[sys.argv[0]], verbosity=2)
