"""Comparing two contexts as the model sees them: shared prefix, alignment, word diffs, causes."""

from hypothesis import given
from hypothesis import strategies as st

from pibrowser.model import Session, resolve
from pibrowser.model.compare.alignment import RowKind, align
from pibrowser.model.compare.comparison import CauseKind, RowRun, compare
from pibrowser.model.compare.model_visible import quiet_difference, same_for_model
from pibrowser.model.compare.sequence_match import opcodes
from pibrowser.model.compare.side_totals import SideTotals
from pibrowser.model.tokens.stats import context_stats
from pibrowser.model.compare.word_diff import ADDED, ELIDED, KEPT, REMOVED, condensed, word_diff

from .conftest import DEMO, FIXTURES
from .sessions import message, write


def side_text(segments, side: str) -> str:
    """The left (side REMOVED) or right (side ADDED) text back from the segments."""
    return "".join(text for op, text in segments if op in (KEPT, side))


def load(name: str) -> Session:
    return Session.load(FIXTURES / f"{name}.jsonl")


def test_same_for_the_model_ignores_only_what_the_model_never_receives():
    user = {"role": "user", "content": "hi", "timestamp": 1}
    assert same_for_model(user, {**user, "timestamp": 2})
    assert not same_for_model(user, {**user, "content": "hi!"})
    answer = {
        "role": "assistant",
        "content": [{"type": "text", "text": "yes"}],
        "provider": "a",
        "model": "m1",
        "api": "x",
        "responseId": "r1",
        "usage": {"input": 1},
        "timestamp": 1,
    }
    other = {**answer, "provider": "b", "model": "m2", "api": "y", "responseId": "r2", "usage": {"input": 9}, "timestamp": 5}
    assert same_for_model(answer, other)
    assert quiet_difference(answer, other) == "same text, other time / other model / other usage / other response id"
    # Fields ignored for one role count for another.
    assert not same_for_model({"role": "user", "content": "x", "model": "a"}, {"role": "user", "content": "x", "model": "b"})
    result = {"role": "toolResult", "toolCallId": "c", "content": [], "details": {"diff": "a"}}
    assert same_for_model(result, {**result, "details": {"diff": "b"}})
    assert not same_for_model(result, {**result, "isError": True})
    # Field order is no difference.
    assert same_for_model({"role": "user", "content": "x"}, {"content": "x", "role": "user"})
    assert quiet_difference(user, dict(user)) is None


def test_a_fork_with_a_common_ancestor():
    session = Session.load(DEMO)
    comparison = compare(session, "d33d3e04", "6eebe41c")
    assert comparison.common_ancestor == "35c37f85"
    assert comparison.shared_prefix == 13
    assert [row.kind for row in comparison.rows[:13]] == [RowKind.SAME] * 13
    after = comparison.rows_after_fork
    # Every message after the fork appears exactly once, in order, on its side.
    assert [row.left for row in after if row.left is not None] == list(range(13, len(comparison.left.messages)))
    assert [row.right for row in after if row.right is not None] == list(range(13, len(comparison.right.messages)))
    # The two test runs pair up and differ only in their timings.
    run = next(row for row in after if row.kind is RowKind.CHANGED and comparison.source("left", row.left).id == "7c5306dc")
    assert comparison.source("right", run.right).id == "1af58e7e"
    changed = [text for op, text in comparison.word_diff(run) if op != KEPT]
    assert "241ms" in changed and "236ms" in changed
    assert not comparison.identical and comparison.differences == len(after)


def test_one_node_an_ancestor_of_the_other():
    session = load("generated-s3")
    comparison = compare(session, "4b29d61e", "7c4e26cc")
    assert comparison.common_ancestor == "4b29d61e"
    assert comparison.shared_prefix == len(comparison.left.messages) > 0
    assert comparison.left_only == []
    assert comparison.right_only == comparison.right.messages[comparison.shared_prefix :]
    assert {row.kind for row in comparison.rows_after_fork} == {RowKind.RIGHT}


def two_roots(tmp_path):
    """Two separate trees whose first prompt is the same words, sent a minute apart."""
    return write(
        tmp_path / "roots.jsonl",
        message("r1", None, "user", "Fix the parser", second=0),
        message(
            "a1", "r1", "assistant", [{"type": "text", "text": "Done: the parser now reads tabs."}], second=1, provider="p", model="m1"
        ),
        message("r2", None, "user", "Fix the parser", second=60),
        message(
            "a2", "r2", "assistant", [{"type": "text", "text": "Done: the parser now reads spaces."}], second=61, provider="q", model="m2"
        ),
    )


def test_two_roots_that_open_with_the_same_words(tmp_path):
    session = Session.load(two_roots(tmp_path))
    comparison = compare(session, "a1", "a2")
    assert comparison.common_ancestor is None
    assert comparison.shared_prefix == 1
    first = comparison.rows[0]
    assert first.kind is RowKind.QUIET and first.note == "same text, other time"
    answer = comparison.rows[1]
    assert answer.kind is RowKind.CHANGED and comparison.cause(answer) is None
    assert comparison.word_diff(answer) == [(KEPT, "Done: the parser now reads "), (REMOVED, "tabs"), (ADDED, "spaces"), (KEPT, ".")]


def test_the_same_answer_from_another_model_is_quiet(tmp_path):
    path = write(
        tmp_path / "models.jsonl",
        message("u", None, "user", "Hello"),
        message("a1", "u", "assistant", [{"type": "text", "text": "Hi"}], second=1, provider="p", model="m1"),
        message("a2", "u", "assistant", [{"type": "text", "text": "Hi"}], second=2, provider="q", model="m2"),
        message("b2", "a2", "user", "More", second=3),
    )
    comparison = compare(Session.load(path), "a1", "b2")
    assert comparison.common_ancestor == "u"
    assert comparison.shared_prefix == 2
    assert comparison.rows[1].note == "same text, other time / other model"
    assert [row.kind for row in comparison.rows_after_fork] == [RowKind.RIGHT]


def test_a_compaction_on_one_side_only():
    comparison = compare(load("generated-s3"), "fc7d839c", "04438454")
    assert comparison.common_ancestor == "dc585f13"
    causes = {row: comparison.cause(row) for row in comparison.rows if row.differs}
    summarized = [row for row, cause in causes.items() if row.kind is RowKind.LEFT]
    assert [comparison.source("left", row.left).id for row in summarized] == ["2ba513e5", "dc585f13"]
    for row in summarized:
        cause = causes[row]
        assert (cause.kind, cause.entry_id, cause.side) == (CauseKind.COMPACTION, "04438454", "right")
    checkpoint = [row for row, cause in causes.items() if cause is not None and row.kind is RowKind.RIGHT]
    assert {comparison.source("right", row.right).id for row in checkpoint} == {"04438454"}
    assert causes[checkpoint[0]].text == "checkpoint of compaction 04438454 on the right"


def test_runs_of_one_sided_rows_with_one_cause_are_grouped():
    comparison = compare(Session.load(DEMO), "8f6c16a9", "5c753be3")
    blocks = comparison.blocks()
    run = blocks[0]
    assert isinstance(run, RowRun) and run.side == "left" and len(run.rows) == 37
    assert run.cause.text == "summarized by compaction 99ac0ed6 on the right"
    assert all(not isinstance(block, RowRun) for block in blocks[1:])
    flat = [row for block in blocks for row in (block.rows if isinstance(block, RowRun) else [block])]
    assert flat == comparison.rows_after_fork


def test_an_edit_on_one_side_only_drops_a_message():
    comparison = compare(load("generated-s3"), "fc7d839c", "7281b673")
    dropped = [row for row in comparison.rows if row.kind is RowKind.LEFT and comparison.source("left", row.left).id == "dc585f13"]
    assert len(dropped) == 1
    cause = comparison.cause(dropped[0])
    assert (cause.kind, cause.entry_id, cause.side, cause.text) == (
        CauseKind.EDIT,
        "2df6da9c",
        "right",
        "dropped by edit 2df6da9c on the right",
    )


def test_an_edit_on_one_side_only_replaces_content():
    session = load("generated-s3")
    comparison = compare(session, "22f1a692", "7c4e26cc")
    row = comparison.rows[4]
    assert row.kind is RowKind.CHANGED
    assert comparison.source("left", 4).id == comparison.source("right", 4).id
    cause = comparison.cause(row)
    assert (cause.kind, cause.entry_id, cause.side) == (CauseKind.EDIT, "cfa9710f", "left")
    segments = comparison.word_diff(row)
    assert segments and {op for op, _ in segments} - {KEPT}


def test_totals_per_side():
    session = Session.load(DEMO)
    comparison = compare(session, "8f6c16a9", "5c753be3")
    left = SideTotals.of(comparison.left)
    stats = context_stats(comparison.left)
    assert (left.messages, left.tokens, left.cost) == (42, stats.estimated_tokens, stats.usage.cost)
    assert left.model == {"provider": "openai", "modelId": "gpt-5.1-codex"} and left.thinking_level == "high"
    right = SideTotals.of(comparison.right)
    assert right.messages == 21 and right.thinking_level == "low"
    assert left.minus(right)[0] == 21


def test_the_issue_example_shares_its_first_message():
    # The two branches open with the same system prompt, recorded at different times.
    comparison = compare(Session.load(DEMO), "8f6c16a9", "5c753be3")
    assert comparison.shared_prefix == 1
    assert comparison.rows[0].note == "same text, other time"


def test_identical_contexts():
    session = Session.load(DEMO)
    comparison = compare(session, "5c753be3", "5c753be3")
    assert comparison.identical and comparison.differences == 0
    assert comparison.shared_prefix == len(resolve(session, "5c753be3").messages)


# ---- the pieces ---------------------------------------------------------------


def test_word_diff_keeps_both_texts():
    left, right = "the quick brown fox\njumps over\nthe dog", "the quick red fox\njumps over\nthe lazy dog"
    segments = word_diff(left, right)
    assert side_text(segments, REMOVED) == left and side_text(segments, ADDED) == right  # nothing lost either side
    assert (REMOVED, "brown") in segments and (ADDED, "red") in segments and (ADDED, "lazy ") in segments


def test_condensed_keeps_two_lines_around_each_change():
    left = "\n".join(f"line {n}" for n in range(20))
    segments = condensed(word_diff(left, left.replace("line 10", "line ten")))
    assert segments == [
        (ELIDED, "⋯ 8 unchanged lines ⋯"),
        (KEPT, "\nline 8\nline 9\nline "),
        (REMOVED, "10"),
        (ADDED, "ten"),
        (KEPT, "\nline 11\nline 12\n"),
        (ELIDED, "⋯ 7 unchanged lines ⋯"),
    ]
    # Short stretches stay whole.
    assert condensed(word_diff("a\nb\nc", "a\nB\nc")) == word_diff("a\nb\nc", "a\nB\nc")


def test_word_diff_of_unrelated_texts_replaces_them_whole():
    assert word_diff("alpha beta gamma", "one two three") == [(REMOVED, "alpha beta gamma"), (ADDED, "one two three")]


items = st.lists(st.integers(min_value=0, max_value=6), max_size=40)


@given(items, items)
def test_opcodes_cover_both_sequences_and_match_only_equal_items(a, b):
    i = j = 0
    for op, i1, i2, j1, j2 in opcodes(a, b):
        assert (i1, j1) == (i, j)
        if op == "equal":
            assert a[i1:i2] == b[j1:j2]
        i, j = i2, j2
    assert (i, j) == (len(a), len(b))


def test_opcodes_pair_what_both_sides_send_across_a_difference():
    a = ["s", "x1", "x2", "shared summary", "y"]
    b = ["s", "z", "shared summary", "y", "w"]
    equal = [(i1, i2, j1, j2) for op, i1, i2, j1, j2 in opcodes(a, b) if op == "equal"]
    assert equal == [(0, 1, 0, 1), (3, 5, 2, 4)]


texts = st.sampled_from(["ok", "fix it", "done", "retry"])
roles = st.sampled_from(["user", "assistant", "toolResult"])
messages = st.lists(
    st.builds(lambda role, text, time: {"role": role, "content": text, "timestamp": time}, roles, texts, st.integers(0, 3)), max_size=25
)


@given(messages, messages, st.integers(0, 3))
def test_alignment_shows_every_message_once_in_order(left, right, start):
    start = min(start, len(left), len(right))
    rows = align(left, right, start)
    assert [row.left for row in rows if row.left is not None] == list(range(start, len(left)))
    assert [row.right for row in rows if row.right is not None] == list(range(start, len(right)))
    for row in rows:
        if row.left is not None and row.right is not None:
            assert same_for_model(left[row.left], right[row.right]) == (row.kind is not RowKind.CHANGED)
            assert left[row.left]["role"] == right[row.right]["role"]
