"""The compare view, driven through the controller: shared prefix, aligned rows, word diffs, totals, swap and clear."""

import orjson
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QPalette

from pibrowser.model.compare.alignment import RowKind
from pibrowser.model.compare.comparison import compare
from pibrowser.model.compare.word_diff import condensed
from pibrowser.ui.compare.compare_rows import DiffBlock, NoteBlock, PairBlock
from pibrowser.ui.compare.compare_view import CompareView
from pibrowser.ui.context.scroll_target import ToEnd
from pibrowser.ui.context.sections import Section
from pibrowser.ui.control.controller import SessionController

from ..conftest import BACKGROUND_MS, DEMO, open_session, shown
from ..changes import compared
from .cards import click, click_at


@pytest.fixture
def view(qtbot):
    controller = SessionController()
    widget = CompareView(controller)
    controller.setParent(widget)  # the widget owns it: freed with it on the GUI thread, never by the cycle collector on a loader's thread
    return shown(qtbot, widget, 1100, 900)


def test_nothing_to_compare_at_first(qtbot, view):
    open_session(qtbot, view.controller, DEMO)
    assert view.comparison is None
    assert view.header.title.text() == "Nothing to compare"
    assert not view.header.swap_button.isEnabled() and not view.header.clear_button.isEnabled()


def test_shared_prefix_and_aligned_rows(qtbot, view):
    open_session(qtbot, view.controller, DEMO)
    with qtbot.waitSignal(view.controller.changed, check_params_cb=compared):
        view.controller.set_compare("d33d3e04", "6eebe41c")
    model = compare(view.controller.session, "d33d3e04", "6eebe41c")
    assert model.shared_prefix == 13
    assert view.comparison.shared_prefix == 13
    assert view.row_lines(0) == ["13 shared messages — the same for the model"]
    assert view.header.ancestor["button"].text() == model.common_ancestor == "35c37f85"
    after = model.rows_after_fork
    # One card per message on a differing row, each in its side's column.
    assert [card.index for card in view.left_cards()] == [row.left for row in after if row.differs and row.left is not None]
    assert [card.index for card in view.right_cards()] == [row.right for row in after if row.differs and row.right is not None]
    left_sources = model.left.message_sources()
    assert [card.source_id for card in view.left_cards()] == [left_sources[card.index].id for card in view.left_cards()]
    # A changed pair sits side by side, its word diff in the row below it.
    rows = view.list.rows
    pair = next(row for row, block in enumerate(rows) if isinstance(block, PairBlock) and block.row.kind is RowKind.CHANGED)
    left_card, right_card = view.list.root(pair).cards()
    width = view.list.card_width()
    left_rect, right_rect = view.list.root(pair).rect_of(left_card, width), view.list.root(pair).rect_of(right_card, width)
    assert left_rect.top() == right_rect.top() and left_rect.right() < right_rect.left()
    assert isinstance(rows[pair + 1], DiffBlock) and rows[pair + 1].row is rows[pair].row
    changed = [row for row in after if row.kind is RowKind.CHANGED and any(op == " " for op, _ in model.word_diff(row))]
    assert len(view.diff_texts()) == len(changed) > 0
    # The two test runs pair up; their long unchanged middle folds to a line that counts it.
    run = next(row for row in changed if model.source("left", row.left).id == "7c5306dc")
    test_run = view.diff_texts()[changed.index(run)].plain_text()
    assert test_run == "".join(text for _, text in condensed(model.word_diff(run)))
    assert "241ms" in test_run and "236ms" in test_run
    assert "unchanged lines" in test_run
    assert view.header.title.text() == f"{model.differences} of {len(model.rows)} rows differ for the model"
    # The shared row opens into one line per shared message.
    section = next(piece for piece in view.list.root(0).pieces() if isinstance(piece, Section))
    click(qtbot, view.list, 0, section.head)
    lines = view.row_lines(0)[1:]
    assert len(lines) == 13 and lines[1].startswith("= #2  user: When the **Active** filter")


def test_totals_and_settings_per_side(qtbot, view):
    open_session(qtbot, view.controller, DEMO)
    view.controller.set_compare("d33d3e04", "5c753be3")
    # The right leaf's context starts with a compaction whose system prompt is the
    # left's, recorded at another time: the same for the model.
    assert view.comparison.shared_prefix == 1
    assert view.row_lines(0) == ["1 shared message — the same for the model · 1 only in time or model"]
    assert view.settings_text().splitlines() == [
        "A: anthropic/claude-sonnet-4-5 · thinking medium",
        "B: anthropic/claude-sonnet-4-5 · thinking low",
        "B − A: same · thinking differs",
    ]
    totals = view.header.totals
    left, right = view.comparison.left, view.comparison.right
    assert totals["A"][1].text() == f"{len(left.messages):,}" and totals["B"][1].text() == f"{len(right.messages):,}"
    assert totals["B − A"][1].text() == f"{len(right.messages) - len(left.messages):+,}"
    assert totals["A"][5].font().bold() and not totals["A"][4].font().bold()


def test_a_compaction_on_one_side_says_so(qtbot, view):
    open_session(qtbot, view.controller, DEMO)
    view.controller.set_compare("8f6c16a9", "5c753be3")
    # The 37 messages the right side's compaction summarized fold into one row in A's column.
    assert len(view.run_rows()) == 1
    run = view.run_rows()[0]
    assert view.row_lines(run) == ["37 messages only in A", "↳ summarized by compaction 99ac0ed6 on the right"]
    lines = [line for row in range(len(view.list.rows)) for line in view.row_lines(row)]
    assert "↳ checkpoint of compaction 99ac0ed6 on the right" in lines
    # Its cards are made when it opens.
    before = len(view.left_cards())
    section = next(piece for piece in view.list.root(run).pieces() if isinstance(piece, Section))
    click(qtbot, view.list, run, section.head)
    opened = [card for card in view.list.root(run).cards()]
    assert [card.index for card in opened] == list(range(1, 38))
    assert len(view.left_cards()) == before + 37
    card = opened[0]
    root = view.list.root(run)
    rect = root.rect_of(card, view.list.card_width())
    click_at(qtbot, view.list, run, QPoint(rect.right() - 6, rect.bottom() - 3))
    assert view.controller.selected == card.source_id == "6dc8c555"


def test_clicking_a_message_selects_its_entry(qtbot, view):
    open_session(qtbot, view.controller, DEMO)
    view.controller.set_compare("d33d3e04", "6eebe41c")
    card = view.right_cards()[0]
    row = next(row for row in range(len(view.list.rows)) if card in view.list.root(row).cards())
    rect = view.list.root(row).rect_of(card, view.list.card_width())
    click_at(qtbot, view.list, row, QPoint(rect.right() - 6, rect.bottom() - 3))
    assert view.controller.selected == card.source_id
    # The comparison stays as it was.
    assert view.controller.compared == ("d33d3e04", "6eebe41c")


def test_compare_cards_wrap_and_never_cut_a_role_or_an_id(qtbot, view):
    # A column of a compare view in a small window is about 220 pixels wide.
    view.resize(520, 700)
    open_session(qtbot, view.controller, DEMO)
    view.controller.set_compare("d33d3e04", "6eebe41c")
    cards = view.left_cards() + view.right_cards()
    column = (view.list.card_width() - 8) // 2
    assert column < 260 and cards
    inner = column - 24
    for card in cards:
        for part in (card.role_part, card.number_part, card.entry_part):
            rect = card.header.rect_of(part, inner)
            assert rect is not None and 0 <= rect.left() and rect.right() < inner
            assert card.header.shown_text(part, inner) == part.text
    assert any(card.header.height(inner) > card.header.height(2000) for card in cards)


def test_swap_and_clear(qtbot, view):
    open_session(qtbot, view.controller, DEMO)
    view.controller.set_compare("d33d3e04", "6eebe41c")
    left = [card.message for card in view.left_cards()]
    assert left
    with qtbot.waitSignal(view.controller.changed, check_params_cb=compared):
        qtbot.mouseClick(view.header.swap_button, Qt.MouseButton.LeftButton)
    assert view.controller.compared == ("6eebe41c", "d33d3e04")
    assert view.header.sides["A"]["button"].text() == "6eebe41c"
    assert [card.message for card in view.right_cards()] == left
    with qtbot.waitSignal(view.controller.changed, check_params_cb=compared):
        qtbot.mouseClick(view.header.clear_button, Qt.MouseButton.LeftButton)
    assert view.controller.compared is None
    assert view.comparison is None and view.left_cards() == [] and view.right_cards() == []
    assert [type(block) for block in view.list.rows] == [NoteBlock]


def test_identical_contexts(qtbot, view):
    open_session(qtbot, view.controller, DEMO)
    view.controller.set_compare("5c753be3", "5c753be3")
    assert view.comparison.identical
    assert view.header.title.text() == "Identical for the model"
    assert view.left_cards() == [] and view.right_cards() == []
    assert view.row_lines(len(view.list.rows) - 1) == ["Both send exactly the same messages, with the same settings, to the model."]


def test_long_differences_are_all_there_and_built_as_they_show(qtbot, view, tmp_path):
    lines = [{"type": "session", "version": 3, "id": "s", "timestamp": "2026-01-01T00:00:00.000Z", "cwd": "/w"}]
    lines.append(
        {
            "type": "message",
            "id": "root",
            "parentId": None,
            "timestamp": "2026-01-01T00:00:00.000Z",
            "message": {"role": "user", "content": "start", "timestamp": 1},
        }
    )
    for side in ("a", "b"):
        parent = "root"
        for n in range(45 if side == "a" else 40):
            key = f"{side}{n:07d}"
            lines.append(
                {
                    "type": "message",
                    "id": key,
                    "parentId": parent,
                    "timestamp": f"2026-01-01T00:01:{n:02d}.000Z",
                    "message": {"role": "user", "content": f"{side} says {n}", "timestamp": 1},
                }
            )
            parent = key
    path = tmp_path / "branches.jsonl"
    path.write_bytes(b"\n".join(orjson.dumps(line) for line in lines) + b"\n")
    open_session(qtbot, view.controller, path)
    view.controller.set_compare("a0000044", "b0000039")
    assert view.comparison.shared_prefix == 1
    assert view.header.ancestor["button"].text() == "root"
    # Every row is a row of the list; only those that show are built.
    built = len(view.list.built())
    assert built < len(view.list.rows) - 10
    assert len(view.left_cards()) == 45 and len(view.right_cards()) == 40
    assert "a says 44" in view.left_cards()[-1].shown_text()
    view.list.scroll_to(ToEnd())
    last = len(view.list.rows) - 1
    assert last in view.list.visible_rows() and view.list.geometry_of_rows.is_measured(last, view.list.card_width())


def test_change_picks_another_entry_for_one_side(qtbot, view):
    open_session(qtbot, view.controller, DEMO)
    view.controller.set_compare("d33d3e04", "6eebe41c")
    qtbot.mouseClick(view.header.sides["B"]["change"], Qt.MouseButton.LeftButton)
    picker = view.picker
    qtbot.waitUntil(lambda: picker.proxy.rowCount() == len(view.controller.session.leaves()), timeout=BACKGROUND_MS)
    qtbot.keyClicks(picker.filter_edit, "5c753be3")
    with qtbot.waitSignal(view.controller.changed, check_params_cb=compared):
        qtbot.keyClick(picker.filter_edit, Qt.Key.Key_Return)
    assert view.controller.compared == ("d33d3e04", "5c753be3")
    assert view.header.sides["B"]["button"].text() == "5c753be3"


def test_the_header_links_select_in_the_tree(qtbot, view):
    open_session(qtbot, view.controller, DEMO)
    view.controller.set_compare("d33d3e04", "6eebe41c")
    qtbot.mouseClick(view.header.ancestor["button"], Qt.MouseButton.LeftButton)
    assert view.controller.selected == "35c37f85"
    qtbot.mouseClick(view.header.sides["B"]["button"], Qt.MouseButton.LeftButton)
    assert view.controller.selected == "6eebe41c"
    assert view.controller.compared == ("d33d3e04", "6eebe41c")


def test_the_header_takes_the_new_theme_s_shade(qtbot, view):
    from PySide6.QtWidgets import QApplication

    from pibrowser.ui.style.colors import mix
    from pibrowser.ui.style.theme import dark_palette

    open_session(qtbot, view.controller, DEMO)
    view.controller.set_compare("d33d3e04", "6eebe41c")
    app = QApplication.instance()
    light = app.palette()

    def shade() -> QColor:
        return view.header.grab().toImage().pixelColor(view.header.width() // 2, 3)

    def expected(palette) -> QColor:
        return mix(palette.color(QPalette.ColorRole.Window), palette.color(QPalette.ColorRole.Base), 0.5)

    assert shade() == expected(light)
    try:
        app.setPalette(dark_palette())
        qtbot.waitUntil(lambda: shade() == expected(dark_palette()), timeout=3000)
    finally:
        app.setPalette(light)
    qtbot.waitUntil(lambda: shade() == expected(light), timeout=3000)
