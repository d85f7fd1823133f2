"""The benchmarks' yardstick reads the measured file a stretch at a time and still loads every line once."""

from __future__ import annotations

import gzip

import pytest

from benchmarks import yardstick

from .conftest import DEMO, FIXTURES

FILES = [DEMO, FIXTURES / "blog-example.jsonl"]


def non_blank_lines(data: bytes) -> int:
    return sum(1 for line in data.splitlines() if line.strip())


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
@pytest.mark.parametrize("stretch", [1, 97, 4096, 2**24])
def test_every_line_is_loaded_once_whatever_the_stretch(monkeypatch, path, stretch):
    # Stretches far shorter than a line end most of them in the middle: each is still loaded once, whole.
    monkeypatch.setattr(yardstick, "CHUNK_BYTES", stretch)
    _, lines = yardstick.loads_seconds(path)
    assert lines == non_blank_lines(path.read_bytes())


def test_a_gzipped_file_with_a_damaged_line_and_no_last_newline(monkeypatch, tmp_path):
    # A damaged line costs its attempt and counts; the last line counts without its newline.
    data = DEMO.read_bytes().rstrip(b"\n") + b'\n{"type": "mess\n\n' + b'{"type":"custom"}'
    path = tmp_path / "session.jsonl.gz"
    path.write_bytes(gzip.compress(data))
    monkeypatch.setattr(yardstick, "CHUNK_BYTES", 512)
    _, lines = yardstick.loads_seconds(path)
    assert lines == non_blank_lines(data)
