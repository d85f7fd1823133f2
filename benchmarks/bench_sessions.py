#!/usr/bin/env python3
"""The session list and the all-sessions search index on a generated sessions folder (a benchmark, not a test).

    python benchmarks/bench_sessions.py [--size-mb 1024] [--files 2000] [--projects 40] [--dir KEEP]

Writes --files sessions of about --size-mb in all (sizes with a long tail, as
real folders have) under --projects project folders, then reports:
- indexing everything from nothing (MB/s, and the time that rate gives for 1 GB);
- query latency for common and rare words, a phrase, and filtered queries;
- re-checking the unchanged folder (index sync and session list);
- indexing appended tails.
Targets: 1 GB indexed in <= 60 s on 2 cores; a query in <= 50 ms; re-checking
2,000 unchanged files in <= 1 s.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.yardstick import print_yardstick
from benchmarks.generate_session import generate
from pibrowser.model.library.search_index import SearchFilters, SearchIndex
from pibrowser.model.library.session_list import SummaryCache, scan_sessions

BYTES_PER_ENTRY = 1_600  # about what generate_session writes per entry
TEMPLATES = 4
TEMPLATE_ENTRIES = 20_000  # ~30 MB: the longest session in the folder
QUERIES = [
    ("common word", "parser", SearchFilters()),
    ("two words", "retry timeout", SearchFilters()),
    ("rare identifier", "drainBuffer", SearchFilters()),
    ("phrase", '"the parser"', SearchFilters()),
    ("no hit", "zyzzyvaqq", SearchFilters()),
    ("word, role user", "config", SearchFilters(roles=("user",))),
    ("word, tool bash", "error", SearchFilters(tools=("bash",))),
    ("word, project", "cache", SearchFilters(project="project-07")),
    # With --cjk-every: text written without spaces, searched by substring.
    ("CJK, 3 chars", "解析器", SearchFilters()),
    ("CJK, 2 chars", "超时", SearchFilters()),
    ("CJK, 1 char", "试", SearchFilters()),
    ("CJK + word", "重试 parser", SearchFilters()),
]
# --cjk-every N: in every Nth file these words of the generator become Chinese, glued to what follows.
CJK_WORDS = {
    b"parser ": "解析器".encode(),
    b"retry ": "重试".encode(),
    b"timeout ": "超时".encode(),
    b"test ": "测试".encode(),
    b"the ": "请立刻开始工作".encode(),
}


def write_folder(root: Path, size_mb: float, files: int, projects: int, seed: int, cjk_every: int = 0) -> int:
    """Sessions of long-tailed sizes adding up to about size_mb; returns the bytes written.

    A few long sessions are generated, and each file is the start of one of them
    (a prefix of a session is a session) under a header of its own: generating
    2,000 files one by one would take far longer than indexing them.
    """
    rng = random.Random(seed)
    weights = [rng.paretovariate(1.3) for _ in range(files)]
    scale = size_mb * 1024 * 1024 / BYTES_PER_ENTRY / sum(weights)
    counts = [min(TEMPLATE_ENTRIES, max(4, int(weight * scale))) for weight in weights]
    templates = []
    for number in range(TEMPLATES):
        path = root.parent / f"template-{number}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        generate(path, entries=min(TEMPLATE_ENTRIES, max(counts)), seed=seed + number, branch_every=400, compaction_every=2_000)
        data = path.read_bytes()
        ends = [index + 1 for index, byte in enumerate(data) if byte == 10]
        templates.append((path, ends))
    written = 0
    for index, count in enumerate(counts):
        template, ends = templates[index % TEMPLATES]
        folder = root / f"--home-dev-project-{index % projects:02d}--"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"2026-03-{1 + index % 28:02d}T08-00-00-000Z_{index:05d}.jsonl"
        header = orjson.dumps(
            {
                "type": "session",
                "version": 3,
                "id": f"bench-{index:05d}",
                "timestamp": "2026-03-02T08:00:00.000Z",
                "cwd": f"/home/dev/project-{index % projects:02d}",
            }
        )
        with open(template, "rb") as source, open(path, "wb") as out:
            source.seek(ends[0])  # after the template's own header
            body = source.read(ends[min(count, len(ends) - 1)] - ends[0])
            if cjk_every and index % cjk_every == 0:
                for word, chinese in CJK_WORDS.items():
                    body = body.replace(word, chinese)
            out.write(header + b"\n" + body)
        written += path.stat().st_size
    for template, _ in templates:
        template.unlink()
    return written


def timed(work):
    start = time.perf_counter()
    result = work()
    return time.perf_counter() - start, result


def cpu_seconds() -> float:
    """This process's CPU time: on a shared machine the wall clock also counts the others' work."""
    return time.process_time()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=float, default=1024, help="size of the sessions folder (default 1024)")
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--projects", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--dir", type=Path, help="write (or reuse) the folder here instead of a temporary one")
    parser.add_argument("--repeat", type=int, default=20, help="runs of each query (the median is reported)")
    parser.add_argument("--cjk-every", type=int, default=0, metavar="N", help="every Nth file's common words in Chinese (0: none)")
    args = parser.parse_args()
    print_yardstick()

    with tempfile.TemporaryDirectory(prefix="pibrowser-bench-") as scratch:
        root = args.dir or Path(scratch) / "sessions"
        if not root.exists() or not any(root.rglob("*.jsonl")):
            seconds, size = timed(lambda: write_folder(root, args.size_mb, args.files, args.projects, args.seed, args.cjk_every))
            print(f"generated {args.files:,} files, {size / 2**20:,.0f} MB in {seconds:.1f} s")
        files = list(root.rglob("*.jsonl"))
        size = sum(path.stat().st_size for path in files)
        print(f"folder: {len(files):,} files, {size / 2**20:,.1f} MB")

        index = SearchIndex(Path(scratch) / "cache" / "search.sqlite3")
        cpu = cpu_seconds()
        seconds, report = timed(lambda: index.sync(root))
        cpu = cpu_seconds() - cpu
        rate, cpu_rate = size / 2**20 / seconds, size / 2**20 / cpu
        index_size = sum(os.path.getsize(p) for p in (Path(scratch) / "cache").iterdir())
        print(
            f"index from nothing: {seconds:.1f} s wall, {rate:.1f} MB/s -> 1 GB in {1024 / rate:.0f} s (target <= 60 s); "
            f"{cpu:.1f} s CPU, {cpu_rate:.1f} MB/s -> 1 GB in {1024 / cpu_rate:.0f} s of one core; "
            f"index {index_size / 2**20:,.0f} MB on disk, {report.updated:,} files; load average {os.getloadavg()[0]:.1f}"
        )

        print("queries (median of", args.repeat, "runs, best first, up to 100 hits):")
        for name, query, filters in QUERIES:
            times, hits = [], []
            for _ in range(args.repeat):
                seconds, hits = timed(lambda: index.search(query, root, filters, limit=100))
                times.append(seconds)
            print(f"  {name:18} {statistics.median(times) * 1000:7.1f} ms  (max {max(times) * 1000:6.1f}, {len(hits)} hits)  {query}")

        seconds, report = timed(lambda: index.sync(root))
        print(
            f"re-check, unchanged: index sync of {report.files:,} files {seconds * 1000:.0f} ms (target <= 1000 ms), read {report.bytes} bytes"
        )
        cache = Path(scratch) / "cache" / "sessions.json"
        first, _ = timed(lambda: scan_sessions(root, cache=SummaryCache(cache)))
        again, listed = timed(lambda: scan_sessions(root, cache=SummaryCache(cache)))
        print(
            f"session list: first scan {first:.1f} s, unchanged re-scan of {len(listed):,} files {again * 1000:.0f} ms (target <= 1000 ms)"
        )

        tails = random.Random(args.seed).sample(files, min(20, len(files)))
        for path in tails:
            lines = path.read_bytes().splitlines(keepends=True)
            with open(path, "ab") as out:
                out.writelines(lines[-3:])  # pi appends whole lines; repeating the last ones is as good
        seconds, report = timed(lambda: index.sync(root))
        print(
            f"appended tails: {report.updated} files, {report.bytes / 1024:,.0f} KB indexed in {seconds * 1000:.0f} ms, "
            f"{report.reindexed} read again from the start"
        )
        index.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
