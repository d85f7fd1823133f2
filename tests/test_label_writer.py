"""Labels are appended exactly as pi appends them; earlier bytes never change."""

import os
import re
import threading

import orjson
import pytest

from pibrowser.model import Session, SessionLoadError
from pibrowser.model.writing.label_writer import append_label

from .sessions import chain, write


def last_line(path):
    return orjson.loads(path.read_bytes().rstrip(b"\n").rsplit(b"\n", 1)[-1])


def test_label_line_has_pi_shape_and_parent_is_the_last_entry(fixture_copy):
    path = fixture_copy("generated-s3")
    before = path.read_bytes()
    leaf = Session.load(path).leaf_id
    new_id = append_label(path, Session.load(path).roots[0], "milestone")
    after = path.read_bytes()
    assert after.startswith(before)
    line = after[len(before) :]
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    entry = orjson.loads(line)
    assert list(entry) == ["type", "id", "parentId", "timestamp", "targetId", "label"]
    assert entry["type"] == "label" and entry["id"] == new_id and entry["parentId"] == leaf
    assert re.fullmatch(r"[0-9a-f]{8}", new_id)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", entry["timestamp"])
    session = Session.load(path)
    assert session.labels[entry["targetId"]] == "milestone"
    assert session.leaf_id == new_id


def test_clearing_omits_the_label_key(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(3))
    append_label(path, "m1", "x")
    append_label(path, "m1")
    entry = last_line(path)
    assert "label" not in entry
    assert Session.load(path).labels == {}


def test_missing_newline_is_repaired_first(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(2), newline_at_end=False)
    os.utime(path, (1_000_000, 1_000_000))  # left unfinished long ago: no wait for pi
    before = path.read_bytes()
    append_label(path, "m0", "a")
    after = path.read_bytes()
    assert after.startswith(before + b"\n{")
    assert Session.load(path).labels == {"m0": "a"}


def test_unknown_target_is_refused_and_nothing_written(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(2))
    before = path.read_bytes()
    with pytest.raises(SessionLoadError, match="no entry"):
        append_label(path, "nope", "x")
    assert path.read_bytes() == before


def test_new_id_is_unique_in_the_file(tmp_path, monkeypatch):
    path = write(tmp_path / "s.jsonl", *chain(2, prefix="aaaa000"))
    tokens = iter(["aaaa0000", "aaaa0001", "bbbbbbbb"])
    monkeypatch.setattr("pibrowser.model.writing.label_writer.secrets.token_hex", lambda n: next(tokens))
    assert append_label(path, "aaaa0000", "x") == "bbbbbbbb"


def test_labels_written_while_another_writer_appends_land_as_whole_lines(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(2))
    stop = threading.Event()

    def pi_appends():
        # Another process appending whole lines with O_APPEND, as pi does.
        n = 0
        while not stop.is_set() and n < 2000:
            with open(path, "ab") as handle:
                handle.write(
                    orjson.dumps(
                        {
                            "type": "custom",
                            "customType": "x",
                            "data": {"n": n, "pad": "y" * 500},
                            "id": f"p{n:07d}",
                            "parentId": "m1",
                            "timestamp": "2026-10-30T09:00:00.000Z",
                        }
                    )
                    + b"\n"
                )
            n += 1

    writer = threading.Thread(target=pi_appends)
    writer.start()
    try:
        for index in range(40):
            append_label(path, "m0", f"label {index}")
    finally:
        stop.set()
        writer.join()
    session = Session.load(path, lazy=False)
    assert session.problems == []
    assert session.labels["m0"] == "label 39"
