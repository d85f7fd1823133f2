#!/usr/bin/env python3
"""`pibrowser usage` and the Usage view on a generated folder of 5,000 sessions, 1 GB (a benchmark, not a test).

    python benchmarks/bench_usage.py [--files 5000] [--size-mb 1070] [--dir KEEP] [--file REFERENCE] [--no-gui]

Writes (or reuses, with --dir) a folder of --files sessions adding up to about --size-mb,
their sizes long-tailed as real folders are, under 40 project folders, spread over half a
year, a few in a hundred of them forks of another (pi's forkFrom: a new header, the same
entries). Each file is a prefix of one of a few long generated sessions (generate_session.py),
its ids and times made its own, so no two files share a reply but the forks.

Measures, in a throwaway home (so the user's cache is never read or written):
- the first `pibrowser usage --by day` (nothing cached), target <= 5 s;
- the next one (everything cached), target <= 300 ms;
- the one after a file grows by a reply, target <= 300 ms;
- with --gui (the default): View > Usage opening once the session list and the usage are cached,
  target <= 500 ms, and a change of grouping redrawn, target <= 100 ms.
The machine's yardstick comes first; --file names the reference file it reads (default: the
largest generated session). pibrowser's modules are compiled to bytecode first, as an installed
package has them (an interpreter told not to write bytecode would compile every module at every run).
"""

from __future__ import annotations

import argparse
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.generate_session import generate
from benchmarks.yardstick import print_yardstick

BYTES_PER_ENTRY = 1_600
TEMPLATES = 4
TEMPLATE_ENTRIES = 12_000
PROJECTS = 40
SPREAD_DAYS = 180
FORK_EVERY = 40  # one file in this many is a fork of the one before it
_ISO = re.compile(rb'"timestamp":"(\d{4}-\d\d-\d\d)T')
_MILLIS = re.compile(rb'"timestamp":(1\d{12})\b')
_REFERENCES = re.compile(rb'"(id|parentId|targetId|firstKeptEntryId|fromId)":"')


def own_body(body: bytes, tag: bytes, days: int) -> bytes:
    """A template's lines made a session of their own: every id prefixed with `tag`, every time `days` later."""
    shifted: dict[bytes, bytes] = {}

    def day(match: re.Match[bytes]) -> bytes:
        text = match.group(1)
        moved = shifted.get(text)
        if moved is None:
            moved = shifted[text] = (date.fromisoformat(text.decode()) + timedelta(days=days)).isoformat().encode()
        return b'"timestamp":"' + moved + b"T"

    body = _REFERENCES.sub(lambda match: match.group(0) + tag, body)
    body = _ISO.sub(day, body)
    return _MILLIS.sub(lambda match: b'"timestamp":' + str(int(match.group(1)) + days * 86_400_000).encode(), body)


def write_folder(root: Path, size_mb: float, files: int, seed: int) -> int:
    """Sessions of long-tailed sizes adding up to about size_mb; returns the bytes written."""
    rng = random.Random(seed)
    weights = [rng.paretovariate(1.3) for _ in range(files)]
    scale = size_mb * 1024 * 1024 / BYTES_PER_ENTRY / sum(weights)
    counts = [min(TEMPLATE_ENTRIES, max(6, int(weight * scale))) for weight in weights]
    templates = []
    for number in range(TEMPLATES):
        path = root.parent / f"template-{number}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        generate(path, entries=TEMPLATE_ENTRIES, seed=seed + number, branch_every=400, compaction_every=2_000)
        data = path.read_bytes()
        ends = [match.end() for match in re.finditer(rb"\n", data)]
        templates.append((data, ends))
        path.unlink()
    written = 0
    previous: tuple[Path, bytes, str] | None = None
    for index, count in enumerate(counts):
        project = index % PROJECTS
        folder = root / f"--home-dev-project-{project:02d}--"
        folder.mkdir(parents=True, exist_ok=True)
        days = index * SPREAD_DAYS // files
        started = (date(2026, 3, 2) + timedelta(days=days)).isoformat()
        path = folder / f"{started}T08-00-00-000Z_{index:05d}.jsonl"
        header = {"type": "session", "version": 3, "id": f"bench-{index:05d}", "timestamp": f"{started}T08:00:00.000Z"}
        if previous is not None and index % FORK_EVERY == 0:
            parent, body, parent_started = previous  # pi's forkFrom: the parent's entries as they were, a later header
            header.update(timestamp=f"{parent_started}T20:00:00.000Z", cwd=f"/home/dev/project-{project:02d}", parentSession=str(parent))
        else:
            data, ends = templates[index % TEMPLATES]
            body = own_body(data[ends[0] : ends[min(count, len(ends) - 1)]], f"f{index:05d}-".encode(), days)
            header["cwd"] = f"/home/dev/project-{project:02d}"
            previous = (path, body, started)
        path.write_bytes(orjson.dumps(header) + b"\n" + body)
        written += path.stat().st_size
    return written


def compile_package() -> None:
    """pibrowser's bytecode written, as pip writes it when it installs the package."""
    import compileall

    compileall.compile_dir(Path(__file__).resolve().parent.parent / "pibrowser", quiet=1)


def run_usage(root: Path) -> tuple[float, float]:
    """One `pibrowser usage ROOT --by day` in a fresh process: wall and CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "pibrowser", "usage", str(root), "--by", "day"], capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise SystemExit(result.stderr.decode())
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def grow(path: Path, number: int) -> None:
    """pi appends a reply to the session."""
    usage = {"input": 12, "output": 40, "cacheRead": 9000, "cacheWrite": 0, "totalTokens": 9052, "cost": {"total": 0.0031}}
    line = {
        "type": "message",
        "id": f"grown{number:04d}-{random.getrandbits(32):08x}",  # pi's ids are random: a folder reused gets no copies
        "parentId": None,
        "timestamp": "2026-08-01T12:00:00.000Z",
        "message": {
            "role": "assistant",
            "content": [{"type": "text", "text": "more"}],
            "provider": "anthropic",
            "model": "claude-sonnet-4-5",
            "usage": usage,
        },
    }
    with open(path, "ab") as out:
        out.write(orjson.dumps(line) + b"\n")


def report(name: str, runs: list[tuple[float, float]], target: float) -> None:
    walls, cpus = [wall for wall, _ in runs], [cpu for _, cpu in runs]
    print(
        f"{name}: median {statistics.median(walls) * 1000:,.0f} ms wall, {statistics.median(cpus) * 1000:,.0f} ms CPU "
        f"(runs {', '.join(f'{wall * 1000:,.0f}' for wall in walls)} ms; target <= {target * 1000:,.0f} ms)",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--size-mb", type=float, default=1070, help="about what the files add up to, in MB (1070 gives 1 GB)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--dir", type=Path, help="write (or reuse) the folder here")
    parser.add_argument("--file", type=Path, help="the yardstick's reference session (default: the largest generated one)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-gui", action="store_true", help="the command line only")
    args = parser.parse_args()
    from tests.home import isolate_home

    isolate_home("pibrowser-bench-usage-")  # the cache and settings of a throwaway home
    with tempfile.TemporaryDirectory(prefix="pibrowser-bench-usage-") as scratch:
        root = args.dir or Path(scratch) / "sessions"
        if not root.exists() or not any(root.rglob("*.jsonl")):
            start = time.perf_counter()
            size = write_folder(root, args.size_mb, args.files, args.seed)
            print(f"generated {args.files:,} files, {size / 2**20:,.0f} MB in {time.perf_counter() - start:.0f} s", flush=True)
        files = sorted(root.rglob("*.jsonl"), key=lambda path: path.stat().st_size)
        compile_package()
        print_yardstick(args.file or files[-1])
        print(f"folder: {len(files):,} files, {sum(path.stat().st_size for path in files) / 2**20:,.0f} MB", flush=True)
        report("first pibrowser usage --by day (nothing cached)", [run_usage(root)], 5.0)
        report("next, everything cached", [run_usage(root) for _ in range(args.repeat)], 0.3)
        grown = []
        for number in range(args.repeat):
            grow(files[len(files) // 2], number)
            grown.append(run_usage(root))
        report("after one file grows by a reply", grown, 0.3)
        if not args.no_gui:
            from benchmarks.bench_usage_view import measure_view

            measure_view(root, args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
