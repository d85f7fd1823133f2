"""Is this still the file I read? (model/session/same_file.py): appends pass, anything else is told."""

import os

from pibrowser.model.session.same_file import Stamp, appended_only, unchanged


def test_appends_pass_and_a_rewrite_or_a_shorter_file_is_told(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"head line\nsecond line\n")
    consumed, head, tail = 22, b"head", b"line\n"
    with open(path, "ab") as handle:
        handle.write(b"appended\n")
    fd = os.open(path, os.O_RDONLY)
    try:
        assert appended_only(fd, consumed, tail, head) is None
        path.write_bytes(b"HEAD line\nsecond line\nappended\n")  # the same size, rewritten in place
        assert appended_only(fd, consumed, tail, head) == "bytes read before have changed since"
        assert appended_only(fd, consumed, tail) is None  # without the head, only the tail is looked at
        path.write_bytes(b"head\n")
        assert appended_only(fd, consumed, tail, head) == "it is shorter than when it was read"
    finally:
        os.close(fd)


def test_unchanged_is_the_same_file_with_the_same_stamp(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"one\n")
    seen = os.stat(path)
    assert unchanged(seen, os.stat(path)) and Stamp.of(seen) == (4, seen.st_mtime_ns)
    os.utime(path, ns=(seen.st_atime_ns, seen.st_mtime_ns + 1_000_000))
    assert not unchanged(seen, os.stat(path))  # written since, the size aside
    other = tmp_path / "other.jsonl"
    other.write_bytes(b"one\n")
    os.utime(other, ns=(seen.st_atime_ns, seen.st_mtime_ns))
    other.replace(path)
    assert Stamp.of(os.stat(path)) == Stamp.of(seen) and not unchanged(seen, os.stat(path))  # another file renamed over it
