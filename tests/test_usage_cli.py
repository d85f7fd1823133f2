"""`pibrowser usage`: the JSON a notebook reads, the table people read, CSV for a spreadsheet, and its errors."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import orjson

from pibrowser.model.usage.cache import UsageCache

from .conftest import FIXTURES
from .sessions import append, message
from .test_usage import FIXTURE_FILES, expected_sum, fork_of, usage_of


def run(*args, check_rc=None):
    code = "import sys; from pibrowser.cli.main import main; rc = main(sys.argv[1:]); print(' '.join(sorted({n.split('.')[0] for n in sys.modules})), file=sys.stderr); sys.exit(rc)"
    result = subprocess.run([sys.executable, "-c", code, *map(str, args)], capture_output=True, timeout=120)
    if check_rc is not None:
        assert result.returncode == check_rc, result.stderr.decode()
    return result


def a_folder(tmp_path):
    root = tmp_path / "sessions"
    copies = []
    for path in FIXTURE_FILES:
        target = root / "--p--" / path.name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
        copies.append(target)
    fork_of(
        next(path for path in copies if path.name == "generated-s5.jsonl"), root / "--p--" / "zz-fork.jsonl"
    )  # copies only: counted once
    return root, copies


def test_json_is_rows_by_cost_and_the_total_pi_recorded(tmp_path):
    root, copies = a_folder(tmp_path)
    result = run("usage", root, "--by", "model", "--format", "json", check_rc=0)
    assert not {"PySide6", "shiboken6"} & set(result.stderr.decode().split())  # headless: Qt never loaded
    printed = orjson.loads(result.stdout)
    assert list(printed) == ["by", "rows", "total"] and printed["by"] == "model"
    assert all(list(row) == ["key", "replies", "input", "output", "cache_read", "cache_write", "cost"] for row in printed["rows"])
    costs = [row["cost"] for row in printed["rows"]]
    assert costs == sorted(costs, reverse=True)
    expected = expected_sum(copies)
    total = printed["total"]
    assert (total["replies"], total["input"], total["output"], total["cache_read"], total["cache_write"]) == (
        expected["replies"],
        expected["input"],
        expected["output"],
        expected["cacheRead"],
        expected["cacheWrite"],
    )
    assert abs(total["cost"] - expected["cost"]) < 1e-9
    again = run("usage", root, "--by", "model", "--format", "json", check_rc=0)  # from the cache now
    assert again.stdout == result.stdout


def test_text_is_a_table_with_its_total_and_csv_has_every_row(tmp_path):
    root, copies = a_folder(tmp_path)
    text = run("usage", root, "--by", "month", check_rc=0).stdout.decode()
    lines = text.splitlines()
    assert lines[0].split() == ["Month", "Replies", "Input", "Output", "Cache", "read", "Cache", "write", "Tokens", "Cost"]
    total = next(line for line in lines if line.startswith("Total"))
    assert f"{expected_sum(copies)['replies']:,}" in total.split()
    assert "counted once" in lines[-1]
    rows = list(csv.reader(io.StringIO(run("usage", root, "--by", "day", "--format", "csv", check_rc=0).stdout.decode())))
    days = orjson.loads(run("usage", root, "--by", "day", "--format", "json", check_rc=0).stdout)["rows"]
    assert rows[0] == ["key", "replies", "input", "output", "cache_read", "cache_write", "cost"]
    assert [row[0] for row in rows[1:]] == [row["key"] for row in days]


def test_since_until_project_and_tz(tmp_path):
    root, _ = a_folder(tmp_path)
    everything = orjson.loads(run("usage", root, "--by", "day", "--format", "json", check_rc=0).stdout)
    some = orjson.loads(run("usage", root, "--by", "day", "--since", "2026-01-01", "--format", "json", check_rc=0).stdout)
    assert 0 < some["total"]["replies"] < everything["total"]["replies"]
    assert all(row["key"] >= "2026-01-01" for row in some["rows"])
    before = orjson.loads(run("usage", root, "--until", "2026-01-01", "--format", "json", check_rc=0).stdout)
    assert before["total"]["replies"] + some["total"]["replies"] == everything["total"]["replies"]
    numbers = orjson.loads(run("usage", root, "--project", "NUMBERS", "--by", "project", "--format", "json", check_rc=0).stdout)
    assert [row["key"] for row in numbers["rows"]] == ["/home/user/numbers"]
    shifted = orjson.loads(run("usage", root, "--by", "day", "--tz", "+14:00", "--format", "json", check_rc=0).stdout)
    assert {row["key"] for row in shifted["rows"]} != {row["key"] for row in everything["rows"]}
    assert shifted["total"] == everything["total"]


def test_errors_end_in_one_line(tmp_path):
    bad_zone = run("usage", FIXTURES, "--tz", "Atlantis/Capital")
    assert bad_zone.returncode == 2 and b"not a time zone" in bad_zone.stderr and b"Traceback" not in bad_zone.stderr
    bad_date = run("usage", FIXTURES, "--since", "yesterday-ish")
    assert bad_date.returncode == 2 and b"--since" in bad_date.stderr
    missing = run("usage", tmp_path / "nowhere")
    assert missing.returncode == 1 and b"no such file or folder" in missing.stderr
    assert run("usage", FIXTURES, "--by", "year").returncode == 2


def test_an_empty_folder_says_so(tmp_path):
    result = run("usage", tmp_path, check_rc=0)
    assert result.stdout.decode() == "No usage recorded.\n"
    assert json.loads(run("usage", tmp_path, "--format", "json", check_rc=0).stdout)["rows"] == []


def test_an_answer_is_given_again_while_every_file_is_as_it_was_and_only_then(tmp_path):
    root, copies = a_folder(tmp_path)
    first = orjson.loads(run("usage", root, "--by", "month", "--format", "json", check_rc=0).stdout)
    cache_file = Path(os.environ["XDG_CACHE_HOME"]) / "pibrowser" / UsageCache.FILE_NAME
    with closing(sqlite3.connect(cache_file)) as db, db:
        (kept,) = db.execute("SELECT count(*) FROM answers").fetchone()
        db.execute("UPDATE answers SET answer = ?", (b"the kept answer\n",))  # what a run that adds nothing up prints
    assert kept == 1
    assert run("usage", root, "--by", "month", "--format", "json", check_rc=0).stdout == b"the kept answer\n"
    assert run("usage", root, "--by", "month", check_rc=0).stdout != b"the kept answer\n"  # another question
    append(copies[0], message("grown", None, "assistant", [], provider="p", model="m", usage=usage_of(1, 2, 3, 4, 5)))
    grown = orjson.loads(run("usage", root, "--by", "month", "--format", "json", check_rc=0).stdout)  # a file changed: added up again
    assert grown["total"]["replies"] == first["total"]["replies"] + 1 and grown["total"]["input"] == first["total"]["input"] + 1
    with closing(sqlite3.connect(cache_file)) as db:
        assert db.execute("SELECT count(*) FROM answers").fetchone() == (1,)  # only the answers for the folder as it is now


def test_the_code_that_answers_is_part_of_the_question(tmp_path):
    from pibrowser.model.usage.answers import code_stamp

    package = tmp_path / "pibrowser"
    (package / "model" / "__pycache__").mkdir(parents=True)
    module = package / "model" / "usage.py"
    module.write_text("x = 1\n")
    before = code_stamp(package)
    (package / "model" / "__pycache__" / "usage.cpython-311.pyc").write_bytes(b"compiled")
    assert code_stamp(package) == before  # bytecode written beside the code is not a change of it
    module.write_text("x = 22\n")
    assert code_stamp(package) != before
