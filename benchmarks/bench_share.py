#!/usr/bin/env python3
"""`pibrowser share` side by side with pi's own HTML export, and the page in headless Chromium (a benchmark, not a test).

    python benchmarks/bench_share.py --file pi-written-100k.jsonl [--repeat 3] [--clicks 20]

Prints the machine's yardstick first. Then, on the file (taken as --file; a .gz is unpacked to a
temporary file first): pi 1.6.0's exportFromFile (on a copy: pi rewrites an old-format input),
`pibrowser share --no-redact` and `pibrowser share` (redaction on), each a fresh process, median of
--repeat runs: wall and CPU time, peak memory (the process and the helper it forks, summed, sampled
every 20 ms) and the page's bytes. Targets (issue 33): the page ≤ 0.8× pi's bytes; written in
≤ 0.5× pi's time without redaction and no slower than pi with it; peak memory ≤ 0.5× pi's. Then
our page in headless Chromium: when the tree is usable after the navigation starts (the page's own
mark, set once the outline is drawn), and the time from a click on a row to the frame that shows its
context, for --clicks rows at random (targets ≤ 2 s and ≤ 100 ms). Node is $PIBROWSER_NODE, pi's
package $PIBROWSER_PI_DIR (see tests/pi/locate.py); without them pi's side is skipped.
"""

from __future__ import annotations

import argparse
import gzip
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.yardstick import print_yardstick
from tests.pi.locate import node_binary, pi_package

HERE = Path(__file__).resolve().parent


@dataclass
class Run:
    wall: float
    cpu: float
    peak: int  # bytes, the process and its children summed
    size: int


def _tree_rss(pid: int) -> int:
    """Resident bytes of a process and its descendants."""
    total, stack = 0, [pid]
    while stack:
        current = stack.pop()
        try:
            with open(f"/proc/{current}/status") as status:
                total += next((int(line.split()[1]) * 1024 for line in status if line.startswith("VmRSS:")), 0)
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as children:
                    stack.extend(int(child) for child in children.read().split())
        except (FileNotFoundError, ProcessLookupError):
            continue
    return total


def run_once(command: list[str], out: Path) -> Run:
    out.unlink(missing_ok=True)
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = [0]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], _tree_rss(process.pid))
            done.wait(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    done.set()
    sampler.join()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(command)} failed: {process.stderr.read().decode(errors='replace')[-2000:]}")
    # wait4 counts the children the process waited for in its CPU time and its largest RSS.
    return Run(wall, usage.ru_utime + usage.ru_stime, max(peak[0], usage.ru_maxrss * 1024), out.stat().st_size)


def measured(name: str, command: list[str], out: Path, repeat: int) -> Run:
    runs = [run_once(command, out) for _ in range(repeat)]
    run = Run(*(statistics.median(getattr(r, field) for r in runs) for field in ("wall", "cpu")), max(r.peak for r in runs), runs[-1].size)
    print(
        f"  {name:34s} wall {run.wall:6.2f} s  cpu {run.cpu:6.2f} s  peak {run.peak / 1e6:7.0f} MB  page {run.size / 1e6:7.1f} MB",
        flush=True,
    )
    return run


def browser_figures(page: Path, clicks: int) -> None:
    from tests.browser import Browser

    browser = Browser(1400, 900)
    try:
        browser.driver.get(page.resolve().as_uri())  # returns once the document is read whole
        ready = float(browser.driver.execute_script("return document.body.dataset.ready"))
        loaded = browser.driver.execute_script(
            "const t = performance.getEntriesByType('navigation')[0]; return [t.responseEnd, t.domInteractive]"
        )
        print(
            f"  Chromium: tree usable {ready / 1000:.2f} s after the navigation started (file read by {loaded[0] / 1000:.2f} s, parsed by {loaded[1] / 1000:.2f} s)"
        )
        rows = browser.driver.execute_script("return document.getElementById('rows').style.height")
        count = int(float(rows.rstrip("px")) / 20)
        times = []
        for row in random.Random(33).sample(range(count), min(clicks, count)):
            elapsed = browser.driver.execute_async_script(
                """
                const [row, done] = arguments, outline = document.getElementById("outline");
                outline.scrollTop = row * 20 - 200;
                outline.dispatchEvent(new Event("scroll"));
                const el = [...document.querySelectorAll("#rows .row")].find((r) => Number(r.dataset.row) === row);
                const start = performance.now();
                el.click();
                // the click's first paint: the leaf's end of the context (the cards above follow in batches)
                requestAnimationFrame(() => setTimeout(() => done(performance.now() - start), 0));
                """,
                row,
            )
            times.append(elapsed)
        times.sort()
        print(
            f"  Chromium: a click to its context painted, {len(times)} rows: median {statistics.median(times):.0f} ms, worst {times[-1]:.0f} ms"
        )
    finally:
        browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--file", type=Path, required=True, help="a session file (.jsonl, or .jsonl.gz)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--clicks", type=int, default=20)
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-share-") as folder:
        work = Path(folder)
        source = args.file
        if source.suffix == ".gz":
            source = work / source.with_suffix("").name
            with gzip.open(args.file, "rb") as packed, open(source, "wb") as unpacked:
                shutil.copyfileobj(packed, unpacked)
        print_yardstick(source)
        print(f"\n{source.name}: {source.stat().st_size / 1e6:.0f} MB")
        node, package = node_binary(), pi_package()
        pi = None
        if node and package:
            copy = work / "pi-copy.jsonl"
            shutil.copyfile(source, copy)
            pi = measured(
                "pi 1.6.0 exportFromFile",
                [node, str(HERE / "pi_export.mjs"), str(package), str(copy), str(work / "pi.html")],
                work / "pi.html",
                args.repeat,
            )
            (work / "pi.html").unlink()
        else:
            print("  pi's side skipped: needs PIBROWSER_NODE and PIBROWSER_PI_DIR (Node 22, pi 1.6.0)")
        ours_page = work / "ours.html"
        share = [sys.executable, "-m", "pibrowser", "share", str(source), "-o", str(ours_page)]
        plain = measured("pibrowser share --no-redact", [*share, "--no-redact"], ours_page, args.repeat)
        redacted = measured("pibrowser share (redaction on)", share, ours_page, args.repeat)
        if pi is not None:
            print(
                f"  against pi: page {plain.size / pi.size:.2f}× (target ≤ 0.8), time without redaction {plain.wall / pi.wall:.2f}× wall "
                f"{plain.cpu / pi.cpu:.2f}× cpu (≤ 0.5), with redaction {redacted.wall / pi.wall:.2f}× wall (≤ 1), "
                f"peak memory {max(plain.peak, redacted.peak) / pi.peak:.2f}× (≤ 0.5)"
            )
        if not args.no_browser:
            run_once([*share, "--no-redact"], ours_page)
            browser_figures(ours_page, args.clicks)


if __name__ == "__main__":
    main()
