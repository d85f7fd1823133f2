"""The sessions list in pi's order (issue 25, item 4): newest first, ties as /resume breaks them.

pi sorts one folder's file names with `b.localeCompare(a)` (ICU's collation: punctuation,
then digits, then letters, case only after the letters) and then, stably, by the time of the
last message; across project folders it first sorts by the file's own time. The answers
below are pi's (tests/test_against_pi.py asks pi for them again).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from pibrowser.model.js.collate import collation_key
from pibrowser.model.library.session_list import SummaryCache, scan_sessions

# Names whose order differs between code points and ICU's collation.
TIED_NAMES = ["b", "a1", "A-upper", "a-lower", "a_under", "ab", "aB", "Ab", "a.dot", "Z", "2026-01-01T00-00-00-000Z_x", "ä"]
# pi 1.6.0's listAll(DIR) order for them, all with the same last-message time.
PI_ORDER = ["Z", "b", "Ab", "aB", "ab", "a1", "ä", "a.dot", "A-upper", "a-lower", "a_under", "2026-01-01T00-00-00-000Z_x"]


def session_line(name: str, stamp: str = "2026-10-30T09:00:00.000Z", message_time: object = 1793350800000) -> bytes:
    header = {"type": "session", "version": 3, "id": name, "timestamp": stamp, "cwd": "/work"}
    message = {
        "type": "message",
        "id": "m",
        "parentId": None,
        "timestamp": stamp,
        "message": {"role": "user", "content": "hi", "timestamp": message_time},
    }
    return orjson.dumps(header) + b"\n" + orjson.dumps(message) + b"\n"


def write_tied(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for number, name in enumerate(TIED_NAMES):
        path = folder / f"{name}.jsonl"
        path.write_bytes(session_line(name))
        os.utime(path, ns=(number * 10**9, number * 10**9))  # file times that pi's one-folder order ignores


def listed(root: Path) -> list[str]:
    return [Path(summary.file).stem for summary in scan_sessions(root, cache=SummaryCache(None))]


def test_ties_in_one_folder_go_by_name_as_icu_collates_descending(tmp_path):
    write_tied(tmp_path)
    assert listed(tmp_path) == PI_ORDER


def test_the_command_lists_in_that_order(tmp_path):
    write_tied(tmp_path / "sessions")
    result = subprocess.run(
        [sys.executable, "-m", "pibrowser", "sessions", str(tmp_path / "sessions"), "--format", "json"],
        capture_output=True,
        timeout=120,
        env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")},
    )
    assert [Path(row["file"]).stem for row in orjson.loads(result.stdout)] == PI_ORDER


def test_across_folders_the_files_own_time_comes_before_the_name(tmp_path):
    for folder, name, second in (("--p1--", "a", 5), ("--p2--", "b", 1), ("--p3--", "c", 9)):
        (tmp_path / folder).mkdir()
        path = tmp_path / folder / f"{name}.jsonl"
        path.write_bytes(session_line(name))
        os.utime(path, (second, second))
    assert listed(tmp_path) == ["c", "a", "b"]


@pytest.mark.parametrize(
    "stamp, message_time, modified",
    [
        ("2026-10-30T09:00:00.000Z", 0.5, "1970-01-01T00:00:00.000Z"),  # a fraction > 0 counts, then loses its fraction
        ("2026-10-30T09:00:00.000Z", -5, "2026-10-30T09:00:00.000Z"),  # not > 0: the header's time
        (1700000000000, 0, None),  # a number is not a header time for pi: the file's own time
    ],
)
def test_modified_is_pis(tmp_path, stamp, message_time, modified):
    path = tmp_path / "s.jsonl"
    path.write_bytes(session_line("s", stamp, message_time))
    os.utime(path, (1_000_000_000, 1_000_000_000))
    summary = scan_sessions(tmp_path, cache=SummaryCache(None))[0]
    assert summary.modified == (modified or "2001-09-09T01:46:40.000Z")


def test_collation_is_icus_for_every_ascii_character():
    # Node's own order of the printable ASCII characters (String.prototype.localeCompare, en-US).
    node = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789aAbBcCdDeEfFgGhHiIjJkKlLmMnNoOpPqQrRsStTuUvVwWxXyYzZ"
    assert "".join(sorted((chr(code) for code in range(32, 127)), key=collation_key)) == node
