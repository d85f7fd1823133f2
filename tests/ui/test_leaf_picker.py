"""The leaf picker: typing filters hundreds of leaves, the keyboard picks, any entry id is accepted."""

import pytest
from PySide6.QtCore import Qt

from pibrowser.model import Session
from pibrowser.model.compare.leaf_rows import leaf_rows
from pibrowser.ui.compare.leaf_picker import CURRENT, MESSAGES, TIME, TOKENS, LeafPicker

from ..conftest import FIXTURES


@pytest.fixture
def session():
    return Session.load(FIXTURES / "generated-s5.jsonl")


def open_picker(qtbot, session, key):
    picker = LeafPicker(session, key)
    qtbot.addWidget(picker)
    picker.open()
    qtbot.waitExposed(picker)
    qtbot.waitUntil(lambda: picker.proxy.rowCount() == len(session.leaves()), timeout=10000)
    return picker


def shown(picker, column):
    return [picker.proxy.index(row, column).data() for row in range(picker.proxy.rowCount())]


def test_typing_picks_one_leaf_among_hundreds(qtbot, session):
    leaves = session.leaves()
    assert len(leaves) > 200
    rows = leaf_rows(session)
    # A leaf told apart by the words of its last user message and its id's first characters.
    target = next(row for row in rows if row.last_user and sum(other.last_user == row.last_user for other in rows) == 1)
    picker = open_picker(qtbot, session, session.leaf_id)
    words = target.last_user.split()[:3]
    qtbot.keyClicks(picker.filter_edit, " ".join(words).upper())
    qtbot.waitUntil(lambda: 0 < picker.proxy.rowCount() < len(leaves))
    assert all(
        all(word.lower() in row.last_user.lower() or word.lower() in row.id for word in words)
        for row in (picker.table.rows[picker.proxy.mapToSource(picker.proxy.index(r, 0)).row()] for r in range(picker.proxy.rowCount()))
    )
    qtbot.keyClicks(picker.filter_edit, " " + target.id[:6])
    qtbot.waitUntil(lambda: picker.proxy.rowCount() == 1)
    with qtbot.waitSignal(picker.chosen) as blocker:
        qtbot.keyClick(picker.filter_edit, Qt.Key.Key_Return)
    assert blocker.args == [target.id]
    assert not picker.isVisible()


def test_rows_are_newest_first_with_the_current_leaf_marked_and_sizes_filled_in(qtbot, session):
    picker = open_picker(qtbot, session, session.leaf_id)
    millis = [picker.table.rows[picker.proxy.mapToSource(picker.proxy.index(r, 0)).row()].millis for r in range(picker.proxy.rowCount())]
    assert millis == sorted(millis, reverse=True)
    assert shown(picker, CURRENT).count("●") == 1
    current_row = shown(picker, CURRENT).index("●")
    assert picker.proxy.index(current_row, TIME).data(Qt.ItemDataRole.FontRole).bold()
    qtbot.waitUntil(lambda: "…" not in shown(picker, TOKENS), timeout=20000)
    rows = {row.id: row for row in leaf_rows(session)}
    some = picker.table.rows[picker.proxy.mapToSource(picker.proxy.index(5, 0)).row()]
    from pibrowser.model import resolve
    from pibrowser.model.tokens.message_tokens import estimate_messages_tokens

    messages = resolve(session, some.id).messages
    assert (some.messages, some.tokens) == (len(messages), estimate_messages_tokens(messages))
    assert picker.proxy.index(5, MESSAGES).data() == f"{len(messages):,}"
    assert some.id in rows
    # The newest leaf other than this side is preselected.
    assert picker.selected_id() == next(row.id for row in leaf_rows(session) if row.id != session.leaf_id)


def test_arrows_move_and_any_entry_id_is_accepted(qtbot, session):
    picker = open_picker(qtbot, session, session.leaf_id)
    first = picker.selected_id()
    qtbot.keyClick(picker.filter_edit, Qt.Key.Key_Down)
    second = picker.selected_id()
    assert second != first
    qtbot.keyClick(picker.filter_edit, Qt.Key.Key_Up)
    assert picker.selected_id() == first
    inner = next(key for key in session.entries if session.children(key) and key != session.leaf_id)
    qtbot.keyClicks(picker.filter_edit, inner)
    assert "Enter compares with entry " + inner in picker.status.text()
    with qtbot.waitSignal(picker.chosen) as blocker:
        qtbot.keyClick(picker.filter_edit, Qt.Key.Key_Return)
    assert blocker.args == [inner]


def test_escape_closes_without_picking(qtbot, session):
    picker = open_picker(qtbot, session, session.leaf_id)
    with qtbot.assertNotEmitted(picker.chosen):
        qtbot.keyClick(picker.filter_edit, Qt.Key.Key_Escape)
    assert not picker.isVisible()
