"""Bad lines are skipped as pi skips them, and each is reported with its line number."""

import hashlib

import pytest

from pibrowser.model import Session, SessionLoadError
from pibrowser.model.js.map_key import js_key
from pibrowser.model.js.value import MISSING
from pibrowser.model.session import reader
from pibrowser.model.session.line_layout import LEADING_FIELDS, entry_line, entry_object

from .conftest import DEMO, FIXTURES
from .hostile import refuse_to_read
from .sessions import HEADER, chain, message, write


def reasons(session):
    return {problem.line: problem.reason for problem in session.problems}


@pytest.mark.parametrize("lazy", [True, False])
def test_garbage_and_binary_are_skipped_and_values_that_are_not_objects_kept_as_pi_keeps_them(tmp_path, lazy):
    # pi keeps every line that parses to a truthy value (`if (entry) entries.push(entry)`): an array,
    # a string, a number or true is an entry with no fields (no id: keyed undefined, the last one
    # kept); null, false, 0 and "" are left out.
    items = chain(4)
    path = write(
        tmp_path / "s.jsonl",
        items[0],
        b"this is not json",
        items[1],
        b"\x00\x01\xff\xfe binary",
        b"[1, 2, 3]",
        b'"a string"',
        b"42",
        b"null",
        b"0",
        items[2],
        b"",
        b"   ",
        items[3],
    )
    session = Session.load(path, lazy=lazy)
    assert list(session.entries) == ["m0", "m1", js_key(MISSING), "m2", "m3"]
    assert session.entries[js_key(MISSING)].line == 8  # the last entry without an id
    problems: dict[int, str] = {}
    for problem in session.problems:  # a value kept as an entry also has no id: two problems on its line
        problems[problem.line] = problems.get(problem.line, "") + problem.reason + "\n"
    assert {3, 5, 6, 7, 8, 9, 10} <= set(problems)
    assert "not valid JSON" in problems[3]
    assert "an array" in problems[6] and "a string" in problems[7] and "a number" in problems[8]
    assert "keeps it as an entry" in problems[6] and "skipped" in problems[9] and "skipped" in problems[10]
    assert all(str(p).startswith(f"{path}:{p.line}: ") for p in session.problems)


def test_truncated_last_line_is_reported_as_incomplete(tmp_path):
    items = chain(3)
    path = write(tmp_path / "s.jsonl", *items, b'{"type":"message","id":"m3","parentId":"m2","timestamp":"2026', newline_at_end=False)
    session = Session.load(path)
    assert list(session.entries) == ["m0", "m1", "m2"]
    assert session.leaf_id == "m2"
    assert "incomplete last line" in reasons(session)[5]


def test_line_cut_inside_an_object_that_still_ends_with_a_brace(tmp_path):
    # The fast path trusts lines that end with "}"; strict loading parses every line.
    items = chain(2)
    cut = b'{"type":"message","id":"x","parentId":"m1","timestamp":"2026-10-30T09:00:09.000Z","message":{"role":"user","content":{"a":1}'
    path = write(tmp_path / "s.jsonl", *items, cut, chain(1, "z")[0])
    strict = Session.load(path, lazy=False)
    assert "x" not in strict.entries
    assert 4 in reasons(strict)
    lazy = Session.load(path)
    assert "x" in lazy.entries
    found, invalid = lazy.validate()
    assert invalid == [4] and "not valid JSON" in found[0].reason


def test_last_line_without_newline_still_counts(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(3), newline_at_end=False)
    session = Session.load(path)
    assert session.leaf_id == "m2"
    assert session.problems == []


def test_invalid_utf8_is_replaced_like_pi_and_reported(tmp_path):
    good = chain(1)[0]
    raw = b'{"type":"message","id":"u","parentId":"m0","timestamp":"2026-10-30T09:00:05.000Z","message":{"role":"user","content":"caf\xe9 ok","timestamp":1}}'
    path = write(tmp_path / "s.jsonl", good, raw)
    strict = Session.load(path, lazy=False)
    assert strict.entry("u").message["content"] == "caf\ufffd ok"
    assert "invalid UTF-8" in reasons(strict)[3]
    # Loading lazily defers the check to validate(), which finds the same.
    session = Session.load(path)
    found, invalid = session.validate()
    assert invalid == [] and [p.line for p in found] == [3]
    session.add_problems(found)
    assert "invalid UTF-8" in reasons(session)[3]
    assert session.entry("u").message["content"] == "caf\ufffd ok"


def test_file_whose_first_parsed_line_is_not_a_header_is_refused(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(2), header=None)
    with pytest.raises(SessionLoadError) as error:
        Session.load(path)
    assert "not a pi session" in str(error.value) and "line 1" in str(error.value)


def test_header_not_first_is_refused(tmp_path):
    path = write(tmp_path / "s.jsonl", chain(1)[0], HEADER, header=None)
    with pytest.raises(
        SessionLoadError, match='line 1, its first JSON line, has type "message", where a session header has type "session"'
    ):
        Session.load(path)


def test_garbage_before_the_header_is_skipped(tmp_path):
    path = write(tmp_path / "s.jsonl", b"garbage", HEADER, *chain(2), header=None)
    session = Session.load(path)
    assert list(session.entries) == ["m0", "m1"]
    assert 1 in reasons(session)


def test_header_needs_a_string_id(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(1), header={**HEADER, "id": 7})
    with pytest.raises(SessionLoadError, match="not a pi session"):
        Session.load(path)


def test_empty_missing_and_folder_are_refused_clearly(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    with pytest.raises(SessionLoadError, match="empty"):
        Session.load(empty)
    with pytest.raises(SessionLoadError, match="no such file"):
        Session.load(tmp_path / "missing.jsonl")
    with pytest.raises(SessionLoadError, match="folder"):
        Session.load(tmp_path)


def test_an_unreadable_file_is_refused_clearly(tmp_path, monkeypatch):
    path = write(tmp_path / "s.jsonl", *chain(1))
    refuse_to_read(monkeypatch, path)
    with pytest.raises(SessionLoadError, match="cannot be read: permission denied"):
        Session.load(path)


def test_a_second_session_header_is_ignored_and_reported(tmp_path):
    path = write(tmp_path / "s.jsonl", chain(1)[0], {**HEADER, "id": "other"}, chain(2)[1])
    session = Session.load(path)
    assert list(session.entries) == ["m0", "m1"]
    assert "second session header" in reasons(session)[3]


def test_entries_with_unexpected_key_order_and_escapes_load_in_full(tmp_path):
    # `custom` entries put customType first; ids with escapes defeat the fast path.
    custom = {"type": "custom", "customType": "x", "data": {}, "id": "c1", "parentId": "m0", "timestamp": "2026-10-30T09:00:01.000Z"}
    escaped = message('q"1', "c1", "user", "hi", second=2)
    path = write(tmp_path / "s.jsonl", chain(1)[0], custom, escaped)
    session = Session.load(path)
    assert session.path_to('q"1') == ["m0", "c1", 'q"1']


def test_an_entry_without_an_id_is_keyed_as_pi_keys_it_apart_from_every_string(tmp_path):
    # pi's Map keys an entry without an id as undefined; a real entry whose id is "@line3" is another entry.
    path = write(
        tmp_path / "s.jsonl",
        chain(1)[0],
        {"type": "message", "parentId": "m0", "timestamp": "x", "message": {"role": "user", "content": "?"}},
        {"type": "message", "id": "@line3", "parentId": "m0", "timestamp": "y", "message": {"role": "user", "content": "!"}},
    )
    session = Session.load(path)
    assert len(session.entries) == 3 and session.entries["@line3"].line == 4
    assert js_key(MISSING) in session.entries and session.entries[js_key(MISSING)].line == 3
    assert "has no id" in reasons(session)[3] and 4 not in reasons(session)  # no duplicate


def test_progress_is_reported(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(10000))
    seen = []
    Session.load(path, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1][0] == seen[-1][1] and len(seen) >= 3


def test_the_line_layout_reads_back_what_it_writes():
    line = entry_line(entry_object("message", "ab12", None, "2026-10-30T09:00:00.000Z", message={"role": "user", "content": "hi"}))
    assert (
        line
        == b'{"type":"message","id":"ab12","parentId":null,"timestamp":"2026-10-30T09:00:00.000Z","message":{"role":"user","content":"hi"}}\n'
    )
    assert LEADING_FIELDS.match(line).groups() == (b"message", b"ab12", None, b"2026-10-30T09:00:00.000Z", b"user")
    line = entry_line(entry_object("label", "cd34", "ab12", "2026-10-30T09:00:01.000Z", targetId="ab12", label="x"))
    assert LEADING_FIELDS.match(line).groups() == (b"label", b"cd34", b"ab12", b"2026-10-30T09:00:01.000Z", None)


def test_skimmed_lines_are_read_back_from_the_file_they_came_from(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(4), b"", b"   ")
    lines = path.read_bytes().split(b"\n")
    session = Session.load(path)
    assert [entry.raw for entry in session.file_order] == lines[1:5]
    # Renamed over, or removed: the entries still read the file they were loaded from.
    other = write(tmp_path / "other.jsonl", *chain(4, prefix="x"))
    other.replace(path)
    assert [entry.raw for entry in session.file_order] == lines[1:5]
    path.unlink()
    assert session.entries["m2"].get("message")["content"] == "say 2"


def test_a_line_rewritten_in_place_is_not_read_as_another(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(3))
    session = Session.load(path)
    data = path.read_bytes()
    with open(path, "r+b") as handle:  # the same file, its lines shifted by one byte
        handle.write(b"\n" + data[:-1])
    assert all(entry.raw is None for entry in session.file_order)
    assert session.entries["m1"].data == {}


def test_the_last_line_without_its_newline_reads_back_whole(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(2))
    path.write_bytes(path.read_bytes().rstrip(b"\n"))
    session = Session.load(path)
    assert session.entries["m1"].raw == path.read_bytes().rsplit(b"\n", 1)[1]
    with open(path, "ab") as handle:
        handle.write(b"\n" + path.read_bytes().split(b"\n")[1].replace(b'"m0"', b'"m9"', 1) + b"\n")
    assert session.entries["m1"].get("message")["content"][0]["text"] == "said 1"


def _summary(raw):
    records = [(r.line, r.id, r.parent_id, r.type, r.raw) if not isinstance(r, tuple) else r for r in raw.records]
    return (
        records,
        [str(p) for p in raw.problems],
        raw.size,
        raw.consumed,
        raw.next_line,
        raw.fingerprint,
        raw.header_line,
        raw.digest.digest(),
    )


@pytest.mark.parametrize("lazy", [True, False], ids=["lazy", "strict"])
@pytest.mark.parametrize("chunk", [64, 97, 1000, 4096])
@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.jsonl")) + [DEMO], ids=lambda p: p.stem)
def test_a_load_read_a_chunk_at_a_time_equals_one_of_the_whole_file(path, chunk, lazy, monkeypatch, tmp_path):
    # Lines cut by chunk boundaries anywhere, a last line without its newline too; the strict
    # load (every line parsed) goes through the same scanner.
    copy = tmp_path / "s.jsonl"
    copy.write_bytes(path.read_bytes() + b'{"type":"message","id":"cut"')
    monkeypatch.setattr(reader, "CHUNK", 1 << 30)
    whole = reader.read_session(copy, lazy=lazy)
    monkeypatch.setattr(reader, "CHUNK", chunk)
    chunked = reader.read_session(copy, lazy=lazy)
    assert _summary(chunked) == _summary(whole)
    assert chunked.consumed < chunked.size and len(chunked.fingerprint) == reader.FINGERPRINT_SIZE
    assert chunked.digest.digest() == hashlib.sha256(copy.read_bytes()[: chunked.consumed]).digest()


def test_skimmed_entries_share_the_parent_id_they_name_with_the_entry_before(tmp_path):
    # A million siblings, or a long conversation, must not hold a copy of the parent's id each.
    siblings = [message(f"k{index}", "m1", "user", "hi", index) for index in range(3)]
    path = write(tmp_path / "s.jsonl", *chain(3), *siblings, message("x", "m0", "user", "hi", 9))
    records = {record.id: record for record in reader.read_session(path).records}
    assert records["m1"].parent_id is records["m0"].id and records["m2"].parent_id is records["m1"].id
    assert records["k1"].parent_id is records["k0"].parent_id and records["k2"].parent_id is records["k0"].parent_id
    assert records["x"].parent_id == "m0"
    session = Session.load(path)
    assert [session.parent(key) for key in ("m1", "k0", "k2", "x")] == ["m0", "m1", "m1", "m0"]


@pytest.mark.parametrize("chunk", [64, 1000, 1 << 23])
@pytest.mark.parametrize("lazy", [True, False])
def test_the_digest_kept_at_load_is_of_exactly_the_bytes_read(tmp_path, monkeypatch, chunk, lazy):
    import hashlib

    monkeypatch.setattr(reader, "CHUNK", chunk)
    path = write(tmp_path / "s.jsonl", *chain(30), b'{"type":"message","id":"half', newline_at_end=False)
    session = Session.load(path, lazy=lazy)
    data = path.read_bytes()
    assert session.consumed == data.rfind(b"\n") + 1
    assert session.digest.digest() == hashlib.sha256(data[: session.consumed]).digest()


@pytest.mark.parametrize("lazy", [True, False])
def test_a_message_entry_without_a_message_is_a_problem_on_its_line(tmp_path, lazy):
    # pi reads entry.message.role on every path it builds a context of: a null or missing message
    # stops it with a TypeError (tests/test_against_pi.py asks pi itself).
    items = chain(2)
    path = write(
        tmp_path / "s.jsonl",
        *items,
        {"type": "message", "id": "x", "parentId": "m1", "timestamp": "2026-10-30T09:00:05.000Z", "message": None},
        {"type": "message", "id": "y", "parentId": "x", "timestamp": "2026-10-30T09:00:06.000Z"},
        {"type": "message", "id": "z", "parentId": "y", "timestamp": "2026-10-30T09:00:07.000Z", "message": "text"},
    )
    problems = reasons(Session.load(path, lazy=lazy))
    assert "TypeError" in problems[4] and "TypeError" in problems[5] and 6 not in problems  # a string's .role is undefined
