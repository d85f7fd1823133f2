"""pi's context rules, one at a time, on small hand-built sessions (answers checked against pi)."""

import pytest

from pibrowser.model import Part, Edit, Session, empty_context, path_provenance, resolve

from .sessions import entry, message, write

T0 = 1793350800000


def load(tmp_path, *items):
    return Session.load(write(tmp_path / "s.jsonl", *items))


def roles(context):
    return [m["role"] for m in context.messages]


def test_compaction_keeps_from_first_kept_drops_system_and_summarizes_the_rest(tmp_path):
    session = load(
        tmp_path,
        message("sys", None, "system", "be brief", second=0),
        message("u1", "sys", "user", "one", second=1),
        message("a1", "u1", "assistant", [{"type": "text", "text": "r1"}], second=2, provider="p", model="m"),
        message("sys2", "a1", "system", "new prompt", second=3),
        message("u2", "sys2", "user", "two", second=4),
        entry(
            "compaction",
            "c",
            "u2",
            5,
            summary="S",
            firstKeptEntryId="a1",
            tokensBefore=99,
            systemMessage={"role": "system", "content": "new prompt", "timestamp": 5},
        ),
        message("sys3", "c", "system", "after", second=6),
        message("u3", "sys3", "user", "three", second=7),
    )
    context = resolve(session, "u3")
    assert [m.get("content", m.get("summary")) for m in context.messages] == [
        "new prompt",
        "S",
        [{"type": "text", "text": "r1"}],
        "two",
        "after",
        "three",
    ]
    assert context.messages[1] == {"role": "compactionSummary", "summary": "S", "tokensBefore": 99, "timestamp": T0 + 5000}
    parts = {key: p.part for key, p in path_provenance(context).items()}
    assert parts == {
        "sys": Part.SUMMARIZED,
        "u1": Part.SUMMARIZED,
        "a1": Part.KEPT,
        "sys2": Part.SYSTEM_FOLDED,
        "u2": Part.KEPT,
        "c": Part.CHECKPOINT,
        "sys3": Part.AFTER_COMPACTION,
        "u3": Part.AFTER_COMPACTION,
    }
    assert [e.id for e in context.message_sources()] == ["c", "c", "a1", "u2", "sys3", "u3"]


@pytest.mark.parametrize("first_kept", ["nowhere", "u2"])
def test_first_kept_that_names_nothing_before_the_compaction_keeps_nothing(tmp_path, first_kept):
    # pi looks for the first kept entry only before its compaction on the path.
    session = load(
        tmp_path,
        message("u1", None, "user", "one", second=1),
        entry("compaction", "c", "u1", 2, summary="S", firstKeptEntryId=first_kept, tokensBefore=1),
        message("u2", "c", "user", "two", second=3),
    )
    context = resolve(session, "u2")
    assert roles(context) == ["compactionSummary", "user"]
    parts = {key: p.part for key, p in path_provenance(context).items()}
    assert parts == {"u1": Part.SUMMARIZED, "c": Part.CHECKPOINT, "u2": Part.AFTER_COMPACTION}


def test_only_the_last_compaction_counts_and_an_older_one_in_range_gives_nothing(tmp_path):
    session = load(
        tmp_path,
        message("u1", None, "user", "one", second=1),
        entry("compaction", "c1", "u1", 2, summary="old", firstKeptEntryId="u1", tokensBefore=1),
        message("u2", "c1", "user", "two", second=3),
        entry("compaction", "c2", "u2", 4, summary="new", firstKeptEntryId="u1", tokensBefore=2),
    )
    context = resolve(session, "c2")
    assert [m.get("summary", m.get("content")) for m in context.messages] == ["new", "one", "two"]
    assert path_provenance(context)["c1"].part is Part.SUPERSEDED


def test_edits_latest_wins_null_drops_strings_become_text_blocks_and_edits_outside_do_not_count(tmp_path):
    session = load(
        tmp_path,
        message("u1", None, "user", "original", second=1),
        message("a1", "u1", "assistant", [{"type": "text", "text": "answer"}], second=2),
        entry("custom_message", "cm", "a1", 3, customType="note", content="note text", display=True),
        entry("context_edit", "e1", "cm", 4, targetId="u1", replacement={"content": "first edit"}),
        entry("context_edit", "e2", "e1", 5, targetId="u1", replacement={"content": "second edit"}),
        entry("context_edit", "e3", "e2", 6, targetId="a1", replacement={"content": "replaced answer"}),
        entry("context_edit", "e4", "e3", 7, targetId="cm", replacement=None),
    )
    context = resolve(session, "e4")
    assert context.messages[0]["content"] == "second edit"
    assert context.messages[1]["content"] == [{"type": "text", "text": "replaced answer"}]
    assert len(context.messages) == 2
    prov = path_provenance(context)
    assert (prov["u1"].edit, prov["u1"].edit_id) == (Edit.REPLACED, "e2")
    assert (prov["cm"].edit, prov["cm"].edit_id) == (Edit.DROPPED, "e4")
    assert prov["e1"].part is Part.NOT_CONTEXT
    # Before e4 the custom message is still there, unedited.
    assert roles(resolve(session, "e3")) == ["user", "assistant", "custom"]


def test_edit_summarized_away_by_a_compaction_no_longer_applies(tmp_path):
    session = load(
        tmp_path,
        message("u1", None, "user", "original", second=1),
        entry("context_edit", "e1", "u1", 2, targetId="u1", replacement=None),
        entry("compaction", "c", "e1", 3, summary="S", firstKeptEntryId="u1", tokensBefore=1),
    )
    # u1 is kept but e1 lies before the compaction and is kept too, so it still applies...
    assert roles(resolve(session, "c")) == ["compactionSummary"]
    session = load(
        tmp_path,
        message("u1", None, "user", "original", second=1),
        entry("context_edit", "e1", "u1", 2, targetId="u1", replacement=None),
        message("u2", "e1", "user", "later", second=3),
        entry("compaction", "c", "u2", 4, summary="S", firstKeptEntryId="u2", tokensBefore=1),
    )
    # ...while here e1 is summarized: it does not count.
    assert roles(resolve(session, "c")) == ["compactionSummary", "user"]


def test_missing_content_and_fields_follow_pi(tmp_path):
    session = load(
        tmp_path,
        entry("message", "s", None, 1, message={"role": "system", "timestamp": 1}),
        entry("message", "u", "s", 2, message={"role": "user", "content": None, "timestamp": 2}),
        entry("custom_message", "cm", "u", 3, customType="x"),
        entry("branch_summary", "bs0", "cm", 4, fromId="u", summary=""),
        {**entry("branch_summary", "bs", "bs0", 5, fromId="u", summary="went elsewhere"), "timestamp": "not a date"},
    )
    assert resolve(session, "bs").messages == [
        {"role": "system", "timestamp": 1, "content": ""},
        {"role": "user", "content": [], "timestamp": 2},
        {"role": "custom", "customType": "x", "content": [], "timestamp": T0 + 3000},
        {"role": "branchSummary", "summary": "went elsewhere", "fromId": "u", "timestamp": None},
    ]


def test_settings_take_the_last_setter_on_the_path(tmp_path):
    session = load(
        tmp_path,
        entry("thinking_level_change", "t1", None, 1, thinkingLevel="high"),
        entry("model_change", "m1", "t1", 2, provider="anthropic", modelId="claude"),
        message("a", "m1", "assistant", [], second=3, model="only-model"),
        entry("thinking_level_change", "t2", "a", 4),
    )
    assert resolve(session, "m1").to_pi() == {
        "messages": [],
        "thinkingLevel": "high",
        "model": {"provider": "anthropic", "modelId": "claude"},
    }
    # An assistant without provider gives a model without it; a level change without a level leaves it undefined.
    assert resolve(session, "t2").to_pi() == {"messages": [resolve(session, "a").messages[0]], "model": {"modelId": "only-model"}}


def test_null_leaf_is_empty(tmp_path):
    assert empty_context().to_pi() == {"messages": [], "thinkingLevel": "off", "model": None}
