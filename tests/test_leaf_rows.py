"""The leaf picker's rows: newest first, with label, depth, last prompt, and sizes resolved on demand."""

import shutil

from pibrowser.model import Session, resolve
from pibrowser.model.session.follow import read_appended
from pibrowser.model.compare.leaf_rows import fill_sizes, leaf_rows
from pibrowser.model.tokens.message_tokens import estimate_messages_tokens

from .conftest import FIXTURES
from .sessions import append, entry, message, write


def session_with_labels(tmp_path):
    return Session.load(
        write(
            tmp_path / "labels.jsonl",
            message("u1", None, "user", "Fix the parser", second=0),
            message("a1", "u1", "assistant", [{"type": "text", "text": "Done"}], second=1),
            message("u2", "a1", "user", "Now the lexer please", second=2),
            message("a2", "u2", "assistant", [{"type": "text", "text": "Lexer done"}], second=5),
            message("b1", "a1", "assistant", [{"type": "text", "text": "Other answer"}], second=3),
            entry("label", "l1", "a2", second=6, targetId="b1", label="first try"),
            entry("session_info", "n1", "l1", second=7, name="Parser work"),
        )
    )


def test_rows_are_leaves_newest_first_with_label_depth_and_last_prompt(tmp_path):
    session = session_with_labels(tmp_path)
    rows = leaf_rows(session)
    assert [row.id for row in rows] == ["n1", "b1"]
    latest, other = rows
    assert latest.current and not other.current
    assert (latest.depth, latest.last_user) == (5, "Now the lexer please")
    assert (other.depth, other.label, other.last_user) == (2, "first try", "Fix the parser")
    assert other.millis == 1793350803000


def test_filter_words_match_id_label_session_name_and_last_prompt(tmp_path):
    session = session_with_labels(tmp_path)
    rows = {row.id: row for row in leaf_rows(session)}
    name = session.name.lower()
    assert name == "parser work"
    assert rows["b1"].matches(["first", "try"]) and not rows["n1"].matches(["first", "try"])
    assert rows["n1"].matches(["lexer"]) and not rows["b1"].matches(["lexer"])
    assert rows["b1"].matches(["b1"]) and rows["n1"].matches(["work"], name) and not rows["n1"].matches(["work"])
    assert rows["n1"].matches([]) and not rows["n1"].matches(["lexer", "nowhere"])


def test_sizes_are_pis_message_count_and_token_estimate():
    session = Session.load(FIXTURES / "generated-s5.jsonl")
    rows = leaf_rows(session)
    assert len(rows) == len(session.leaves()) > 200
    done = list(fill_sizes(session, rows[:10]))
    assert done == list(range(10))
    for row in rows[:10]:
        messages = resolve(session, row.id).messages
        assert (row.messages, row.tokens) == (len(messages), estimate_messages_tokens(messages))
    assert rows[10].messages is None


def test_rows_and_sizes_describe_the_session_as_it_was_while_pi_appends(tmp_path):
    """The picker works them out in a pool thread while the GUI thread links pi's appends into the
    session: they describe the entries linked when it opened, whatever comes in between."""
    session = session_with_labels(tmp_path)
    as_it_was = Session.load(shutil.copy(session.path, tmp_path / "before.jsonl"))
    known = len(session.file_order)
    appends = [
        message("a3", "n1", "assistant", [{"type": "text", "text": "a reply under the current leaf"}], second=8),
        message("u3", "u1", "user", "a new branch", second=9),
        entry("label", "l2", "a3", second=10, targetId="u3", label="new"),
    ]

    def with_pi_appending(read, asking: str):
        """`read`, with pi's lines appended and linked the first time it asks the session `asking`."""
        ask = getattr(session, asking)

        def asked(key):
            if appends:
                append(session.path, *appends)
                appends.clear()
                read_appended(session)
            return ask(key)

        setattr(session, asking, asked)
        try:
            return read()
        finally:
            delattr(session, asking)

    rows = with_pi_appending(lambda: leaf_rows(session, known), "parent")
    assert not appends and "u3" in session.entries and session.leaf_id == "l2"  # pi's lines came in on the way
    assert rows == leaf_rows(as_it_was) and [(row.id, row.current) for row in rows] == [("n1", True), ("b1", False)]
    appends[:] = [message("u4", "u1", "user", "one more", second=11)]
    sizes = with_pi_appending(lambda: list(fill_sizes(session, rows)), "path_entries")
    assert not appends and sizes == [0, 1]
    for row in rows:
        messages = resolve(as_it_was, row.id).messages
        assert (row.messages, row.tokens) == (len(messages), estimate_messages_tokens(messages))
