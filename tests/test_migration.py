"""Version 1 and 2 files are migrated in memory; the file itself is never rewritten."""

import re

from pibrowser.model import Session, resolve

from .conftest import FIXTURES
from .sessions import write

V1_HEADER = {"type": "session", "id": "old", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/w"}


def msg(role, content, second, **extra):
    return {
        "type": "message",
        "timestamp": f"2025-01-01T00:00:{second:02d}.000Z",
        "message": {"role": role, "content": content, "timestamp": second, **extra},
    }


def test_v1_gets_fresh_ids_a_chain_and_first_kept_from_index(tmp_path):
    path = write(
        tmp_path / "v1.jsonl",
        msg("user", "one", 1),
        msg("assistant", [{"type": "text", "text": "two"}], 2, provider="p", model="m"),
        msg("user", "three", 3),
        # index 3 counts the header as 0: the second user message, "three".
        {"type": "compaction", "timestamp": "2025-01-01T00:00:04.000Z", "summary": "S", "firstKeptEntryIndex": 3, "tokensBefore": 10},
        msg("user", "four", 5),
        header=V1_HEADER,
    )
    before = path.read_bytes()
    session = Session.load(path)
    keys = list(session.entries)
    assert all(re.fullmatch(r"[0-9a-f]{8}", key) for key in keys) and len(set(keys)) == 5
    assert session.path_to(keys[-1]) == keys
    compaction = session.entry(keys[3])
    assert compaction.get("firstKeptEntryId") == keys[2]
    assert "firstKeptEntryIndex" not in compaction.data
    context = resolve(session, session.leaf_id)
    assert [m.get("content", m.get("summary")) for m in context.messages] == ["S", "three", "four"]
    assert context.model == {"provider": "p", "modelId": "m"}
    assert path.read_bytes() == before


def test_v1_first_kept_index_pointing_at_the_header_or_out_of_range_is_dropped(tmp_path):
    path = write(
        tmp_path / "v1.jsonl",
        msg("user", "one", 1),
        {"type": "compaction", "timestamp": "2025-01-01T00:00:02.000Z", "summary": "S", "firstKeptEntryIndex": 0, "tokensBefore": 1},
        {"type": "compaction", "timestamp": "2025-01-01T00:00:03.000Z", "summary": "T", "firstKeptEntryIndex": 99, "tokensBefore": 1},
        header=V1_HEADER,
    )
    session = Session.load(path)
    for key in list(session.entries)[1:]:
        assert "firstKeptEntryId" not in session.entry(key).data
        assert "firstKeptEntryIndex" not in session.entry(key).data


def test_v2_hook_messages_become_custom(tmp_path):
    path = write(
        tmp_path / "v2.jsonl",
        {
            "type": "message",
            "id": "a",
            "parentId": None,
            "timestamp": "2025-01-01T00:00:01.000Z",
            "message": {"role": "hookMessage", "customType": "h", "content": "x", "display": True, "timestamp": 1},
        },
        header={**V1_HEADER, "version": 2},
    )
    session = Session.load(path)
    assert session.entry("a").role == "custom"
    assert resolve(session, "a").messages[0]["role"] == "custom"
    assert b"hookMessage" in path.read_bytes()


def test_version_3_hook_messages_are_left_alone(tmp_path):
    path = write(
        tmp_path / "v3.jsonl",
        {
            "type": "message",
            "id": "a",
            "parentId": None,
            "timestamp": "2025-01-01T00:00:01.000Z",
            "message": {"role": "hookMessage", "content": "x"},
        },
        header={**V1_HEADER, "version": 3},
    )
    assert Session.load(path).entry("a").role == "hookMessage"


def test_legacy_fixture_is_not_rewritten():
    path = FIXTURES / "legacy-v1.jsonl"
    before = path.read_bytes()
    session = Session.load(path)
    assert len(session) == 1018  # every line but the header
    assert path.read_bytes() == before
