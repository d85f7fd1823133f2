"""The command line's path index: the same paths and contexts as a full Session, or no answer."""

import orjson
import pytest

from pibrowser.model import Session, resolve
from pibrowser.model.session.path_index import PathIndex

from .conftest import FIXTURES, fixture_names
from .hostile import LOADABLE, make
from .sessions import HEADER, chain, entry, message, write

CLEAN_FIXTURES = [name for name in fixture_names() if name != "legacy-v1"]


@pytest.mark.parametrize("name", CLEAN_FIXTURES)
def test_every_entry_resolves_as_in_the_session(name):
    path = FIXTURES / f"{name}.jsonl"
    session = Session.load(path, lazy=False)
    with PathIndex.scan(path) as index:
        assert len(index) == len(session) and index.leaf_id == session.leaf_id
        for key in session.entries:
            path_entries = list(index.path_entries(key))
            expected = session.path_entries(key)
            assert [(e.id, e.parent_id, e.type, e.timestamp, e.role, e.line) for e in path_entries] == [
                (e.id, e.parent_id, e.type, e.timestamp, e.role, e.line) for e in expected
            ]
            assert [e.data for e in path_entries] == [e.data for e in expected]
            assert resolve(index, key).to_pi() == resolve(session, key).to_pi()


@pytest.mark.parametrize("name", CLEAN_FIXTURES)
def test_default_leaf_equals_pi(name):
    with PathIndex.scan(FIXTURES / f"{name}.jsonl") as index:
        expected = orjson.loads((FIXTURES / f"{name}.pi-all.ndjson").read_bytes().splitlines()[-1])
        context = resolve(index, index.leaf_id)
        assert {"leaf": index.leaf_id, **context.to_pi()} == expected


def test_old_format_files_are_left_to_the_session():
    assert PathIndex.scan(FIXTURES / "legacy-v1.jsonl") is None


UNUSUAL_SHAPES = {"deep_arguments", "role_array", "role_object", "type_array", "type_object"}


@pytest.mark.parametrize("name", sorted(LOADABLE - {"invalid_utf8"}))
def test_a_file_the_session_reports_on_is_left_to_it_and_any_other_is_indexed(tmp_path, name):
    path = make(tmp_path, name)
    session = Session.load(path, lazy=False)
    index = PathIndex.scan(path)
    if session.problems:
        assert index is None
        return
    if index is None:
        # A file without problems goes to the full load (slower, never different) only when it is not in
        # pi's usual shape: JSON that msgspec refuses and JSON.parse takes (lone surrogate escapes), a role
        # or an entry type that is not a string, nesting past the decoder's depth.
        assert name in UNUSUAL_SHAPES or b"\\ud8" in path.read_bytes() or b"\\udc" in path.read_bytes(), name
        return
    with index:
        for key in session.entries:
            assert resolve(index, key).to_pi() == resolve(session, key).to_pi()


def test_invalid_utf8_is_repaired_as_pi_does(tmp_path):
    path = make(tmp_path, "invalid_utf8")
    session = Session.load(path, lazy=False)
    with PathIndex.scan(path) as index:
        assert resolve(index, "u8").to_pi() == resolve(session, "u8").to_pi()
        assert "\ufffd" in resolve(index, "u8").messages[-1]["content"]


def test_blank_lines_and_a_last_line_without_newline_keep_line_numbers(tmp_path):
    items = chain(4)
    path = write(tmp_path / "s.jsonl", items[0], "", "   ", items[1], items[2], "\t", items[3], newline_at_end=False)
    session = Session.load(path, lazy=False)
    with PathIndex.scan(path) as index:
        assert [e.line for e in index.path_entries("m3")] == [e.line for e in session.path_entries("m3")] == [2, 5, 6, 8]
        assert [e.data for e in index.path_entries("m3")] == [e.data for e in session.path_entries("m3")]


def test_a_line_longer_than_the_read_buffer(tmp_path, monkeypatch):
    monkeypatch.setattr("pibrowser.model.session.path_index._CHUNK", 64)
    items = chain(5)
    path = write(tmp_path / "s.jsonl", *items)
    with PathIndex.scan(path) as index:
        assert [e.data for e in index.path_entries("m4")] == items


@pytest.mark.parametrize(
    "line",
    [
        entry("message", "m0", None),  # a duplicate id
        entry("message", "x", "later"),  # a parent that comes after
        entry("label", "x", "m0", targetId="nowhere"),
        entry("session", "x", None),
        {"type": "message", "id": "x", "timestamp": "2026-10-30T09:00:00.000Z"},  # no parentId at all
        {"type": "message", "id": "x", "parentId": "m0", "timestamp": 5},
    ],
)
def test_unusual_lines_are_left_to_the_session(tmp_path, line):
    items = chain(2)
    path = write(tmp_path / "s.jsonl", *items, line, entry("message", "later", "m1"))
    assert PathIndex.scan(path) is None


def test_header_after_blank_lines(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"\n\n" + orjson.dumps(HEADER) + b"\n" + b"\n".join(orjson.dumps(item) for item in chain(2)) + b"\n")
    with PathIndex.scan(path) as index:
        assert [e.line for e in index.path_entries("m1")] == [4, 5]


def assert_index_is_the_session(path, index):
    session = Session.load(path, lazy=False)
    assert not session.problems and len(index) == len(session) and index.leaf_id == session.leaf_id
    for key in session.entries:
        assert key in index
        assert [(e.id, e.parent_id, e.type, e.role, e.line) for e in index.path_entries(key)] == [
            (e.id, e.parent_id, e.type, e.role, e.line) for e in session.path_entries(key)
        ]
        assert resolve(index, key).to_pi() == resolve(session, key).to_pi()
    assert "nowhere" not in index


@pytest.mark.parametrize("name", CLEAN_FIXTURES)
def test_small_batches_give_the_paths_of_one(name, monkeypatch):
    # Each batch finds its parents in itself, among the entries placed before it, or after
    # placing the rest: a read of a few hundred bytes makes every fixture many batches.
    monkeypatch.setattr("pibrowser.model.session.path_index._CHUNK", 300)
    path = FIXTURES / f"{name}.jsonl"
    with PathIndex.scan(path) as index:
        assert_index_is_the_session(path, index)


def wide(children: int) -> list[dict]:
    """A root with many replies, then a reply to an early reply (its parent lies batches back)."""
    return [
        message("root", None, "user", "the root"),
        *(message(f"c{n}", "root", "user", f"reply {n}", second=n % 60) for n in range(children)),
        message("deep", "c3", "assistant", [{"type": "text", "text": "under an early reply"}], provider="p", model="m"),
        message("last", "root", "user", "one more reply"),
    ]


def test_replies_to_one_entry_over_many_batches(tmp_path, monkeypatch):
    monkeypatch.setattr("pibrowser.model.session.path_index._CHUNK", 2000)
    path = write(tmp_path / "s.jsonl", *wide(400))
    with PathIndex.scan(path) as index:
        assert_index_is_the_session(path, index)
        assert [e.id for e in index.path_entries("deep")] == ["root", "c3", "deep"]


@pytest.mark.parametrize("twice", ["c5", "c390", "root"])
def test_an_id_twice_among_replies_is_left_to_the_session(tmp_path, monkeypatch, twice):
    monkeypatch.setattr("pibrowser.model.session.path_index._CHUNK", 2000)
    path = write(tmp_path / "s.jsonl", *wide(400), message(twice, "root", "user", "again"))
    assert Session.load(path, lazy=False).problems
    assert PathIndex.scan(path) is None


def test_types_and_roles_of_their_own(tmp_path, monkeypatch):
    monkeypatch.setattr("pibrowser.model.session.path_index._CHUNK", 500)
    items = [
        *chain(6),
        entry("my_tool_state", "t1", "m5", 7, state={"x": 1}),
        message("r1", "t1", "reviewer", "a role pi does not write", second=8),
        *chain(6, prefix="k"),
    ]
    items[len(chain(6)) + 2]["parentId"] = "r1"
    path = write(tmp_path / "s.jsonl", *items)
    with PathIndex.scan(path) as index:
        assert_index_is_the_session(path, index)


@pytest.mark.parametrize("message_field", [{"message": None}, {}, {"message": {"content": "no role"}}])
def test_a_message_without_a_message_or_a_role_is_left_to_the_full_load(tmp_path, message_field):
    # A null or missing message stops pi with a TypeError on every path through it: the full load
    # says so on its line. (Without a role, pi reads undefined: the full load answers that too.)
    items = [*chain(3), entry("message", "n1", "m2", 9, **message_field), *chain(3, prefix="k")]
    items[4]["parentId"] = "n1"
    path = write(tmp_path / "s.jsonl", *items)
    assert PathIndex.scan(path) is None


def test_entries_made_without_their_lines_read_them_again(tmp_path):
    # Blank lines before, between and after entries: the index finds each line by its number.
    path = tmp_path / "s.jsonl"
    items = chain(6)
    write(path, b"", *items[:2], b"", b"", *items[2:5], b"", items[5], b"")
    with PathIndex.scan(path) as index:
        leaf = index.leaf_id
        kept, lean = index.path_entries(leaf), index.path_entries(leaf, lines_kept=False)
        assert [entry.line for entry in lean] == [entry.line for entry in kept] == [3, 4, 7, 8, 9, 11]
        assert [entry.raw for entry in lean] == [entry.raw for entry in kept] == [orjson.dumps(item) for item in items]
        assert [entry.peek() for entry in lean] == [entry.peek() for entry in kept]
        assert index.read(5) is None and index.read(1) is None and index.read(99) is None  # blank, the header, beyond the end


def lines_of(index, leaf):
    return [bytes(line) for lines in index.path_entries(leaf, lines_kept=False).lines() for line in lines]


@pytest.mark.parametrize("stretch", [1, 200, 4 << 20])
def test_a_paths_lines_read_a_stretch_at_a_time_are_its_entries_lines(tmp_path, monkeypatch, stretch):
    monkeypatch.setattr("pibrowser.model.session.path_index._STRETCH", stretch)
    items = chain(6)
    branch = message("b", "m2", "user", "a branch", second=9)
    # Blank lines between entries, a branch between the path's entries, a line longer than a stretch, no newline at the end.
    items[3]["message"]["content"] = "x" * 500
    path = write(
        tmp_path / "s.jsonl", items[0], "", items[1], "   ", items[2], branch, items[3], items[4], "\t", items[5], newline_at_end=False
    )
    session = Session.load(path, lazy=False)
    with PathIndex.scan(path) as index:
        for leaf in ("m5", "b", "m0"):
            expected = session.path_entries(leaf)
            found = index.path_entries(leaf, lines_kept=False)
            assert lines_of(index, leaf) == [orjson.dumps(entry.data) for entry in expected]
            assert found.ids() == [entry.id for entry in expected]
            assert found.types_and_roles() == [(entry.type, entry.role) for entry in expected]


@pytest.mark.parametrize("name", CLEAN_FIXTURES)
def test_every_paths_lines_are_read_as_each_entry_reads_its_own(name):
    with PathIndex.scan(FIXTURES / f"{name}.jsonl") as index:
        for key in Session.load(FIXTURES / f"{name}.jsonl").entries:
            assert lines_of(index, key) == [entry.raw for entry in index.path_entries(key, lines_kept=False)]


def made(entries):
    return [(e.id, e.parent_id, e.type, e.timestamp, e.role, e.line, e.raw) for e in entries]


@pytest.mark.parametrize("stretch", [1, 200, 4 << 20])
@pytest.mark.parametrize("lines_kept", [True, False])
def test_a_paths_entries_made_a_stretch_at_a_time_are_those_made_one_by_one(tmp_path, monkeypatch, stretch, lines_kept):
    # A context of a whole path made its entries one read of the file each.
    monkeypatch.setattr("pibrowser.model.session.path_index._STRETCH", stretch)
    items = chain(8)
    branch = message("b", "m2", "user", "a branch", second=9)
    items[3]["message"]["content"] = "x" * 500
    path = write(tmp_path / "s.jsonl", items[0], "", items[1], "   ", items[2], branch, *items[3:6], "\t", *items[6:], newline_at_end=False)
    with PathIndex.scan(path) as index:
        for leaf in ("m7", "b", "m0"):
            alone = index.path_entries(leaf, lines_kept)
            one_by_one = [alone[at] for at in range(len(alone))]
            together = index.path_entries(leaf, lines_kept)
            middle = together[1:3]  # some made first: the rest made around them, each once
            assert made(list(together)) == made(one_by_one) == made(index.path_entries(leaf, lines_kept)[0 : len(alone)])
            assert list(together)[1:3] == middle and all(a is b for a, b in zip(list(together), together[:]))
            assert made(together[::2]) == made(one_by_one[::2])


def test_parsed_lines_of_a_path_are_what_each_entry_parses(tmp_path):
    # The lines a context reads, parsed all at once (invalid UTF-8 repaired as each entry repairs it).
    from pibrowser.model.session.entry import parse_lines_of

    items = chain(6)
    lines = [orjson.dumps(item) for item in items]
    lines[3] = lines[3].replace(b"said 3", b"said \xff3")
    path = write(tmp_path / "s.jsonl", *lines)
    with PathIndex.scan(path) as index:
        expected = [entry.data for entry in index.path_entries("m5")]
        entries = list(index.path_entries("m5"))
        parse_lines_of(entries)
        assert all(entry.is_parsed for entry in entries) and [entry.data for entry in entries] == expected
        assert expected[3]["message"]["content"][0]["text"] == "said \ufffd3"
