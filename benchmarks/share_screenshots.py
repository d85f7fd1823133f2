#!/usr/bin/env python3
"""The shared page in headless Chromium at 1000×700 and 1600×1000, light and dark, for judging by eye.

    python benchmarks/share_screenshots.py OUT_DIR [SESSION.jsonl ...]

Default sessions: the demo and tests/fixtures/generated-s5.jsonl (the latter also with its Trace tab).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pibrowser.cli.main import main as pibrowser
from tests.browser import Browser

REPO = Path(__file__).resolve().parent.parent
DEFAULT = [REPO / "resources" / "demo-session.jsonl", REPO / "tests" / "fixtures" / "generated-s5.jsonl"]


def main() -> None:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    sessions = [Path(arg) for arg in sys.argv[2:]] or DEFAULT
    browser = Browser()
    try:
        with tempfile.TemporaryDirectory() as folder:
            for session in sessions:
                page = Path(folder) / f"{session.stem}.html"
                assert pibrowser(["share", str(session), "-o", str(page), "--no-redact"]) == 0
                for width, height in ((1000, 700), (1600, 1000)):
                    for dark in (False, True):
                        browser.size(width, height)
                        browser.theme(dark)
                        browser.open(page)
                        name = f"{session.stem}-{width}x{height}-{'dark' if dark else 'light'}"
                        browser.driver.save_screenshot(str(out / f"{name}.png"))
                        browser.driver.execute_script("document.querySelector('#tabs [data-tab=trace]').click()")
                        browser.driver.save_screenshot(str(out / f"{name}-trace.png"))
                        print(out / f"{name}.png")
    finally:
        browser.close()


if __name__ == "__main__":
    main()
