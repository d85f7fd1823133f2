"""The compare view, driven through the controller: shared prefix, differing columns, swap and clear."""


import orjson
import pytest
from PySide6.QtCore import QPoint, Qt

from pibrowser.model.compare import compare
from pibrowser.ui.context.compare_view import PAIRS_PAGE, CompareView
from pibrowser.ui.controller import SessionController

from ..conftest import DEMO, open_session


@pytest.fixture
def view(qtbot):
    controller = SessionController()
    widget = CompareView(controller)
    qtbot.addWidget(widget)
    widget.resize(1100, 900)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def test_nothing_to_compare_at_first(qtbot, view):
    open_session(qtbot, view.controller, DEMO)
    assert view.comparison is None
    assert view.title.text() == "Nothing to compare"
    assert not view.swap_button.isEnabled() and not view.clear_button.isEnabled()


def test_shared_prefix_and_differing_columns(qtbot, view):
    open_session(qtbot, view.controller, DEMO)
    with qtbot.waitSignal(view.controller.compareChanged):
        view.controller.set_compare("d33d3e04", "6eebe41c")
    model = compare(view.controller.session, "d33d3e04", "6eebe41c")
    assert model.shared_prefix == 13
    assert view.comparison.shared_prefix == 13
    assert view.shared_row.toggle.text() == "13 shared messages — the same in both contexts"
    assert view.ancestor.text() == model.common_ancestor == "35c37f85"
    left_sources = model.left.message_sources()
    right_sources = model.right.message_sources()
    assert [card.message for card in view.left_cards()] == model.left_only
    assert [card.message for card in view.right_cards()] == model.right_only
    assert [card.source_id for card in view.left_cards()] == [entry.id for entry in left_sources[13:]]
    assert [card.source_id for card in view.right_cards()] == [entry.id for entry in right_sources[13:]]
    assert [card.index for card in view.left_cards()] == list(range(13, len(model.left.messages)))
    assert view.settings_text() == "Thinking: medium on both\nModel: anthropic/claude-sonnet-4-5 on both"
    # Pairs sit side by side: the first difference is the first row of each column.
    assert view.left_cards()[0].y() == view.right_cards()[0].y()
    # The shared row opens into one line per shared message.
    view.shared_row.set_expanded(True)
    lines = [button.text() for button in view.shared_row.content.findChildren(type(view.ancestor))]
    assert len(lines) == 13 and lines[1].startswith("#2  user: When the **Active** filter")


def test_settings_differences_are_spelled_out(qtbot, view):
    open_session(qtbot, view.controller, DEMO)
    view.controller.set_compare("d33d3e04", "5c753be3")
    # The right leaf's context starts with a compaction whose system prompt is the
    # left's, recorded at another time: the same for the model.
    assert view.comparison.shared_prefix == 1
    assert view.shared_row.toggle.text() == "1 shared message — the same in both contexts"
    assert view.settings_text().splitlines()[0] == "Thinking differs: medium ← left · right → low"
    assert view.setting_lines[0].font().bold() and not view.setting_lines[1].font().bold()
    assert view.settings_text().splitlines()[1] == "Model: anthropic/claude-sonnet-4-5 on both"


def test_clicking_a_message_selects_its_entry(qtbot, view):
    open_session(qtbot, view.controller, DEMO)
    view.controller.set_compare("d33d3e04", "6eebe41c")
    card = view.right_cards()[0]
    view.scroll.ensureWidgetVisible(card)
    qtbot.mouseClick(card, Qt.MouseButton.LeftButton, pos=QPoint(card.width() - 20, card.height() - 5))
    assert view.controller.selected == card.source_id
    # The comparison stays as it was.
    assert view.controller.compared == ("d33d3e04", "6eebe41c")


def test_swap_and_clear(qtbot, view):
    open_session(qtbot, view.controller, DEMO)
    view.controller.set_compare("d33d3e04", "6eebe41c")
    left = [card.message for card in view.left_cards()]
    with qtbot.waitSignal(view.controller.compareChanged):
        qtbot.mouseClick(view.swap_button, Qt.MouseButton.LeftButton)
    assert view.controller.compared == ("6eebe41c", "d33d3e04")
    assert view.left_side["button"].text() == "6eebe41c"
    assert [card.message for card in view.right_cards()] == left
    with qtbot.waitSignal(view.controller.compareChanged):
        qtbot.mouseClick(view.clear_button, Qt.MouseButton.LeftButton)
    assert view.controller.compared is None
    assert view.comparison is None and view.left_cards() == [] and view.right_cards() == []


def test_identical_contexts(qtbot, view):
    open_session(qtbot, view.controller, DEMO)
    view.controller.set_compare("5c753be3", "5c753be3")
    assert view.comparison.identical
    assert view.title.text() == "Contexts are identical"
    assert view.left_cards() == [] and view.right_cards() == []


def test_long_differences_come_a_page_at_a_time(qtbot, view, tmp_path):
    lines = [{"type": "session", "version": 3, "id": "s", "timestamp": "2026-01-01T00:00:00.000Z", "cwd": "/w"}]
    lines.append({"type": "message", "id": "root", "parentId": None, "timestamp": "2026-01-01T00:00:00.000Z", "message": {"role": "user", "content": "start", "timestamp": 1}})
    for side in ("a", "b"):
        parent = "root"
        for n in range(45 if side == "a" else 40):
            key = f"{side}{n:07d}"
            lines.append({"type": "message", "id": key, "parentId": parent, "timestamp": f"2026-01-01T00:01:{n:02d}.000Z", "message": {"role": "user", "content": f"{side} says {n}", "timestamp": 1}})
            parent = key
    path = tmp_path / "branches.jsonl"
    path.write_bytes(b"\n".join(orjson.dumps(line) for line in lines) + b"\n")
    open_session(qtbot, view.controller, path)
    view.controller.set_compare("a0000044", "b0000039")
    assert view.comparison.shared_prefix == 1
    assert view.ancestor.text() == "root"
    assert len(view.left_cards()) == PAIRS_PAGE and len(view.right_cards()) == PAIRS_PAGE
    assert view.more.isVisibleTo(view) and view.more.text() == "▼ 15 more rows — show 15"
    qtbot.mouseClick(view.more, Qt.MouseButton.LeftButton)
    assert len(view.left_cards()) == 45 and len(view.right_cards()) == 40
    assert not view.more.isVisibleTo(view)
    assert "a says 44" in view.left_cards()[-1].shown_text()
