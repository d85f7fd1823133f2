"""Headless Chromium for the shared page's tests and benchmarks, driven through Selenium.

Debian's `chromium` and `chromium-driver` come as one version, so the driver always speaks
the browser's protocol; nothing is downloaded (Selenium's manager is never asked: both paths
are given). The browser runs as root in CI, so without its sandbox, with a fresh profile, and
with every background fetch of its own off: the network log then holds only what the page asks.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
DRIVER = Path("/usr/bin/chromedriver")


def missing() -> str | None:
    """Why no browser test can run here, or None."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    if not CHROMIUM.exists() or not DRIVER.exists():
        return "no Chromium: apt-get install chromium chromium-driver"
    return None


class Browser:
    """One headless Chromium with its own profile; `driver` is Selenium's."""

    def __init__(self, width: int = 1400, height: int = 900) -> None:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        self.profile = tempfile.mkdtemp(prefix="pibrowser-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = str(CHROMIUM)
        for flag in (
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--allow-file-access-from-files",
            f"--user-data-dir={self.profile}",
            f"--window-size={width},{height}",
        ):
            options.add_argument(flag)
        options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service(str(DRIVER)), options=options)
        self.driver.execute_cdp_cmd("Network.enable", {})

    def open(self, page: Path, fragment: str = "") -> None:
        self.driver.get(page.resolve().as_uri() + fragment)
        self.wait_ready()

    def wait_ready(self, timeout: float = 60) -> None:
        """Until the page is read whole and its script has drawn the tree."""
        from selenium.webdriver.support.ui import WebDriverWait

        WebDriverWait(self.driver, timeout).until(
            lambda driver: driver.execute_script("return document.readyState === 'complete' && document.body.dataset.ready")
        )

    def context_text(self, timeout: float = 30) -> str:
        """The context view's text once every card of it is in."""
        from selenium.webdriver.support.ui import WebDriverWait

        from selenium.common.exceptions import TimeoutException

        script = "const view = document.getElementById('context'); return view.dataset.pending ? null : view.textContent"
        try:
            return WebDriverWait(self.driver, timeout).until(lambda driver: driver.execute_script(script))
        except TimeoutException as error:
            state = self.driver.execute_script("return [document.readyState, document.getElementById('context').textContent.slice(0, 300)]")
            raise AssertionError(f"the context view stayed pending: {state}; browser log {self.driver.get_log('browser')[-5:]}") from error

    def requests(self) -> list[tuple[str, str | None]]:
        """Every URL the browser asked for since the last call (page loads included), each with the
        reason it was blocked before leaving the browser ("csp", …) or None."""
        import json

        asked: dict[str, str] = {}
        blocked: dict[str, str] = {}
        for record in self.driver.get_log("performance"):
            message = json.loads(record["message"])["message"]
            params = message.get("params", {})
            if message.get("method") == "Network.requestWillBeSent":
                asked[params["requestId"]] = params["request"]["url"]
            elif message.get("method") == "Network.loadingFailed" and params.get("blockedReason"):
                blocked[params["requestId"]] = params["blockedReason"]
        return [(url, blocked.get(key)) for key, url in asked.items()]

    def size(self, width: int, height: int) -> None:
        """The page's viewport, exactly (a window's size would include the browser's own frame)."""
        self.driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}
        )

    def theme(self, dark: bool) -> None:
        value = "dark" if dark else "light"
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": value}]})

    def close(self) -> None:
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)
