"""The context panel, driven through the controller like the app does.

Each check compares what the panel shows with what the model says pi sends: the
list's rows (one per message), the card of any row (built when asked), what shows in
the view. Nothing here depends on which cards happen to be built, on fonts or sizes.
"""

import base64
import logging
import re
from pathlib import Path

import orjson
import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QAccessible, QMouseEvent, QTextDocument
from PySide6.QtWidgets import QApplication, QPushButton

from pibrowser.model import Part, path_provenance
from pibrowser.model.js.stringify import dump_json_indented
from pibrowser.model.tokens.stats import context_stats
from pibrowser.ui.context.message_card import Card
from pibrowser.ui.context import message_list
from pibrowser.ui.context.message_list import MessageList
from pibrowser.ui.context.message_menu import message_json
from pibrowser.ui.context.message_rows import describe
from pibrowser.ui.cards.images import NOT_RASTER, ImageViewer
from pibrowser.ui.context.panel import ContextPanel
from pibrowser.ui.cards.part_line import Line
from pibrowser.ui.cards.pieces import WrappedText
from pibrowser.ui.cards.scroll_target import Stay, ToEnd, ToStart
from pibrowser.ui.cards.text_piece import Text
from pibrowser.ui.cards.text_viewer import TextViewer
from pibrowser.ui.control.controller import SessionController
from pibrowser.ui.labels.label_editor import LabelEditor

from ..conftest import DEMO, FIXTURES, open_session, session_file, shown
from ..sessions import append, linked, write
from ..changes import appended, replaced, selected
from .cards import click, click_at, hover, live, point_of, reach_text, right_click, tooltip_at

ROLE_TITLES = {
    "user": "User",
    "assistant": "Assistant",
    "toolResult": "Tool result",
    "bashExecution": "Shell",
    "system": "System prompt",
    "compactionSummary": "Compaction summary",
    "branchSummary": "Branch summary",
}


# ---- helpers --------------------------------------------------------------------------------


@pytest.fixture
def panel(qtbot):
    controller = SessionController()
    widget = ContextPanel(controller)
    controller.setParent(widget)  # the widget owns it: freed with it on the GUI thread, never by the cycle collector on a loader's thread
    return shown(qtbot, widget, 760, 900)


def write_session(path: Path, messages: list) -> list[str]:
    """A straight-line session of these messages (or whole entries); returns the entry ids."""
    entries = linked(messages, key=lambda number: f"{number + 1:08x}")
    write(path, *entries)
    return [entry["id"] for entry in entries]


def words(text: str) -> str:
    """Letters and digits only: markdown markup and escapes vanish, the words stay."""
    return re.sub(r"[\W_]+", "", text)


def markdown_words(text: str) -> str:
    """words() of markdown as Qt lays it out (list numbers, link targets and fences are not text)."""
    document = QTextDocument()
    document.setMarkdown(text, QTextDocument.MarkdownFeature.MarkdownDialectGitHub | QTextDocument.MarkdownFeature.MarkdownNoHTML)
    return words(document.toPlainText())


def expected_words(message) -> list[str]:
    """The words a card must show for a message, where they are plain to say."""
    if not isinstance(message, dict):
        return []
    role = message.get("role")
    texts: list = []
    if role in ("compactionSummary", "branchSummary"):
        texts = [message.get("summary")]
    elif role == "bashExecution":
        return [words(str(message.get("command"))), words(str(message.get("output")))]
    elif role in ("user", "custom", "assistant"):
        content = message.get("content")
        if isinstance(content, str):
            texts = [content]
        elif isinstance(content, list):
            texts = [block.get("text", "") for block in content if isinstance(block, dict) and block.get("type") == "text"]
    return [markdown_words(text) for text in texts if isinstance(text, str) and len(text) < 3000]


def check_panel_matches_model(panel: ContextPanel, key: str) -> None:
    """Every row is a message of the context, in order, and its card says so; the view shows the end."""
    context = panel.controller.context(key)
    sources = context.message_sources()
    listing = panel.list
    sent = [row for row in range(len(listing.rows)) if not listing.rows[row].dropped]
    assert [listing.rows[row].message for row in sent] == context.messages
    assert [listing.rows[row].index for row in sent] == list(range(len(context.messages)))
    for index, row in enumerate(sent):
        card = listing.card(row)
        message = context.messages[index]
        assert card.index == index
        assert card.message is message or card.message == message
        assert card.source_id == sources[index].id
        assert card.number_text() == f"#{index + 1}"
        role = message.get("role") if isinstance(message, dict) else "value"
        title = card.role_label()
        if role == "custom":
            assert title == f"Custom · {message.get('customType')}"
        elif role == "system" and sources[index].type == "compaction":
            assert title == "System prompt · checkpoint"
        else:
            assert title == ROLE_TITLES.get(role, role)
        shown = words(card.shown_text())
        for expected in expected_words(message):
            assert expected in shown
    if sent:
        assert sent[-1] in listing.visible_rows()  # the selected entry's context ends on screen
    assert_view_is_painted_as_measured(listing)


def assert_view_is_painted_as_measured(listing: MessageList) -> None:
    """The rows that show are measured at the list's width (none is painted at a guess), each as tall as its
    card there, one under the other, and they fill the view down to the last row."""
    width, geometry = listing.card_width(), listing.geometry_of_rows
    shown = listing.visible_rows()
    for row in shown:
        assert geometry.is_measured(row, width)
        assert listing.row_rect(row).height() == listing.card(row).height(width)
    if shown:
        value, view = listing.verticalScrollBar().value(), listing.viewport().height()
        assert listing.row_rect(shown[0]).top() <= 6
        assert geometry.bottom(shown[-1]) - value >= view or shown[-1] == len(listing.rows) - 1


def row_of(panel: ContextPanel, entry_id: str) -> int:
    """The row of this entry's last message."""
    return max(row for row, item in enumerate(panel.list.rows) if item.entry.id == entry_id)


def sample_keys(session, count: int = 14) -> list[str]:
    keys = [entry.id for entry in session.file_order]
    step = max(1, len(keys) // count)
    chosen = keys[::step] + [session.leaf_id]
    chosen += [entry.id for entry in session.file_order if entry.type in ("compaction", "context_edit", "branch_summary")][:4]
    return list(dict.fromkeys(chosen))


def long_session(tmp_path: Path, count: int, text: str = "question {n}\n\nwith a second paragraph") -> list[str]:
    messages = [{"role": "user", "content": text.format(n=n), "timestamp": 1} for n in range(count)]
    return write_session(tmp_path / "long.jsonl", messages)


# ---- the panel shows exactly the model's context ------------------------------------------------


@pytest.mark.parametrize("name", ["blog-example", "generated-s1", "generated-s2", "generated-s3", "generated-s4", "demo-session"])
def test_panel_shows_exactly_the_context(qtbot, panel, name):
    open_session(qtbot, panel.controller, session_file(name))
    session = panel.controller.session
    assert panel.key == session.leaf_id
    for key in sample_keys(session):
        panel.controller.select(key)
        assert panel.key == key
        check_panel_matches_model(panel, key)


def test_expected_file_agrees_with_what_is_shown(qtbot, panel):
    # The fixture's answers, written by pi itself, against the rows and their cards.
    open_session(qtbot, panel.controller, FIXTURES / "generated-s3.jsonl")
    expected = orjson.loads((FIXTURES / "generated-s3.expected.json").read_bytes())["contexts"]
    shown = 0
    for key, answer in list(expected.items())[::9]:
        if key == "__default__":
            continue
        panel.controller.select(key)
        sent = [row for row, item in enumerate(panel.list.rows) if not item.dropped]
        assert [panel.list.card(row).message for row in sent] == answer["messages"]
        assert panel.header.values["thinking"].text() == str(answer["thinkingLevel"])
        shown += 1
    assert shown >= 5


# ---- the header ----------------------------------------------------------------------------------


def test_header_numbers_blog_example(qtbot, panel):
    open_session(qtbot, panel.controller, FIXTURES / "blog-example.jsonl")
    values = panel.header.values
    # Leaf e13: 5 messages, chars/4 = 3 + 6 + 3 + 2 + 5 = 19; e5 and e6 each record in 10, out 5, $0.
    assert values["thinking"].text() == "off"
    assert values["model"].text() == "deepseek/deepseek-flash"
    assert values["messages"].text() == "5 sent to the model"
    assert values["tokens"].text() == "≈19 (pi's estimate: chars/4)"
    # The usage on the path comes once the fold along it is done (in the background).
    qtbot.waitUntil(lambda: values["usage"].text() != "being summed…", timeout=20_000)
    assert values["usage"].text() == "in 20 · out 10 · cache read 0 · cache write 0 · $0.0000 · 2 records"
    # e12 keeps from e5 on: e1 (model), e2 (thinking), e3 (system) and e4 (user) are summarized.
    assert values["compaction"].text() == "e12 · summarizes 4 entries · 12,000 tokens before"
    panel.header.copy_button.click()
    assert QApplication.clipboard().text().startswith("# Context at e13\n\nleaf e13: 5 messages, thinking off")
    # At e8 the last reply's usage (15) is trusted and e8 (2 tokens) follows it.
    panel.controller.select("e8")
    assert values["tokens"].text() == "≈17 (pi's estimate: last usage 15 at #3 + 2 after) · chars/4 of all: 10"
    assert values["compaction"].text() == "none on this path"


def test_header_counts_dropped_and_usage_on_demo(qtbot, panel):
    open_session(qtbot, panel.controller, DEMO)
    context = panel.controller.context(panel.key)
    stats = context_stats(context)
    values = panel.header.values
    assert values["messages"].text() == f"{len(context.messages)} sent to the model · 1 dropped by edits (not sent)"
    assert values["thinking"].text() == "low"
    assert values["model"].text() == "anthropic/claude-sonnet-4-5"
    qtbot.waitUntil(lambda: values["usage"].text() != "being summed…", timeout=20_000)
    assert values["usage"].text().startswith(f"in {int(stats.usage.input):,} · out {int(stats.usage.output):,}")
    assert f"${stats.usage.cost:.4f}" in values["usage"].text()


# ---- special messages ---------------------------------------------------------------------------------


def test_compaction_summary_and_checkpoint(qtbot, panel):
    open_session(qtbot, panel.controller, DEMO)
    context = panel.controller.context(panel.key)
    summarized = sum(1 for value in path_provenance(context).values() if value.part is Part.SUMMARIZED)
    assert summarized == 47
    # What the leaf's context starts with: the compaction's system checkpoint, then its summary.
    checkpoint, summary = panel.list.card(0), panel.list.card(1)
    assert checkpoint.role_label() == "System prompt · checkpoint"
    assert checkpoint.source_id == "99ac0ed6"
    assert summary.role_label() == "Compaction summary"
    assert summary.compaction_note.text == "Summarizes 47 entries · 14,282 tokens before · compaction 99ac0ed6"


def test_branch_summary_custom_and_shell(qtbot, panel):
    open_session(qtbot, panel.controller, DEMO)
    panel.controller.select("2be4d6c0")  # the git-guard custom message, after a branch summary and shell runs
    branch = panel.list.card(row_of(panel, "2d94e732"))
    assert branch.role_label() == "Branch summary"
    assert "Try a dark theme" in branch.shown_text()
    custom = panel.list.card(row_of(panel, "2be4d6c0"))
    assert custom.role_label() == "Custom · git-guard"
    assert "5 files modified and not committed" in custom.shown_text()
    shell = panel.list.card(row_of(panel, "e8f31790"))
    assert shell.role_label() == "Shell"
    assert "$ git diff --stat" in shell.shown_text()
    assert "4 files changed, 46 insertions(+), 12 deletions(-)" in shell.shown_text()
    assert "exit 0" in shell.shown_lines()
    # The entry the branch was left at is a link that selects it.
    left_at = branch.message["fromId"]
    link = next(part for piece in branch.pieces() if isinstance(piece, Line) for part in piece.links() if part.text == left_at)
    click(qtbot, panel.list, row_of(panel, "2d94e732"), link)
    assert panel.controller.selected == left_at


def test_tool_calls_show_their_results(qtbot, panel):
    open_session(qtbot, panel.controller, DEMO)
    panel.controller.select("a8817c81")
    context = panel.controller.context("a8817c81")
    listing = panel.list
    results = {m.get("toolCallId"): i for i, m in enumerate(context.messages) if m.get("role") == "toolResult"}
    calls = [
        i for i, m in enumerate(context.messages) if m.get("role") == "assistant" and any(b.get("type") == "toolCall" for b in m["content"])
    ]
    assert not any(row.dropped for row in listing.rows)  # rows are message indexes here
    checked = 0
    for call_index in calls:
        texts = []
        for call in listing.card(call_index).tool_calls:
            assert call.result_index == results[call.block["id"]]
            result = context.messages[call.result_index]
            text = " ".join(b.get("text", "") for b in result["content"] if b.get("type") == "text")
            assert words(text[:1000]) in words(call.result_text())
            texts.append((call.result_index, text))
        # The result card keeps its place in the order and points back at the call.
        for result_index, text in texts:
            result_card = listing.card(result_index)
            assert any(f"shown under its call in #{call_index + 1}" in line for line in result_card.shown_lines())
            if result_card.item.edit is None:
                # The content shows once, under the call; the result's own card is a one-line link.
                assert result_card.texts == [] and words(text[:200]) not in words(result_card.shown_text())
            checked += 1
    assert checked >= 8
    # A result's "go to" link goes back to the call's card, shows it and lights it up.
    result_row = max(results.values())
    call_row = next(index for index in calls if any(call.result_index == result_row for call in listing.card(index).tool_calls))
    listing.scroll_to(ToEnd())
    go = next(part for part in listing.card(result_row).reference.links())
    click(qtbot, listing, result_row, go)
    assert listing.flashed is listing.rows[call_row]
    assert call_row in listing.visible_rows()


# ---- edits ----------------------------------------------------------------------------------------------


def test_edited_message_shows_replacement_and_original_one_click_away(qtbot, panel):
    open_session(qtbot, panel.controller, FIXTURES / "blog-example.jsonl")
    panel.controller.select("e11")
    row = row_of(panel, "e4")
    card = panel.list.card(row)
    assert card.item.edit is not None and card.item.edit.id == "e11"
    assert "检查项目配置文件" in card.shown_text()
    assert "读取配置文件" not in card.shown_text()
    assert card.original is not None and not card.original.opened
    top = panel.list.row_rect(row).top()
    click(qtbot, panel.list, row, card.original.head)
    card = panel.list.card(row)
    assert card.original.opened
    assert "读取配置文件" in card.shown_text()
    assert "replaced, not sent" in " ".join(card.shown_lines())
    assert panel.list.row_rect(row).top() == top  # it opens downwards: the card stays where it was
    assert_view_is_painted_as_measured(panel.list)


def test_dropped_messages_hidden_until_toggled_and_unmistakable(qtbot, panel):
    open_session(qtbot, panel.controller, DEMO)
    context = panel.controller.context(panel.key)
    assert "2be4d6c0" in {entry.id for entry in context.path}
    assert len(panel.list.rows) == len(context.messages)
    assert all(row.entry.id != "2be4d6c0" for row in panel.list.rows)
    panel.header.show_dropped.setChecked(True)
    dropped = [row for row in panel.list.rows if row.dropped]
    assert [row.entry.id for row in dropped] == ["2be4d6c0"]
    assert len(panel.list.rows) == len(context.messages) + 1
    card = panel.list.card(row_of(panel, "2be4d6c0"))
    assert card.item.dropped and card.index is None
    assert card.number_text() == "not sent"
    assert card.banner.text == "✕ DROPPED by context edit ceae8505 — NOT sent to the model"
    # The messages that are sent keep their numbers.
    assert [row.index for row in panel.list.rows if not row.dropped] == list(range(len(context.messages)))
    panel.header.show_dropped.setChecked(False)
    assert len(panel.list.rows) == len(context.messages)
    assert all(row.entry.id != "2be4d6c0" for row in panel.list.rows)


# ---- thinking ---------------------------------------------------------------------------------------------


def test_thinking_is_collapsed_until_clicked(qtbot, panel):
    open_session(qtbot, panel.controller, DEMO)
    panel.controller.select("d1f0de86")
    row = row_of(panel, "d1f0de86")
    card = panel.list.card(row)
    thinking = card.message["content"][0]["thinking"]
    assert not card.thinking[0].opened and card.thinking[0].content is None
    assert words(thinking) not in words(card.shown_text())
    click(qtbot, panel.list, row, card.thinking[0].head)
    card = panel.list.card(row)
    assert card.thinking[0].opened
    assert words(thinking) in words(card.shown_text())
    click(qtbot, panel.list, row, card.thinking[0].head)
    card = panel.list.card(row)
    assert not card.thinking[0].opened
    assert words(thinking) not in words(card.shown_text())
    # The header switch opens every thinking block, now and for cards built later.
    panel.header.expand_thinking.setChecked(True)
    rows = range(len(panel.list.rows))
    assert all(section.opened for row in rows for section in panel.list.card(row).thinking)
    assert sum(len(panel.list.card(row).thinking) for row in rows) >= 1
    panel.controller.select(panel.controller.session.leaf_id)
    rows = range(len(panel.list.rows))
    assert all(section.opened for row in rows for section in panel.list.card(row).thinking)
    assert sum(len(panel.list.card(row).thinking) for row in rows) >= 2


# ---- clicking ----------------------------------------------------------------------------------------------


def a_shown_row(panel: ContextPanel, with_text: bool = False) -> int:
    """A row a few above the end, scrolled to, whose card (or, `with_text`, whose first text) shows
    well inside the view; not the selected entry's."""
    listing = panel.list
    listing.scroll_to_row(len(listing.rows) - 4, flash=False)
    view, width = listing.viewport().height(), listing.card_width()
    for row in listing.visible_rows():
        card, top = listing.card(row), listing.row_rect(row).top()
        texts = card.all_texts()
        if with_text and not texts:
            continue
        if with_text:
            top += card.rect_of(texts[0], width).top()
        if top > 20 and top + 60 < view and card.source_id != panel.key:
            return row
    raise AssertionError("no card well inside the view")


def test_clicking_a_card_selects_its_source_and_keeps_it_in_place(qtbot, panel):
    open_session(qtbot, panel.controller, DEMO)
    leaf = panel.key
    listing = panel.list
    row = a_shown_row(panel)
    key, index = listing.card(row).source_id, listing.card(row).index
    before = listing.row_rect(row).top() + listing.mapTo(panel, QPoint(0, 0)).y()
    rect = listing.row_rect(row)
    click_at(qtbot, listing, row, QPoint(rect.width() - 4, rect.height() - 3))  # its frame, away from anything in it
    assert panel.controller.selected == key
    assert panel.key == key
    check_panel_matches_model(panel, key)
    same = next(r for r, item in enumerate(listing.rows) if item.entry.id == key and item.index == index)
    assert listing.row_rect(same).top() + listing.mapTo(panel, QPoint(0, 0)).y() == before  # no jump
    assert listing.look_for(listing.card(same), listing).selected == key
    assert panel.notice.isVisible()
    assert f"the context at {key}" in panel.notice_text.text()
    assert "later message" in listing.tail_text
    qtbot.mouseClick(panel.back_button, Qt.MouseButton.LeftButton)
    assert panel.controller.selected == leaf


def test_clicking_text_selects_but_selecting_text_does_not(qtbot, panel):
    open_session(qtbot, panel.controller, DEMO)
    row = a_shown_row(panel, with_text=True)
    card = panel.list.card(row)
    text = card.all_texts()[0]
    view = reach_text(qtbot, panel.list, row, text)
    assert view.document() is text.document and view.isVisible()
    assert view.geometry() == card.rect_of(text, panel.list.card_width())
    # A drag selects text and leaves the selection alone.
    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(4, 6))
    drag = QMouseEvent(
        QEvent.Type.MouseMove,
        QPointF(60, 8),
        QPointF(view.viewport().mapToGlobal(QPoint(60, 8))),
        Qt.MouseButton.LeftButton,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(view.viewport(), drag)
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(60, 8))
    assert view.textCursor().hasSelection()
    assert panel.controller.selected != card.source_id
    # A plain click selects the card's entry.
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(view.viewport().width() - 5, 4))
    assert panel.controller.selected == card.source_id


def test_a_cards_notes_can_be_selected_and_copied_as_its_texts(qtbot, panel):
    open_session(qtbot, panel.controller, DEMO)
    listing = panel.list
    row = max(row for row in range(len(listing.rows)) if listing.card(row).model_line is not None)
    note = listing.card(row).model_line
    view = reach_text(qtbot, listing, row, note)
    assert view.isVisible() and view.toPlainText() == note.text
    assert view.geometry() == listing.card(row).rect_of(note, listing.card_width())
    view.selectAll()
    view.copy()
    assert QApplication.clipboard().text() == note.text


def test_the_entry_link_of_a_card_header_selects_its_entry_by_mouse_and_by_keyboard(qtbot, panel):
    open_session(qtbot, panel.controller, DEMO)
    listing = panel.list
    row = a_shown_row(panel)
    card = listing.card(row)
    assert card.entry_part.text == card.source_id
    # Its tooltip names the entry and its line; the time's, the time.
    view = live(listing, row)
    assert f"Select entry {card.source_id} (line {card.item.entry.line})" in tooltip_at(view, point_of(view, card.entry_part))
    time = view.root.rect_of(card.time_part, view.width()).topLeft() + QPoint(2, 4)
    assert card.time_part.text in tooltip_at(view, time) and "Select entry" not in tooltip_at(view, time)
    # A click on the link selects the card's entry.
    click(qtbot, listing, row, card.entry_part)
    assert panel.controller.selected == card.source_id
    # The keyboard: ↑ to a card, Tab to its entry link, Space follows it.
    listing.setFocus()
    qtbot.waitUntil(listing.hasFocus)
    last = listing.currentIndex().row()
    qtbot.keyClick(listing, Qt.Key.Key_Up)
    target = listing.currentIndex().row()
    assert target == last - 1 and target in listing.visible_rows()
    other = listing.card(target)
    while listing.actions_.focus is not other.entry_part:
        qtbot.keyClick(listing, Qt.Key.Key_Tab)
        assert listing.currentIndex().row() == target and listing.hasFocus()
    qtbot.keyClick(listing, Qt.Key.Key_Space)
    assert panel.controller.selected == other.source_id


def test_clicking_a_nested_result_selects_the_result(qtbot, panel):
    open_session(qtbot, panel.controller, DEMO)
    panel.controller.select("a8817c81")
    listing = panel.list
    row, call = next(
        (row, call) for row in range(len(listing.rows)) for call in listing.card(row).tool_calls if call.result_frame is not None
    )
    expected = panel.controller.context("a8817c81").message_sources()[call.result_index].id
    view = live(listing, row)
    frame = view.root.rect_of(call.result_frame, view.width())
    click_at(qtbot, listing, row, QPoint(frame.center().x(), frame.top() + 2))  # its frame's top edge, above its line
    assert panel.controller.selected == expected


# ---- images, JSON, reloads -----------------------------------------------------------------------------------


def test_images_become_thumbnails_and_open_full_size(qtbot, panel):
    open_session(qtbot, panel.controller, DEMO)
    panel.controller.select("a8817c81")
    listing = panel.list
    rows = [row for row in range(len(listing.rows)) if listing.card(row).pictures]
    assert rows
    qtbot.waitUntil(lambda: all(picture.has_thumbnail for row in rows for picture in listing.card(row).pictures), timeout=10_000)
    last = listing.card(rows[-1]).pictures[-1]
    assert "16 × 16 px" in last.caption.text  # the card was built again with the image's size
    click(qtbot, listing, rows[-1], last.thumbnail)
    viewers = [w for w in QApplication.topLevelWidgets() if isinstance(w, ImageViewer) and w.isVisible()]
    assert viewers
    qtbot.waitUntil(lambda: "16 × 16 px" in viewers[0].info.text(), timeout=10_000)
    viewers[0].close()


def test_an_image_that_is_not_a_raster_says_so_in_its_card(qtbot, panel, tmp_path):
    # An SVG naming a local file, sent as image/png: never decoded, the card says why instead of a thumbnail.
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="/etc/hostname"/></svg>'
    block = {"type": "image", "data": base64.b64encode(svg).decode(), "mimeType": "image/png"}
    ids = write_session(tmp_path / "svg.jsonl", [{"role": "user", "content": [{"type": "text", "text": "look"}, block], "timestamp": 1}])
    open_session(qtbot, panel.controller, tmp_path / "svg.jsonl")
    panel.controller.select(ids[0])
    thumbnail = panel.list.card(0).pictures[0].thumbnail
    qtbot.waitUntil(lambda: thumbnail.state() != (None, None, ""), timeout=10_000)
    assert thumbnail.state() == (None, None, NOT_RASTER) and not thumbnail.has_thumbnail


def test_raw_json_of_the_selected_entry(qtbot, panel):
    open_session(qtbot, panel.controller, DEMO)
    panel.controller.select("d1f0de86")
    panel.tabs.setCurrentWidget(panel.raw)
    entry = panel.controller.session.entries["d1f0de86"]
    assert orjson.loads(panel.raw.text.toPlainText()) == entry.data
    assert panel.raw.text.isReadOnly()
    assert panel.raw.note.isHidden()
    panel.controller.select("2be4d6c0")
    assert orjson.loads(panel.raw.text.toPlainText())["customType"] == "git-guard"


def test_raw_json_clips_huge_values_but_copies_all(qtbot, panel, tmp_path):
    huge = "y" * 3_000_000
    ids = write_session(tmp_path / "huge.jsonl", [{"role": "user", "content": huge, "timestamp": 1}])
    open_session(qtbot, panel.controller, tmp_path / "huge.jsonl")
    panel.tabs.setCurrentWidget(panel.raw)
    assert panel.key == ids[0]
    assert len(panel.raw.text.toPlainText()) < 10_000
    assert "clipped for display" in panel.raw.note.text()
    panel.raw.copy_button.click()
    copied = QApplication.clipboard().text()
    assert orjson.loads(copied)["message"]["content"] == huge


def test_reload_keeps_the_cards(qtbot, panel, tmp_path):
    path = tmp_path / "grow.jsonl"
    ids = write_session(path, [{"role": "user", "content": f"message {n}", "timestamp": 1} for n in range(6)])
    open_session(qtbot, panel.controller, path)
    panel.controller.select(ids[3])
    cards = [panel.list.card(row) for row in range(len(panel.list.rows))]
    assert len(cards) == 4
    append(
        path,
        {"type": "label", "id": "aaaaaaaa", "parentId": ids[-1], "timestamp": "2026-01-02T00:00:00.000Z", "targetId": ids[1], "label": "x"},
    )  # pi appends a label
    with qtbot.waitSignal(panel.controller.changed, check_params_cb=replaced, timeout=10_000):
        panel.controller.reload()
    assert panel.key == ids[3]
    after = [panel.list.card(row) for row in range(len(panel.list.rows))]
    # The same cards, but the one whose entry got a label, built again to show it.
    assert [a is b for a, b in zip(cards, after)] == [True, False, True, True]
    assert after[1].shown_label() == "x" and cards[1].shown_label() is None


def test_a_row_whose_card_could_not_be_built_is_passed_by_when_the_cards_are_asked_what_they_show(
    qtbot, panel, tmp_path, monkeypatch, caplog
):
    # A row whose card raised shows a failure line in its place: a bare row of pieces, with none of a
    # card's facts. Another node of the branch, a label written, thinking opened ask the built cards
    # what they show; the failure line is not a card and must not stop them.
    path = tmp_path / "failing.jsonl"
    ids = write_session(path, [{"role": "user", "content": f"message {n}", "timestamp": 1} for n in range(6)])
    open_session(qtbot, panel.controller, path)
    panel.controller.select(ids[3])
    real = message_list.build_card

    def failing(item, *args, **kwargs):
        if item.index == 1:
            raise ValueError("this card cannot be built")
        return real(item, *args, **kwargs)

    monkeypatch.setattr(message_list, "build_card", failing)
    listing = panel.list
    listing.forget_row(listing.rows[1])
    with caplog.at_level(logging.ERROR):
        assert not isinstance(listing.card(1), Card)  # the failure line, logged
    assert any("MessageList.build_root failed" in record.getMessage() for record in caplog.records)
    listing.set_expand_thinking(True)
    listing.refresh_labels()
    listing.show_rows(listing.info, list(listing.rows), Stay())
    assert [isinstance(listing.card(row), Card) for row in range(len(listing.rows))] == [True, False, True, True]


def test_a_search_marks_the_live_cards_texts_while_a_note_of_it_is_selectable(qtbot, panel, tmp_path):
    # The mouse over a note lays a text view over its words (to select them) as over a text; a search
    # then marks the texts' views, and a note's view, which has no marks, is passed by.
    ids = write_session(tmp_path / "note.jsonl", [{"role": "user", "content": [], "timestamp": 1}])
    open_session(qtbot, panel.controller, tmp_path / "note.jsonl")
    panel.controller.select(ids[0])
    view = live(panel.list, 0)
    note = next(piece for piece in view.root.pieces() if isinstance(piece, WrappedText) and piece.text == "(empty content)")
    hover(view, point_of(view, note))
    assert note in view.texts
    panel.set_search("empty")
    marked = [text for text, text_view in view.texts.items() if text_view.extraSelections()]
    assert marked == []  # a note is not searched: its words are the view's, not the message's
    assert view.isVisible()


# ---- untrusted content inside cards ------------------------------------------------------------------------------


def test_cards_show_markup_and_escapes_inertly(qtbot, panel, tmp_path):
    secret = tmp_path / "secret.png"
    from PySide6.QtGui import QImage

    image = QImage(4, 4, QImage.Format.Format_RGB32)
    image.save(str(secret))
    text = f"<script>alert(1)</script> ![x](file://{secret}) ![y](https://tracker.example/p.png) \x1b[31mred\x1b[0m"
    sneaky = "<img src='file:///etc/passwd'>"
    call = {"type": "toolCall", "id": sneaky, "name": "<b>tool</b>", "arguments": {"x": "<i>y</i>"}}
    write_session(
        tmp_path / "evil.jsonl",
        [
            {"role": "user", "content": text, "timestamp": 1},
            {"role": "assistant", "content": [call], "provider": "<b>p</b>", "model": "m", "timestamp": 2},
            {
                "role": "toolResult",
                "toolCallId": sneaky,
                "toolName": "<b>tool</b>",
                "content": [{"type": "text", "text": "<u>out</u>"}],
                "isError": False,
                "timestamp": 3,
            },
            {"type": "custom_message", "customType": "<b>type</b>", "content": "c", "display": True},
        ],
    )
    open_session(qtbot, panel.controller, tmp_path / "evil.jsonl")
    panel.controller.select(panel.controller.session.file_order[0].id)
    card = panel.list.card(0)
    shown = card.shown_text()
    assert "<script>alert(1)</script>" in shown
    assert "\x1b" not in shown and "red" in shown
    url = f"file://{secret}"
    assert f"[image: x — {url if len(url) <= 80 else url[:79] + '…'} not loaded]" in shown
    assert all(
        text.document.refused == [] or all("tracker" in r or "secret" in r for r in text.document.refused) for text in card.all_texts()
    )
    panel.controller.select(panel.controller.session.leaf_id)
    cards = [panel.list.card(row) for row in range(len(panel.list.rows))]
    assert cards[-1].role_label() == "Custom · <b>type</b>"
    # Names and ids from the file show as typed, and tooltips cannot be taken for HTML.
    calling = cards[1]
    assert "<i>y</i>" in calling.shown_text() and "<u>out</u>" in calling.shown_text()
    assert "→ <b>tool</b>" in [line for card in cards for line in card.shown_lines()]
    tips = [piece.tip for card in cards for piece in card.pieces() if piece.tip]
    tips += [part.tip for card in cards for piece in card.pieces() if isinstance(piece, Line) for part in piece.shown() if part.tip]
    assert any("&lt;img src=&#x27;file:///etc/passwd&#x27;&gt;" in tip for tip in tips)
    assert not any("<img" in tip or "<b>" in tip for tip in tips)


# ---- scale ------------------------------------------------------------------------------------------------------------


def test_thousands_of_messages_build_only_the_cards_that_show(qtbot, panel, tmp_path):
    messages = []
    for n in range(3000):
        if n % 2 == 0:
            messages.append({"role": "user", "content": f"question {n}", "timestamp": 1})
        else:
            messages.append(
                {"role": "assistant", "content": [{"type": "text", "text": f"answer {n}"}], "provider": "p", "model": "m", "timestamp": 1}
            )
    write_session(tmp_path / "long.jsonl", messages)
    open_session(qtbot, panel.controller, tmp_path / "long.jsonl")
    listing = panel.list
    assert len(listing.rows) == 3000
    shown = listing.visible_rows()
    assert shown[-1] == 2999
    assert_view_is_painted_as_measured(listing)
    # Built: what shows and a third of a view past it; measured likewise; the rest counts with an estimate.
    built = {listing.row_of(item) for item, _ in listing.built()}
    assert set(shown) <= built and len(built) < len(shown) + 12
    measured = [row for row in range(3000) if listing.geometry_of_rows.is_measured(row, listing.card_width())]
    assert measured == sorted(built)
    # Every row is there to scroll to.
    assert panel.scroll_to_message(0) is listing.card(0)
    assert 0 in listing.visible_rows()
    assert_view_is_painted_as_measured(listing)


def test_a_row_is_found_by_its_object_through_every_change_of_rows(qtbot, panel):
    # Steps along a path and across branches: rows kept (the same or an equal new object), removed,
    # inserted. Each shown object answers its own row; an object no longer shown answers None.
    open_session(qtbot, panel.controller, session_file("generated-s2"))
    listing, gone = panel.list, []
    keys = sample_keys(panel.controller.session)
    assert len(keys) >= 10
    for key in [*keys, *reversed(keys)]:
        before = list(listing.rows)
        panel.controller.select(key)
        rows = listing.rows
        assert [listing.row_of(item) for item in rows] == list(range(len(rows)))
        gone += [item for item in before if not any(item is row for row in rows)]
        assert all(listing.row_of(item) is None for item in gone)
    assert gone  # the rows did change under the index


def test_a_screen_reader_hears_the_cards_as_the_rows_of_a_list(qtbot, panel):
    # Why the card list is a QListView (ui/cards/row_view.py): Qt's accessibility gives a list's rows
    # to a QListView, and to a bare QAbstractItemView only one blank widget.
    open_session(qtbot, panel.controller, FIXTURES / "blog-example.jsonl")
    face = QAccessible.queryAccessibleInterface(panel.list)
    assert face.role() == QAccessible.Role.List
    heard = [face.child(row).text(QAccessible.Text.Name) for row in range(face.childCount())]
    assert heard == [describe(item) for item in panel.list.rows] and len(heard) >= 5


def test_showing_a_context_does_its_work_at_once_and_nothing_after(qtbot, panel, tmp_path):
    long_session(tmp_path, 300)
    open_session(qtbot, panel.controller, tmp_path / "long.jsonl")
    listing = panel.list
    for _ in range(3):
        QApplication.processEvents()  # the panel's own layout settles (its header took the new context)
    for rows in (listing.rows[:120], listing.rows, listing.rows[:40]):
        listing.show_rows(listing.info, rows, ToEnd())
        assert_view_is_painted_as_measured(listing)
        built, value = [root for _, root in listing.built()], listing.verticalScrollBar().value()
        for _ in range(3):
            QApplication.processEvents()
        assert [root for _, root in listing.built()] == built and listing.verticalScrollBar().value() == value


def test_scrolling_up_keeps_what_is_on_screen_in_place(qtbot, panel, tmp_path):
    long_session(tmp_path, 600)
    open_session(qtbot, panel.controller, tmp_path / "long.jsonl")
    listing, bar = panel.list, panel.list.verticalScrollBar()
    # Scrolling up a step at a time: the cards measured above move the position with them, the ones on screen never move.
    steps = 0
    while bar.value() > 0 and steps < 400:
        row, offset = listing.top_anchor()
        bar.setValue(bar.value() - 150)
        moved = listing.row_rect(row).top() - offset
        assert moved == 150 or bar.value() == 0
        assert_view_is_painted_as_measured(listing)
        steps += 1
    assert 0 in listing.visible_rows() and steps > 10
    # A drag of the bar far down lands on rows measured before they paint.
    bar.setValue(bar.maximum() // 2)
    assert_view_is_painted_as_measured(listing)


def test_a_far_jump_goes_to_its_target(qtbot, panel, tmp_path):
    ids = long_session(tmp_path, 3000, "question {n}")
    open_session(qtbot, panel.controller, tmp_path / "long.jsonl")
    card = panel.scroll_to_message(10)
    assert isinstance(card, Card) and card.index == 10
    assert 10 in panel.list.visible_rows() and panel.list.flashed is panel.list.rows[10]
    assert_view_is_painted_as_measured(panel.list)
    panel.controller.select(ids[1500])
    check_panel_matches_model(panel, ids[1500])


def test_a_step_along_the_path_changes_only_the_rows_that_changed(qtbot, panel, tmp_path):
    ids = long_session(tmp_path, 200)
    open_session(qtbot, panel.controller, tmp_path / "long.jsonl")
    listing, model = panel.list, panel.list.rows_model
    changes = []
    model.rowsRemoved.connect(lambda parent, first, last: changes.append(("removed", first, last)))
    model.rowsInserted.connect(lambda parent, first, last: changes.append(("inserted", first, last)))
    model.modelReset.connect(lambda: changes.append(("reset",)))
    kept = [listing.card(row) for row in listing.visible_rows()][:-1]
    panel.controller.select(ids[-2])  # ↑: the last message goes
    assert changes == [("removed", 199, 199)]
    assert [listing.card(row) for row in listing.visible_rows() if row < 199][-len(kept) :] == kept
    changes.clear()
    panel.controller.select(ids[-1])  # ↓: it comes back
    assert changes == [("inserted", 199, 199)]
    check_panel_matches_model(panel, ids[-1])


def test_huge_text_and_image_are_clipped_and_decoded_off_the_gui_thread(qtbot, panel, tmp_path, big_png_base64):
    _, encoded = big_png_base64
    text = "line of text\n" * 800_000  # 10.4 MB
    ids = write_session(
        tmp_path / "heavy.jsonl",
        [
            {"role": "user", "content": text, "timestamp": 1},
            {
                "role": "user",
                "content": [{"type": "text", "text": "look"}, {"type": "image", "data": encoded, "mimeType": "image/png"}],
                "timestamp": 1,
            },
        ],
    )
    open_session(qtbot, panel.controller, tmp_path / "heavy.jsonl")
    panel.controller.select(ids[0])
    panel.controller.select(ids[1])
    listing = panel.list
    big = listing.card(0)
    assert len(big.shown_text()) <= 4100
    more = next(part for piece in big.pieces() if isinstance(piece, Line) for part in piece.links() if part.text.startswith("Show all"))
    assert more.text == f"Show all ({len(text):,} characters)"
    qtbot.waitUntil(lambda: listing.card(1).pictures[0].has_thumbnail, timeout=30_000)
    # "Show all" of 10 MB opens a paged viewer; Copy all takes every character.
    click(qtbot, listing, 0, more)
    viewer = next(w for w in QApplication.topLevelWidgets() if isinstance(w, TextViewer) and w.isVisible())
    assert viewer.pages == -(-len(text) // TextViewer.PAGE)
    assert viewer.view.toPlainText() == text[: TextViewer.PAGE]
    viewer.next.click()
    assert viewer.page == 1
    assert viewer.position.text().startswith(f"characters {TextViewer.PAGE + 1:,}–")
    viewer.findChild(QPushButton, "copyAll").click()
    assert QApplication.clipboard().text() == text
    viewer.close()


def test_show_all_shows_a_long_text_whole_in_its_card(qtbot, panel, tmp_path):
    text = "\n".join(f"line {n} of a long answer" for n in range(400))  # over the card's 4,000 characters
    write_session(tmp_path / "long.jsonl", [{"role": "user", "content": text, "timestamp": 1}])
    open_session(qtbot, panel.controller, tmp_path / "long.jsonl")
    listing = panel.list
    card = listing.card(0)
    assert "line 399" not in card.shown_text()
    more = next(part for piece in card.pieces() if isinstance(piece, Line) for part in piece.links() if part.text.startswith("Show all"))
    click(qtbot, listing, 0, more)
    card = listing.card(0)
    assert "line 399 of a long answer" in card.shown_text()
    assert not [part for piece in card.pieces() if isinstance(piece, Line) for part in piece.links() if part.text.startswith("Show all")]
    assert_view_is_painted_as_measured(listing)


def test_an_entry_without_messages_says_so(qtbot, panel, monkeypatch):
    open_session(qtbot, panel.controller, DEMO)
    panel.controller.select("9c23e849")  # a label
    assert (
        panel.list.tail_text == "The selected entry 9c23e849 (label) adds no message of its own; this is the context of the path up to it."
    )
    assert panel.list.footer_height() > 0
    # The note under the last card is drawn when the list is (the view shows its end).
    painted = []
    paint = WrappedText.paint
    monkeypatch.setattr(WrappedText, "paint", lambda self, *args: (painted.append(self.text), paint(self, *args)))
    panel.list.viewport().grab()
    assert panel.list.tail_text in painted
    check_panel_matches_model(panel, "9c23e849")
    panel.controller.select("67cb4c98")
    assert panel.list.tail_text == "" and panel.list.footer_height() == 0


@pytest.mark.parametrize("width", [420, 900])
def test_cards_get_the_height_their_text_needs(qtbot, panel, width):
    # Nothing is cut off and nothing is left blank, at a narrow dock width and a wide one.
    panel.resize(width, 900)
    open_session(qtbot, panel.controller, DEMO)
    listing = panel.list
    for key in ("a8817c81", "5ffa6433", panel.controller.session.leaf_id):
        panel.controller.select(key)
        for row in listing.visible_rows():
            card, card_width = listing.card(row), listing.card_width()
            assert listing.row_rect(row).height() == card.height(card_width), (key, row)
            for text, rect, _ in card.texts_at(card_width):
                # Laid out for the width it is painted at, as tall as the text is there, inside the card.
                assert text.document.textWidth() == rect.width()
                assert rect.height() == int(text.document.size().height() + 0.999)
                assert 0 <= rect.top() and rect.bottom() < card.height(card_width)
        assert_view_is_painted_as_measured(listing)


def test_a_card_lays_its_texts_out_only_for_the_width_they_get(qtbot, panel, monkeypatch):
    open_session(qtbot, panel.controller, DEMO)
    asked: dict[Text, set[int]] = {}
    measure = Text.measure

    def noted(text, width):
        asked.setdefault(text, set()).add(width)
        return measure(text, width)

    monkeypatch.setattr(Text, "measure", noted)
    panel.controller.select("5ffa6433")
    listing = panel.list
    placed = [(text, rect.width()) for row in listing.visible_rows() for text, rect, _ in listing.card(row).texts_at(listing.card_width())]
    assert len(placed) >= 5
    for text, width in placed:
        assert asked.get(text) == {width}, (text.plain_text()[:40], asked.get(text), width)


def test_moving_along_a_branch_keeps_the_cards_that_stay(qtbot, panel, tmp_path):
    call = {"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"command": "ls"}}
    ids = write_session(
        tmp_path / "line.jsonl",
        [
            {"role": "user", "content": "list the files", "timestamp": 1},
            {"role": "assistant", "content": [{"type": "text", "text": "looking"}, call], "provider": "p", "model": "m", "timestamp": 2},
            {
                "role": "toolResult",
                "toolCallId": "c1",
                "toolName": "bash",
                "content": [{"type": "text", "text": "a.txt b.txt"}],
                "isError": False,
                "timestamp": 3,
            },
            {"role": "assistant", "content": [{"type": "text", "text": "two files"}], "provider": "p", "model": "m", "timestamp": 4},
            {"role": "user", "content": "thanks", "timestamp": 5},
        ],
    )
    open_session(qtbot, panel.controller, tmp_path / "line.jsonl")
    listing = panel.list
    panel.controller.select(ids[1])  # the call, before its result exists
    first, asking = listing.card(0), listing.card(1)
    assert asking.tool_calls[0].result_index is None
    assert "↳ no result for this call in this context" in asking.shown_lines()
    # Further down the branch: the first card stays; the call's card is built again to hold its result.
    panel.controller.select(ids[3])
    cards = [listing.card(row) for row in range(len(listing.rows))]
    assert cards[0] is first and cards[1] is not asking
    assert cards[1].tool_calls[0].result_index == 2 and "a.txt b.txt" in cards[1].tool_calls[0].result_text()
    assert "↳ no result for this call in this context" not in cards[1].shown_lines()
    assert [card.index for card in cards] == [0, 1, 2, 3]
    look = listing.look_for(cards[3], listing)
    assert look.selected == cards[3].source_id != cards[1].source_id
    bar = listing.verticalScrollBar()
    assert bar.value() == bar.maximum()
    check_panel_matches_model(panel, ids[3])
    # Back up the branch (as from the tree): the cards before stay, the rest go.
    panel.controller.select(ids[2])
    assert [listing.card(row) for row in range(len(listing.rows))] == cards[:3]
    check_panel_matches_model(panel, ids[2])
    # Above the result again: the call's card says so, as one built afresh would.
    panel.controller.select(ids[1])
    again = [listing.card(row) for row in range(len(listing.rows))]
    assert again[0] is first and again[1].tool_calls[0].result_index is None
    assert again[1].tool_calls[0].result_text() == ""
    assert "↳ no result for this call in this context" in again[1].shown_lines()
    check_panel_matches_model(panel, ids[1])


# ---- labels -----------------------------------------------------------------------------------


def test_labels_show_on_the_header_and_on_their_cards(qtbot, panel):
    controller = panel.controller
    session = open_session(qtbot, controller, DEMO)
    labeled = "c5a6f36b"  # the demo's "lint clean", an assistant message
    controller.select(labeled)
    header = panel.header
    on_path = [entry.id for entry in controller.context(labeled).path if entry.id in session.labels]
    assert labeled in on_path and len(on_path) >= 2
    assert header.label_value.text() == f"“{session.labels[labeled]}” · {len(on_path) - 1} more on the path"
    assert header.set_label_button.text() == "Edit…" and header.clear_label_button.isEnabled()
    assert header.path_labels_button.text() == f"On path ({len(on_path)})"
    assert panel.list.card(row_of(panel, labeled)).shown_label() == "lint clean"
    cards = [panel.list.card(row) for row in range(len(panel.list.rows))]
    assert sum(card.shown_label() is not None for card in cards) >= 2
    for card in cards:
        assert (card.shown_label() is not None) == (card.source_id in session.labels)
    # The path menu, filled as it opens, lists the labels root first, and picking one selects its entry.
    assert header.path_labels_menu.actions() == []
    header.path_labels_menu.aboutToShow.emit()
    actions = header.path_labels_menu.actions()
    assert [action.text().split("  —  ")[0] for action in actions] == [session.labels[key] for key in on_path]
    actions[0].trigger()
    assert controller.selected == on_path[0]
    assert header.label_value.text().startswith(f"“{session.labels[on_path[0]]}”")


def test_an_unlabeled_entry_offers_set_and_no_clear(qtbot, panel):
    controller = panel.controller
    session = open_session(qtbot, controller, FIXTURES / "blog-example.jsonl")
    key = next(key for key in session.path_to(session.leaf_id) if key not in session.labels)
    controller.select(key)
    header = panel.header
    assert header.label_value.text().startswith("none on this entry")
    assert header.set_label_button.text() == "Set…" and not header.clear_label_button.isEnabled()


def test_a_label_written_appears_at_once_and_clearing_removes_it(qtbot, panel, tmp_path):
    path = tmp_path / "demo.jsonl"
    path.write_bytes(DEMO.read_bytes())
    controller = panel.controller
    session = open_session(qtbot, controller, path)
    key = next(item.entry.id for item in reversed(panel.rows()) if item.entry.id not in session.labels and item.role == "user")
    controller.select(key)
    row = row_of(panel, key)
    assert panel.card_at(row).shown_label() is None and row in panel.list.visible_rows()
    with qtbot.waitSignal(controller.changed, check_params_cb=appended, timeout=10000):
        LabelEditor(controller, panel).write(key, "needs <b>review</b> & more")
    assert panel.card_at(row).shown_label() == "needs <b>review</b> & more"
    assert panel.header.label_value.text().startswith("“needs <b>review</b> & more”")
    assert panel.header.clear_label_button.isEnabled()
    panel.header.path_labels_menu.aboutToShow.emit()
    menu_texts = [action.text() for action in panel.header.path_labels_menu.actions()]
    assert any(text.startswith("needs <b>review</b> && more") for text in menu_texts)  # & doubled: no mnemonic
    with qtbot.waitSignal(controller.changed, check_params_cb=appended, timeout=10000):
        LabelEditor(controller, panel).write(key, None)
    assert panel.card_at(row).shown_label() is None
    assert panel.header.label_value.text().startswith("none on this entry")


# ---- theme ------------------------------------------------------------------------------------


def test_switching_to_a_dark_palette_recolours_muted_text(qtbot, panel):
    from PySide6.QtGui import QColor, QPalette

    from pibrowser.ui.style.colors import mix

    controller = panel.controller
    open_session(qtbot, controller, DEMO)
    controller.select("5c753be3")
    listing = panel.list
    card = listing.card(len(listing.rows) - 1)
    app = QApplication.instance()
    light = app.palette()
    dark = QPalette(light)
    for role, color in (
        (QPalette.ColorRole.Window, "#202020"),
        (QPalette.ColorRole.WindowText, "#f0f0f0"),
        (QPalette.ColorRole.Base, "#181818"),
        (QPalette.ColorRole.Text, "#f0f0f0"),
    ):
        dark.setColor(role, QColor(color))
    role = QPalette.ColorRole.WindowText

    def time_colour() -> QColor:
        return listing.look_for(card, listing.viewport()).text_color(card.time_part.mute)

    assert time_colour() == mix(light.color(role), light.color(QPalette.ColorRole.Window), 0.45)
    try:
        app.setPalette(dark)
        qtbot.waitUntil(lambda: time_colour() == mix(QColor("#f0f0f0"), QColor("#202020"), 0.45), timeout=3000)
        # The muted time is still quieter than the message text, and readable on the dark window.
        assert time_colour().lightness() > QColor("#202020").lightness() + 60
    finally:
        app.setPalette(light)
    qtbot.waitUntil(lambda: time_colour() == mix(light.color(role), light.color(QPalette.ColorRole.Window), 0.45), timeout=3000)


# ---- copying ----------------------------------------------------------------------------------


def test_copy_as_pi_json_is_pis_context_for_the_node(qtbot, panel):
    import json

    expected = json.loads((FIXTURES / "generated-s3.expected.json").read_text())["contexts"]
    session = open_session(qtbot, panel.controller, FIXTURES / "generated-s3.jsonl")
    for key in sample_keys(session, 4):
        panel.controller.select(key)
        panel.header.copy_json_action.trigger()
        copied = json.loads(QApplication.clipboard().text())
        assert copied == {"leaf": key, **expected[key]}


def test_copies_are_never_clipped(qtbot, panel, tmp_path):
    long_text = "word " * 20_000  # 100,000 characters: the cards and the CLI's text form clip this
    ids = write_session(tmp_path / "long.jsonl", [{"role": "user", "content": long_text, "timestamp": 1}])
    open_session(qtbot, panel.controller, tmp_path / "long.jsonl")
    panel.controller.select(ids[-1])
    panel.header.copy_button.click()
    assert long_text.strip() in QApplication.clipboard().text()
    assert "more characters" not in QApplication.clipboard().text()


def test_a_cards_menu_copies_its_text_json_and_id(qtbot, panel):
    import json

    open_session(qtbot, panel.controller, DEMO)
    panel.controller.select("5c753be3")
    row = max(row for row, item in enumerate(panel.list.rows) if item.role == "user")
    card = panel.list.card(row)
    assert panel.controller.selected != card.source_id
    menu = right_click(panel.list, row)
    actions = {action.text(): action for action in menu.actions() if action.text()}
    actions["Copy Text"].trigger()
    content = card.message["content"]
    text = content if isinstance(content, str) else "\n".join(block["text"] for block in content if block.get("type") == "text")
    assert QApplication.clipboard().text() == text
    actions["Copy Message JSON"].trigger()
    assert json.loads(QApplication.clipboard().text()) == card.message
    assert QApplication.clipboard().text() == dump_json_indented(card.message)
    actions[f"Copy Entry Id ({card.source_id})"].trigger()
    assert QApplication.clipboard().text() == card.source_id
    menu.close()
    source = card.source_id
    with qtbot.waitSignal(panel.controller.changed, check_params_cb=selected, timeout=2000):
        actions[f"Select Entry {source}"].trigger()
    assert panel.controller.selected == source


def test_a_cards_menu_copies_the_tool_call_ids_it_shows_shortened(qtbot, panel):
    def expected_ids(message):
        if message.get("role") == "toolResult":
            return [message["toolCallId"]]
        content = message.get("content")
        return [block["id"] for block in content if block.get("type") == "toolCall"] if isinstance(content, list) else []

    open_session(qtbot, panel.controller, DEMO)
    panel.controller.select("5c753be3")
    rows = panel.list.rows
    seen = set()
    for role in ("assistant", "toolResult"):
        row = max(row for row, item in enumerate(rows) if item.role == role and expected_ids(item.message))
        ids = expected_ids(rows[row].message)
        menu = right_click(panel.list, row)
        actions = [action for action in menu.actions() if "Tool Call Id" in action.text()]
        assert len(actions) == 1
        actions[0].trigger()
        assert QApplication.clipboard().text() == "\n".join(ids)
        menu.close()
        seen.update(ids)
    assert seen and all(key.startswith("toolu_") for key in seen)
    user = max(row for row, item in enumerate(rows) if item.role == "user")
    menu = right_click(panel.list, user)
    assert not [action for action in menu.actions() if "Tool Call Id" in action.text()]
    menu.close()


def test_the_header_shows_an_id_with_control_characters_on_one_line(qtbot, panel, tmp_path):
    from ..hostile import make

    open_session(qtbot, panel.controller, make(tmp_path, "control_characters"))
    panel.controller.select("a\n1")
    header = panel.header
    assert header.title.text() == "Context at a\u240a1"
    assert "\x1b" not in header.subtitle.text() and "\n" not in header.subtitle.text()


# ---- search -------------------------------------------------------------------------------------


def test_f3_goes_to_every_occurrence_in_the_context(qtbot, panel, tmp_path):
    said = {5: "the needle is here", 40: "a **needle** in bold", 77: "needle and needle"}
    messages = [{"role": "user", "content": said.get(n, f"hay {n}\n\nmore hay"), "timestamp": 1} for n in range(120)]
    write_session(tmp_path / "hay.jsonl", messages)
    open_session(qtbot, panel.controller, tmp_path / "hay.jsonl")
    panel.set_search("Needle")
    search, listing = panel.search, panel.list
    assert not set(listing.visible_rows()) & {5, 40, 77}  # none of them shows yet

    def current_row() -> int:
        row, text, cursor = search.current_text()
        assert cursor.selectedText().casefold() == "needle"
        rect = text.cursor_rect(cursor, listing.card_width()).translated(listing.card(row).rect_of(text, listing.card_width()).topLeft())
        assert listing.viewport().rect().contains(rect.translated(listing.row_rect(row).topLeft()).center())  # it shows
        return row

    # From the end of the context, F3 wraps round to the first occurrence, then walks them in order.
    seen = []
    for _ in range(5):
        assert search.step(1)
        seen.append(current_row())
        assert_view_is_painted_as_measured(listing)
    assert seen == [5, 40, 77, 77, 5]
    # Shift+F3 walks them back.
    assert search.step(-1) and current_row() == 77
    assert search.step(-1) and current_row() == 77
    assert search.step(-1) and current_row() == 40
    # Every occurrence in a shown text is marked, the current one apart.
    marks = listing.marks(listing.card(77).texts[0].document)
    assert len(marks) == 2 and len({mark.background().color().name() for _, mark in marks}) == 1
    marks = listing.marks(listing.card(40).texts[0].document)
    assert (
        len(marks) == 1 and marks[0][1].background().color() != listing.marks(listing.card(77).texts[0].document)[0][1].background().color()
    )


# ---- sizes ------------------------------------------------------------------------------------


def test_a_taller_panel_measures_the_cards_its_bigger_view_shows(qtbot, panel, tmp_path):
    long_session(tmp_path, 300)
    panel.resize(760, 420)
    open_session(qtbot, panel.controller, tmp_path / "long.jsonl")
    listing = panel.list
    qtbot.waitUntil(lambda: listing.viewport().height() < 420)
    assert_view_is_painted_as_measured(listing)
    listing.scroll_to(ToStart())
    assert listing.verticalScrollBar().value() == 0
    shown = len(listing.visible_rows())
    height = listing.viewport().height()
    panel.resize(760, 1200)
    qtbot.waitUntil(lambda: listing.viewport().height() > height + 500, timeout=5000)
    assert listing.verticalScrollBar().value() == 0  # at the top: growing the view keeps it there
    assert len(listing.visible_rows()) > shown
    assert_view_is_painted_as_measured(listing)


def test_narrow_cards_wrap_and_never_cut_a_role_or_an_id(qtbot, panel):
    # At the width of a compare column, or of a small window's dock: the header's parts wrap onto more lines.
    open_session(qtbot, panel.controller, DEMO)
    listing = shown(qtbot, MessageList(panel.images), 236, 900)
    listing.show_rows(panel.info, panel.list.rows, ToEnd())
    width = listing.card_width()
    assert width < 220
    inner = width - 24  # inside the card's own margins
    wrapped = 0
    for row in range(len(listing.rows)):
        card = listing.card(row)
        for part in (
            card.role_part,
            card.number_part,
            card.entry_part,
            *(part for part in card.header.shown() if part.shape.value == "outline"),
        ):
            rect = card.header.rect_of(part, inner)
            assert rect is not None and 0 <= rect.left() and rect.right() < inner, (row, part.text)
            assert card.header.shown_text(part, inner) == part.text
        time = card.header.shown_text(card.time_part, inner)
        assert time in (card.time_part.text, *card.time_part.shorter) and card.time_part.tip  # or shortened, with its tooltip
        for call in card.tool_calls:
            assert all(
                rect.right() < inner - 16
                for rect in (call.name_line.rect_of(part, inner - 16) for part in call.name_line.shown() if part.text)
            )
        wrapped += card.header.height(inner) > card.header.height(2000)
    assert wrapped >= len(listing.rows) // 2
    assert_view_is_painted_as_measured(listing)


def test_rows_are_named_for_screen_readers(qtbot, panel):
    open_session(qtbot, panel.controller, DEMO)
    model, rows = panel.list.rows_model, panel.list.rows
    for row in (0, len(rows) - 1):
        name = model.data(model.index(row, 0), Qt.ItemDataRole.AccessibleTextRole)
        assert rows[row].entry.id in name and (f"#{rows[row].index + 1}" in name)
    view = live(panel.list, len(rows) - 1)
    assert view.accessibleName().startswith(" ".join(view.root.header.texts()))


def test_a_copied_message_is_written_as_pis_json_stringify_writes_it():
    message = {"role": "assistant", "usage": {"cost": 2.0, "input": 1e21}, "0": "index key", "timestamp": 1.5}
    assert message_json(message) == (
        '{\n  "0": "index key",\n  "role": "assistant",\n  "usage": {\n    "cost": 2,\n    "input": 1e+21\n  },\n  "timestamp": 1.5\n}'
    )
