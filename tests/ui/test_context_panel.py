"""The context panel, driven through the controller like the app does.

Each check compares what the panel shows with what the model says pi sends.
"""

import re
from pathlib import Path

import orjson
import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QPoint, Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication, QPushButton

from pibrowser.model import Part, path_provenance
from pibrowser.model.js.stringify import dump_json_indented
from pibrowser.model.tokens.stats import context_stats
from pibrowser.ui.context.card_menu import message_json
from pibrowser.ui.context.images import ImageViewer
from pibrowser.ui.context.inline_row import InlineRow
from pibrowser.ui.context.message_card import MessageCard
from pibrowser.ui.context.message_list import MessageList
from pibrowser.ui.context.panel import ContextPanel
from pibrowser.ui.context.text_sheet import TextSheet
from pibrowser.ui.context.text_viewer import TextViewer
from pibrowser.ui.control.controller import SessionController
from pibrowser.ui.labels.label_editor import LabelEditor

from ..conftest import DEMO, FIXTURES, open_session, session_file, shown
from ..sessions import append, linked, write
from ..changes import appended, replaced, selected

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
    context = panel.controller.context(key)
    sources = context.message_sources()
    sent = [row for row in panel.list.rows if not row.dropped]
    assert [row.message for row in sent] == context.messages
    assert [row.index for row in sent] == list(range(len(context.messages)))
    assert_cards_fill_the_view(panel.list)
    cards = [card for card in panel.cards() if not card.item.dropped]
    if context.messages:
        assert cards[-1].index == len(context.messages) - 1  # the selected entry's context ends on screen
    first = cards[0].index if cards else 0
    for offset, card in enumerate(cards):
        index = first + offset
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


def assert_cards_fill_the_view(message_list: MessageList) -> None:
    """The cards are those of consecutive rows and cover the view; past it they reach by the margin
    wherever there are rows to show, once the list has built it (a new list does when the user
    pauses: here its timer is fired at once)."""
    assert_cards_cover(message_list, 0)
    if message_list._margin_timer.isActive():
        message_list._margin_timer.stop()
        message_list._margin_timer.timeout.emit()
    assert_cards_cover(message_list, message_list._margin())


def assert_cards_cover(message_list: MessageList, margin: int) -> None:
    cards, rows = message_list.cards(), message_list.rows
    assert [card.item for card in cards] == rows[message_list.start : message_list.end]
    assert len(cards) <= MessageList.MAX_LIVE
    if not rows:
        return
    top, view = message_list.verticalScrollBar().value(), message_list.viewport().height()
    assert cards
    if message_list.start > 0:
        assert cards[0].y() <= top - margin
    if message_list.end < len(rows):
        # A card covers the rows y … y + height - 1 (QRect.bottom()), as the list's _overhang counts.
        assert cards[-1].geometry().bottom() + 1 >= top + view + margin


def test_a_new_list_is_not_built_again_at_the_next_turns(qtbot, panel, tmp_path):
    # Its own relayout moves the scroll bar: that is not the user scrolling, and must not
    # build more cards (and paint them all twice) before the user pauses.
    messages = [{"role": "user", "content": f"question {n}\n\nwith a second paragraph", "timestamp": 1} for n in range(300)]
    write_session(tmp_path / "long.jsonl", messages)
    open_session(qtbot, panel.controller, tmp_path / "long.jsonl")
    listing = panel.list
    for rows in (listing.rows[:120], listing.rows, listing.rows[:40]):
        listing.set_rows(listing.info, rows)
        shown = listing.cards()
        for _ in range(3):
            QCoreApplication.processEvents()
        assert listing.cards() == shown and not listing._fill_timer.isActive()
    # A view made smaller is still covered: the margin it now lacks waits for the pause too.
    qtbot.waitUntil(lambda: not listing._margin_timer.isActive(), timeout=5000)
    shown = listing.cards()
    panel.resize(panel.width(), panel.height() - 60)
    for _ in range(3):
        QCoreApplication.processEvents()
    assert listing.cards() == shown and not listing._fill_timer.isActive()
    assert_cards_fill_the_view(listing)


def test_a_new_list_builds_what_shows_at_once_and_the_margin_when_the_user_pauses(qtbot, panel, tmp_path):
    messages = [{"role": "user", "content": f"question {n}\n\nwith a second paragraph", "timestamp": 1} for n in range(300)]
    write_session(tmp_path / "long.jsonl", messages)
    open_session(qtbot, panel.controller, tmp_path / "long.jsonl")
    listing, bar = panel.list, panel.list.verticalScrollBar()
    listing.set_rows(listing.info, listing.rows)  # as a selection shows its context: its end
    assert_cards_cover(listing, 0)
    margin = listing._margin()
    assert listing.cards()[0].y() > bar.value() - margin  # nothing past the view yet
    on_screen, offset = listing.top_anchor()
    qtbot.waitUntil(lambda: listing.cards()[0].y() <= bar.value() - margin, timeout=5000)
    assert_cards_cover(listing, margin)
    assert on_screen.y() - bar.value() == offset  # what shows stayed in place


def card_of(panel: ContextPanel, entry_id: str) -> MessageCard:
    """The card of this entry's last row, scrolled into view as a user would (it may not be built before)."""
    row = max(row for row, item in enumerate(panel.list.rows) if item.entry.id == entry_id)
    card = panel.list.scroll_to_row(row, flash=False)
    assert card is not None and card.source_id == entry_id
    assert_cards_fill_the_view(panel.list)
    return card


def sample_keys(session, count: int = 14) -> list[str]:
    keys = [entry.id for entry in session.file_order]
    step = max(1, len(keys) // count)
    chosen = keys[::step] + [session.leaf_id]
    chosen += [entry.id for entry in session.file_order if entry.type in ("compaction", "context_edit", "branch_summary")][:4]
    return list(dict.fromkeys(chosen))


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
    # The fixture's answers, written by pi itself, against the cards.
    open_session(qtbot, panel.controller, FIXTURES / "generated-s3.jsonl")
    expected = orjson.loads((FIXTURES / "generated-s3.expected.json").read_bytes())["contexts"]
    shown = 0
    for key, answer in list(expected.items())[::9]:
        if key == "__default__":
            continue
        panel.controller.select(key)
        cards = [card for card in panel.cards() if not card.item.dropped]
        first = cards[0].index
        assert [card.message for card in cards] == answer["messages"][first : first + len(cards)]
        assert len(panel.list.rows) - sum(row.dropped for row in panel.list.rows) == len(answer["messages"])
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
    cards = panel.list.cards()
    # What the leaf's context starts with: the compaction's system checkpoint, then its summary.
    panel.list.scroll_to_row(0)
    cards = panel.cards()
    assert cards[0].role_label() == "System prompt · checkpoint"
    assert cards[0].source_id == "99ac0ed6"
    summary = cards[1]
    assert summary.role_label() == "Compaction summary"
    assert summary.compaction_note.text() == "Summarizes 47 entries · 14,282 tokens before · compaction 99ac0ed6"


def test_branch_summary_custom_and_shell(qtbot, panel):
    open_session(qtbot, panel.controller, DEMO)
    panel.controller.select("2be4d6c0")  # the git-guard custom message, after a branch summary and shell runs
    branch = card_of(panel, "2d94e732")
    assert branch.role_label() == "Branch summary"
    assert "Try a dark theme" in branch.shown_text()
    custom = card_of(panel, "2be4d6c0")
    assert custom.role_label() == "Custom · git-guard"
    assert "5 files modified and not committed" in custom.shown_text()
    shell = card_of(panel, "e8f31790")
    assert shell.role_label() == "Shell"
    assert "$ git diff --stat" in shell.shown_text()
    assert "4 files changed, 46 insertions(+), 12 deletions(-)" in shell.shown_text()
    assert "exit 0" in shell.shown_lines()
    # The entry the branch was left at is a link that selects it.
    left_at = branch.message["fromId"]
    click_link(qtbot, next(row for row in branch.findChildren(InlineRow) if left_at in row.texts()))
    assert panel.controller.selected == left_at


def click_link(qtbot, row: InlineRow) -> None:
    """Click the link of a card's line, as a user would."""
    qtbot.mouseClick(row, Qt.MouseButton.LeftButton, pos=row.rect_of(row.links()[0]).center())


def test_tool_calls_show_their_results(qtbot, panel):
    open_session(qtbot, panel.controller, DEMO)
    panel.controller.select("a8817c81")
    context = panel.controller.context("a8817c81")
    results = {m.get("toolCallId"): i for i, m in enumerate(context.messages) if m.get("role") == "toolResult"}
    calls = [i for i, m in enumerate(context.messages) if m.get("role") == "assistant" and any(b.get("type") == "toolCall" for b in m["content"])]
    assert not any(row.dropped for row in panel.list.rows)  # rows are message indexes here
    checked = 0
    for call_index in calls:
        # Each call's card, then its result's card, scrolled to as a user would.
        texts = []
        for box in panel.list.scroll_to_row(call_index, flash=False).tool_boxes:
            assert box.result_index == results[box.block["id"]]
            result = context.messages[box.result_index]
            text = " ".join(b.get("text", "") for b in result["content"] if b.get("type") == "text")
            assert words(text[:1000]) in words(box.result_text())
            texts.append((box.result_index, text))
        # The result card keeps its place in the order and points back at the call.
        for result_index, text in texts:
            result_card = panel.list.scroll_to_row(result_index, flash=False)
            assert result_card.index > call_index
            assert any(f"shown under its call in #{call_index + 1}" in line for line in result_card.shown_lines())
            if checked == 0:  # its "go to" link goes back to the call's card, and shows it
                click_link(qtbot, result_card.reference)
                assert panel.list.card_for_index(call_index).flash
            if result_card.item.edit is None:
                # The content shows once, under the call; the result's own card is a one-line link.
                assert result_card.text_blocks == [] and words(text[:200]) not in words(" ".join(v.toPlainText() for v in result_card.findChildren(TextSheet)))
            checked += 1
    assert checked >= 8


# ---- edits ----------------------------------------------------------------------------------------------


def test_edited_message_shows_replacement_and_original_one_click_away(qtbot, panel):
    open_session(qtbot, panel.controller, FIXTURES / "blog-example.jsonl")
    panel.controller.select("e11")
    card = panel.card_at(next(n for n, row in enumerate(panel.rows()) if row.source_id == "e4"))
    assert card.item.edit is not None and card.item.edit.id == "e11"
    assert "检查项目配置文件" in card.shown_text()
    assert "读取配置文件" not in card.shown_text()
    assert card.original_section is not None and not card.original_section.expanded
    qtbot.mouseClick(card.original_section.toggle, Qt.MouseButton.LeftButton)
    assert card.original_section.expanded
    assert "读取配置文件" in card.shown_text()
    assert "replaced, not sent" in " ".join(card.shown_lines())


def test_dropped_messages_hidden_until_toggled_and_unmistakable(qtbot, panel):
    open_session(qtbot, panel.controller, DEMO)
    context = panel.controller.context(panel.key)
    assert all(row.source_id != "2be4d6c0" for row in panel.rows())
    assert not any(row.dropped for row in panel.rows())
    panel.header.show_dropped.setChecked(True)
    dropped = [row for row in panel.list.rows if row.dropped]
    assert [row.entry.id for row in dropped] == ["2be4d6c0"]
    assert len(panel.list.rows) == len(context.messages) + 1
    card = card_of(panel, "2be4d6c0")
    assert card.item.dropped and card.index is None
    assert card.number_text() == "not sent"
    assert card.banner.text() == "✕ DROPPED by context edit ceae8505 — NOT sent to the model"
    # The messages that are sent keep their numbers.
    sent = [c for c in panel.cards() if not c.item.dropped]
    assert [c.index for c in sent] == list(range(sent[0].index, sent[0].index + len(sent)))
    panel.header.show_dropped.setChecked(False)
    assert all(row.source_id != "2be4d6c0" for row in panel.rows())
    assert all(card.source_id != "2be4d6c0" for card in panel.cards())


# ---- thinking ---------------------------------------------------------------------------------------------


def test_thinking_is_collapsed_until_clicked(qtbot, panel):
    open_session(qtbot, panel.controller, DEMO)
    panel.controller.select("d1f0de86")
    card = panel.card_at(next(n for n, row in enumerate(panel.rows()) if row.source_id == "d1f0de86"))
    block = card.thinking_blocks[0]
    thinking = card.message["content"][0]["thinking"]
    assert not block.expanded and block.content is None
    assert words(thinking) not in words(card.shown_text())
    qtbot.mouseClick(block.toggle, Qt.MouseButton.LeftButton)
    assert block.expanded
    assert words(thinking) in words(card.shown_text())
    qtbot.mouseClick(block.toggle, Qt.MouseButton.LeftButton)
    assert not block.expanded
    assert words(thinking) not in words(card.shown_text())
    # The header switch opens every thinking block, now and for cards built later.
    panel.header.expand_thinking.setChecked(True)
    assert all(b.expanded for c in panel.cards() for b in c.thinking_blocks)
    panel.controller.select(panel.controller.session.leaf_id)
    thinking_rows = [n for n, row in enumerate(panel.rows()) if row.role == "assistant" and any(
        isinstance(block, dict) and block.get("type") == "thinking" for block in row.message.get("content") or [])]
    assert thinking_rows  # cards built after the switch: the first and last with thinking, built on demand
    for row in (thinking_rows[0], thinking_rows[-1]):
        card = panel.card_at(row)
        assert card.thinking_blocks and all(block.expanded for block in card.thinking_blocks)


# ---- clicking ----------------------------------------------------------------------------------------------


def visible_card(panel: ContextPanel, skip_selected: bool = True, with_text: bool = False) -> MessageCard:
    panel.list.scroll_to_row(len(panel.list.rows) - 4, flash=False)
    value = panel.list.verticalScrollBar().value()
    for card in panel.cards():
        if with_text and not [view for view in card.findChildren(TextSheet) if view.isVisibleTo(card)]:
            continue
        if 40 < card.y() - value < panel.list.viewport().height() - 80 and not (skip_selected and card.source_id == panel.key):
            return card
    raise AssertionError("no card in view")


def test_clicking_a_card_selects_its_source_and_keeps_it_in_place(qtbot, panel):
    open_session(qtbot, panel.controller, DEMO)
    leaf = panel.key
    card = visible_card(panel)
    key, index = card.source_id, card.index
    before = card.mapTo(panel, QPoint(0, 0)).y()
    qtbot.mouseClick(card, Qt.MouseButton.LeftButton, pos=QPoint(card.width() - 30, card.height() - 6))
    assert panel.controller.selected == key
    assert panel.key == key
    check_panel_matches_model(panel, key)
    same = next(c for c in panel.cards() if c.source_id == key and c.index == index)
    assert same.mapTo(panel, QPoint(0, 0)).y() == before  # no jump
    assert same.selected
    assert panel.notice.isVisible()
    assert f"the context at {key}" in panel.notice_text.text()
    assert panel.list.tail.isVisible()
    qtbot.mouseClick(panel.back_button, Qt.MouseButton.LeftButton)
    assert panel.controller.selected == leaf


def test_clicking_text_selects_but_selecting_text_does_not(qtbot, panel):
    open_session(qtbot, panel.controller, DEMO)
    card = visible_card(panel, with_text=True)
    view = next(view for view in card.findChildren(TextSheet) if view.isVisibleTo(card))
    # A drag selects text and leaves the selection alone.
    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(4, 6))
    qtbot.mouseMove(view.viewport(), QPoint(60, 8))
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(60, 8))
    assert panel.controller.selected != card.source_id
    # A plain click selects the card's entry.
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(view.viewport().width() - 5, 4))
    assert panel.controller.selected == card.source_id


def test_the_entry_link_of_a_card_header_selects_its_entry_by_mouse_and_by_keyboard(qtbot, panel):
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QToolTip

    open_session(qtbot, panel.controller, DEMO)
    card = visible_card(panel)
    header, link = card.header, card.entry_part
    assert link.text == card.source_id
    assert card.source_id in header.accessibleName() and header.accessibleDescription() == f"Link: {card.source_id}"
    # Its tooltip (the hovered part's) names the entry and its line.
    where = header.rect_of(link).center()
    qtbot.mouseMove(header, where)
    QApplication.sendEvent(header, QHelpEvent(QEvent.Type.ToolTip, where, header.mapToGlobal(where)))
    assert QToolTip.isVisible() and f"Select entry {card.source_id} (line {card.item.entry.line})" in QToolTip.text()
    time = header.rect_of(card.time_part).topLeft() + QPoint(2, 4)
    qtbot.mouseMove(header, time)
    QApplication.sendEvent(header, QHelpEvent(QEvent.Type.ToolTip, time, header.mapToGlobal(time)))
    assert card.time_part.text in QToolTip.text() and "Select entry" not in QToolTip.text()
    QToolTip.hideText()
    # A click on the link selects the card's entry.
    qtbot.mouseClick(header, Qt.MouseButton.LeftButton, pos=where)
    assert panel.controller.selected == card.source_id
    # Tab reaches the link; Space follows it.
    other = visible_card(panel)
    other.header.setFocus(Qt.FocusReason.TabFocusReason)
    assert other.header.focusPolicy() & Qt.FocusPolicy.TabFocus
    qtbot.keyClick(other.header, Qt.Key.Key_Space)
    assert panel.controller.selected == other.source_id


def test_clicking_a_nested_result_selects_the_result(qtbot, panel):
    open_session(qtbot, panel.controller, DEMO)
    panel.controller.select("a8817c81")
    box = next(box for card in panel.cards() for box in card.tool_boxes if box.result_block is not None)
    expected = panel.controller.context("a8817c81").message_sources()[box.result_index].id
    panel.list.ensureWidgetVisible(box.result_block)
    qtbot.mouseClick(box.result_block, Qt.MouseButton.LeftButton, pos=QPoint(box.result_block.width() // 2, 4))
    assert panel.controller.selected == expected


# ---- images, JSON, reloads -----------------------------------------------------------------------------------


def test_images_become_thumbnails_and_open_full_size(qtbot, panel):
    open_session(qtbot, panel.controller, DEMO)
    panel.controller.select("a8817c81")
    blocks = [block for card in panel.cards() for block in card.image_blocks]
    assert blocks
    qtbot.waitUntil(lambda: all(block.has_thumbnail for block in blocks), timeout=10_000)
    assert "16 × 16 px" in blocks[-1].caption.text()
    qtbot.mouseClick(blocks[-1], Qt.MouseButton.LeftButton, pos=blocks[-1].thumb.geometry().center())
    viewers = [w for w in QApplication.topLevelWidgets() if isinstance(w, ImageViewer) and w.isVisible()]
    assert viewers
    qtbot.waitUntil(lambda: "16 × 16 px" in viewers[0].info.text(), timeout=10_000)
    viewers[0].close()


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
    cards = panel.cards()
    append(path, {"type": "label", "id": "aaaaaaaa", "parentId": ids[-1], "timestamp": "2026-01-02T00:00:00.000Z", "targetId": ids[0], "label": "x"})  # pi appends a label
    with qtbot.waitSignal(panel.controller.changed, check_params_cb=replaced, timeout=10_000):
        panel.controller.reload()
    assert panel.key == ids[3]
    assert panel.cards() == cards


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
            {"role": "toolResult", "toolCallId": sneaky, "toolName": "<b>tool</b>", "content": [{"type": "text", "text": "<u>out</u>"}], "isError": False, "timestamp": 3},
            {"type": "custom_message", "customType": "<b>type</b>", "content": "c", "display": True},
        ],
    )
    open_session(qtbot, panel.controller, tmp_path / "evil.jsonl")
    panel.controller.select(panel.controller.session.file_order[0].id)
    card = panel.cards()[0]
    shown = card.shown_text()
    assert "<script>alert(1)</script>" in shown
    assert "\x1b" not in shown and "red" in shown
    url = f"file://{secret}"
    assert f"[image: x — {url if len(url) <= 80 else url[:79] + '…'} not loaded]" in shown
    views = card.findChildren(TextSheet)
    assert all(view.document().refused == [] or all("tracker" in r or "secret" in r for r in view.document().refused) for view in views)
    panel.controller.select(panel.controller.session.leaf_id)
    assert panel.cards()[-1].role_label() == "Custom · <b>type</b>"
    # Names and ids from the file show as typed, and tooltips cannot be taken for HTML.
    from PySide6.QtWidgets import QWidget

    calling = panel.cards()[1]
    assert "<i>y</i>" in calling.shown_text() and "<u>out</u>" in calling.shown_text()
    labels = [line for card in panel.cards() for line in card.shown_lines()]
    assert "→ <b>tool</b>" in labels
    tips = [widget.toolTip() for card in panel.cards() for widget in card.findChildren(QWidget) if widget.toolTip()]
    tips += [part.tip for card in panel.cards() for row in card.findChildren(InlineRow) for part in row.shown() if part.tip]
    assert any("&lt;img src=&#x27;file:///etc/passwd&#x27;&gt;" in tip for tip in tips)
    assert not any("<img" in tip or "<b>" in tip for tip in tips)


# ---- scale ------------------------------------------------------------------------------------------------------------


def test_thousands_of_messages_build_only_the_cards_that_fill_the_view(qtbot, panel, tmp_path):
    messages = []
    for n in range(3000):
        if n % 2 == 0:
            messages.append({"role": "user", "content": f"question {n}", "timestamp": 1})
        else:
            messages.append({"role": "assistant", "content": [{"type": "text", "text": f"answer {n}"}], "provider": "p", "model": "m", "timestamp": 1})
    write_session(tmp_path / "long.jsonl", messages)
    open_session(qtbot, panel.controller, tmp_path / "long.jsonl")
    listing, bar = panel.list, panel.list.verticalScrollBar()
    assert len(listing.rows) == 3000
    cards = panel.cards()
    assert cards[-1].index == 2999
    assert_cards_fill_the_view(listing)
    # ... and not a card more: without the first one the cards would stop short of the margin above the view.
    assert cards[1].y() > bar.value() - listing._margin()
    assert listing.earlier.isVisible() and listing.earlier.text() == f"▲ {listing.start:,} earlier messages — show {MessageList.PAGE} more"


def test_scrolling_up_builds_earlier_cards_before_the_top_and_keeps_what_is_on_screen(qtbot, panel, tmp_path):
    messages = [{"role": "user", "content": f"question {n}\n\nwith a second paragraph", "timestamp": 1} for n in range(600)]
    write_session(tmp_path / "long.jsonl", messages)
    open_session(qtbot, panel.controller, tmp_path / "long.jsonl")
    listing, bar = panel.list, panel.list.verticalScrollBar()
    # A scroll that stops short of the first card, but within the margin of it, builds more now.
    start = listing.start
    bar.setValue(listing.cards()[0].y() + 2)
    on_screen, offset = listing.top_anchor()
    qtbot.waitUntil(lambda: listing.start < start, timeout=5000)
    assert on_screen in listing.cards() and on_screen.y() - bar.value() == offset
    assert_cards_fill_the_view(listing)
    # Scrolling on up keeps building; the live cards stay consecutive and never more than MAX_LIVE.
    passed_cap = False
    while listing.start > 0:
        start = listing.start
        bar.setValue(0)
        qtbot.waitUntil(lambda: listing.start < start, timeout=5000)
        qtbot.waitUntil(lambda: not listing._fill_timer.isActive(), timeout=5000)
        assert_cards_fill_the_view(listing)
        passed_cap = passed_cap or listing.end < 600
    assert passed_cap and listing.cards()[0].index == 0 and len(listing.cards()) <= MessageList.MAX_LIVE
    assert listing.later.isVisible() and listing.later.text() == f"▼ {600 - listing.end:,} later messages — show {MessageList.PAGE} more"
    # Scrolling down builds the later ones again.
    end = listing.end
    bar.setValue(bar.maximum())
    qtbot.waitUntil(lambda: listing.end > end, timeout=5000)
    qtbot.waitUntil(lambda: not listing._fill_timer.isActive(), timeout=5000)
    assert_cards_fill_the_view(listing)
    # The buttons do what they say.
    listing.set_rows(listing.info, listing.rows, ("row", 300))
    start, end = listing.start, listing.end
    listing.earlier.click()
    assert listing.start == start - MessageList.PAGE and listing.end == end
    listing.later.click()
    assert listing.end == end + MessageList.PAGE and len(listing.cards()) <= MessageList.MAX_LIVE


def test_a_far_jump_rebuilds_around_its_target(qtbot, panel, tmp_path):
    messages = [{"role": "user", "content": f"question {n}", "timestamp": 1} for n in range(3000)]
    ids = write_session(tmp_path / "long.jsonl", messages)
    open_session(qtbot, panel.controller, tmp_path / "long.jsonl")
    card = panel.scroll_to_message(10)
    assert card is not None and card.index == 10
    assert_cards_fill_the_view(panel.list)
    panel.controller.select(ids[1500])
    check_panel_matches_model(panel, ids[1500])



def test_huge_text_and_image_are_clipped_and_decoded_off_the_gui_thread(qtbot, panel, tmp_path, big_png_base64):
    _, encoded = big_png_base64
    text = "line of text\n" * 800_000  # 10.4 MB
    ids = write_session(
        tmp_path / "heavy.jsonl",
        [
            {"role": "user", "content": text, "timestamp": 1},
            {"role": "user", "content": [{"type": "text", "text": "look"}, {"type": "image", "data": encoded, "mimeType": "image/png"}], "timestamp": 1},
        ],
    )
    open_session(qtbot, panel.controller, tmp_path / "heavy.jsonl")
    panel.controller.select(ids[0])
    panel.controller.select(ids[1])
    big, picture = panel.cards()
    assert len(big.shown_text()) <= 4100
    assert big.text_blocks[0].more is not None
    assert big.text_blocks[0].more.text() == f"Show all ({len(text):,} characters)"
    qtbot.waitUntil(lambda: picture.image_blocks[0].has_thumbnail, timeout=30_000)
    # "Show all" of 10 MB opens a paged viewer; Copy all takes every character.
    big.text_blocks[0].more.click()
    viewer = next(w for w in QApplication.topLevelWidgets() if isinstance(w, TextViewer) and w.isVisible())
    assert viewer.pages == -(-len(text) // TextViewer.PAGE)
    assert viewer.view.toPlainText() == text[: TextViewer.PAGE]
    viewer.next.click()
    assert viewer.page == 1
    assert viewer.position.text().startswith(f"characters {TextViewer.PAGE + 1:,}–")
    viewer.findChild(QPushButton, "copyAll").click()
    assert QApplication.clipboard().text() == text
    viewer.close()


def test_an_entry_without_messages_says_so(qtbot, panel):
    open_session(qtbot, panel.controller, DEMO)
    panel.controller.select("9c23e849")  # a label
    assert panel.list.tail.isVisible()
    assert panel.list.tail_note.text() == "The selected entry 9c23e849 (label) adds no message of its own; this is the context of the path up to it."
    check_panel_matches_model(panel, "9c23e849")
    panel.controller.select("67cb4c98")
    assert not panel.list.tail.isVisible()


@pytest.mark.parametrize("width", [420, 900])
def test_cards_get_the_height_their_text_needs(qtbot, panel, width):
    # Nothing is cut off and nothing is left blank, at a narrow dock width and a wide one.
    panel.resize(width, 900)
    open_session(qtbot, panel.controller, DEMO)
    for key in ("a8817c81", "5ffa6433", panel.controller.session.leaf_id):
        panel.controller.select(key)
        for _ in range(3):
            QApplication.processEvents()
        for card in panel.cards():
            assert card.height() >= card.heightForWidth(card.width()) - 1, (key, card.index)
            for view in card.findChildren(TextSheet):
                if view.isVisibleTo(card):
                    assert view.height() >= view.heightForWidth(view.width()) - 1, (key, card.index)
        last = panel.cards()[-1]
        container = panel.list.widget()
        assert container.height() - (last.y() + last.height()) < 40 or container.height() <= panel.list.viewport().height()


def test_a_new_card_lays_its_texts_out_only_for_the_width_they_get(qtbot, panel, monkeypatch):
    # Qt's hint for a part that wraps text is its height at the hint's width: asking it would lay
    # every text out again for a width it never gets. The list gives each card its width at once.
    open_session(qtbot, panel.controller, DEMO)
    asked: dict[TextSheet, set[int]] = {}
    measure = TextSheet.heightForWidth

    def noted(view, width):
        asked.setdefault(view, set()).add(width)
        return measure(view, width)

    monkeypatch.setattr(TextSheet, "heightForWidth", noted)
    panel.controller.select("5ffa6433")
    for _ in range(3):
        QApplication.processEvents()
    views = [view for card in panel.cards() for view in card.findChildren(TextSheet) if view.isVisibleTo(card)]
    assert len(views) >= 5
    for view in views:
        assert asked.get(view) == {view.width()}, (view.toPlainText()[:40], asked.get(view), view.width())


def test_moving_along_a_branch_keeps_the_cards_that_stay(qtbot, panel, tmp_path):
    call = {"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"command": "ls"}}
    ids = write_session(
        tmp_path / "line.jsonl",
        [
            {"role": "user", "content": "list the files", "timestamp": 1},
            {"role": "assistant", "content": [{"type": "text", "text": "looking"}, call], "provider": "p", "model": "m", "timestamp": 2},
            {"role": "toolResult", "toolCallId": "c1", "toolName": "bash", "content": [{"type": "text", "text": "a.txt b.txt"}], "isError": False, "timestamp": 3},
            {"role": "assistant", "content": [{"type": "text", "text": "two files"}], "provider": "p", "model": "m", "timestamp": 4},
            {"role": "user", "content": "thanks", "timestamp": 5},
        ],
    )
    open_session(qtbot, panel.controller, tmp_path / "line.jsonl")
    panel.controller.select(ids[1])  # the call, before its result exists
    first, asking = panel.cards()
    assert asking.tool_boxes[0].result_index is None
    assert "no result for this call in this context" in asking.shown_text() + " ".join(asking.shown_lines())
    blocks = list(asking.text_blocks)
    # Further down the branch: the cards stay; the call's box now holds its result.
    panel.controller.select(ids[3])
    cards = panel.cards()
    assert cards[0] is first
    assert cards[1] is asking and asking.tool_boxes[0].result_index == 2
    assert "a.txt b.txt" in asking.tool_boxes[0].result_text()
    assert not any("no result for this call" in line for line in asking.shown_lines())
    assert asking.text_blocks[: len(blocks)] == blocks and len(asking.text_blocks) == len(blocks) + 1  # the result's text
    assert [card.index for card in cards] == [0, 1, 2, 3]
    assert cards[3].selected and not cards[1].selected
    bar = panel.list.verticalScrollBar()
    assert bar.value() == bar.maximum()
    check_panel_matches_model(panel, ids[3])
    # Back up the branch (as from the tree): the cards before stay, the rest go.
    kept = cards[:3]
    panel.controller.select(ids[2])
    assert panel.cards() == kept
    assert kept[2].selected
    check_panel_matches_model(panel, ids[2])
    # Above the result again: the call's box says so, as a card built afresh would.
    panel.controller.select(ids[1])
    assert panel.cards() == kept[:2] and asking.tool_boxes[0].result_index is None
    assert asking.text_blocks == blocks and asking.tool_boxes[0].result_text() == ""
    assert any("no result for this call in this context" in line for line in asking.shown_lines())
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
    card = next(card for card in panel.cards() if card.source_id == labeled)
    assert card.shown_label() == "lint clean"
    for other in panel.cards():
        assert (other.shown_label() is not None) == (other.source_id in session.labels)
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
    key = next(row.source_id for row in panel.rows() if row.source_id not in session.labels and row.role == "user")
    controller.select(key)
    with qtbot.waitSignal(controller.changed, check_params_cb=appended, timeout=10000):
        LabelEditor(controller, panel).write(key, "needs <b>review</b> & more")
    card = panel.card_at(next(number for number, row in enumerate(panel.rows()) if row.source_id == key))
    assert card.shown_label() == "needs <b>review</b> & more"
    assert panel.header.label_value.text().startswith("“needs <b>review</b> & more”")
    assert panel.header.clear_label_button.isEnabled()
    panel.header.path_labels_menu.aboutToShow.emit()
    menu_texts = [action.text() for action in panel.header.path_labels_menu.actions()]
    assert any(text.startswith("needs <b>review</b> && more") for text in menu_texts)  # & doubled: no mnemonic
    with qtbot.waitSignal(controller.changed, check_params_cb=appended, timeout=10000):
        LabelEditor(controller, panel).write(key, None)
    assert card.shown_label() is None
    assert panel.header.label_value.text().startswith("none on this entry")


# ---- theme ------------------------------------------------------------------------------------


def test_switching_to_a_dark_palette_recolours_muted_text(qtbot, panel):
    from PySide6.QtGui import QColor, QPalette

    from pibrowser.ui.style.colors import mix

    controller = panel.controller
    open_session(qtbot, controller, DEMO)
    controller.select("5c753be3")
    card = panel.cards()[-1]
    app = QApplication.instance()
    light = app.palette()
    dark = QPalette(light)
    for role, color in ((QPalette.ColorRole.Window, "#202020"), (QPalette.ColorRole.WindowText, "#f0f0f0"), (QPalette.ColorRole.Base, "#181818"), (QPalette.ColorRole.Text, "#f0f0f0")):
        dark.setColor(role, QColor(color))
    role = QPalette.ColorRole.WindowText
    assert card.header.color_of(card.time_part) == mix(light.color(role), light.color(QPalette.ColorRole.Window), 0.45)
    try:
        app.setPalette(dark)
        qtbot.waitUntil(lambda: card.header.color_of(card.time_part) == mix(QColor("#f0f0f0"), QColor("#202020"), 0.45), timeout=3000)
        # The muted time is still quieter than the message text, and readable on the dark window.
        assert card.header.color_of(card.time_part).lightness() > QColor("#202020").lightness() + 60
    finally:
        app.setPalette(light)
    qtbot.waitUntil(lambda: card.header.color_of(card.time_part) == mix(light.color(role), light.color(QPalette.ColorRole.Window), 0.45), timeout=3000)


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

    from PySide6.QtGui import QContextMenuEvent

    open_session(qtbot, panel.controller, DEMO)
    panel.controller.select("5c753be3")
    rows = panel.rows()
    card = panel.card_at(max(number for number, row in enumerate(rows) if row.role == "user"))
    assert card.role == "user" and panel.controller.selected != card.source_id
    event = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, QPoint(5, 5), card.mapToGlobal(QPoint(5, 5)))
    QApplication.sendEvent(card, event)
    menu = card.menu
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
    from PySide6.QtGui import QContextMenuEvent

    def expected_ids(message):
        if message.get("role") == "toolResult":
            return [message["toolCallId"]]
        content = message.get("content")
        return [block["id"] for block in content if block.get("type") == "toolCall"] if isinstance(content, list) else []

    open_session(qtbot, panel.controller, DEMO)
    panel.controller.select("5c753be3")
    seen = set()
    for role in ("assistant", "toolResult"):
        rows = panel.rows()
        card = panel.card_at(max(number for number, row in enumerate(rows) if row.role == role and expected_ids(row.message)))
        assert card.role == role
        ids = expected_ids(card.message)
        QApplication.sendEvent(card, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, QPoint(5, 5), card.mapToGlobal(QPoint(5, 5))))
        actions = [action for action in card.menu.actions() if "Tool Call Id" in action.text()]
        assert len(actions) == 1
        actions[0].trigger()
        assert QApplication.clipboard().text() == "\n".join(ids)
        card.menu.close()
        seen.update(ids)
    assert all(key.startswith("toolu_") for key in seen)
    user = next(card for card in panel.cards() if card.role == "user")
    QApplication.sendEvent(user, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, QPoint(5, 5), user.mapToGlobal(QPoint(5, 5))))
    assert not [action for action in user.menu.actions() if "Tool Call Id" in action.text()]
    user.menu.close()


def test_the_header_shows_an_id_with_control_characters_on_one_line(qtbot, panel, tmp_path):
    from ..hostile import make

    open_session(qtbot, panel.controller, make(tmp_path, "control_characters"))
    panel.controller.select("a\n1")
    header = panel.header
    assert header.title.text() == "Context at a\u240a1"
    assert "\x1b" not in header.subtitle.text() and "\n" not in header.subtitle.text()


def test_f3_goes_on_past_the_built_cards_to_every_occurrence_in_the_context(qtbot, panel, tmp_path):
    said = {5: "the needle is here", 40: "a **needle** in bold", 77: "needle and needle"}
    messages = [{"role": "user", "content": said.get(n, f"hay {n}\n\nmore hay"), "timestamp": 1} for n in range(120)]
    write_session(tmp_path / "hay.jsonl", messages)
    open_session(qtbot, panel.controller, tmp_path / "hay.jsonl")
    panel.set_search("Needle")
    search, listing = panel.search, panel.list
    assert listing.start > 77 and search.marks == []  # none of them is built yet

    def current_message() -> int:
        view = search.marks[search.current][0]
        return next(card.index for card in listing.cards() if card.isAncestorOf(view))

    # From the end of the context, F3 wraps round to the first occurrence, then walks them in order.
    seen = []
    for _ in range(5):
        assert search.step(1)
        seen.append(current_message())
        assert_cards_fill_the_view(listing)
    assert seen == [5, 40, 77, 77, 5]
    # Shift+F3 walks them back.
    assert search.step(-1) and current_message() == 77
    assert search.step(-1) and current_message() == 77
    assert search.step(-1) and current_message() == 40
    view, cursor = search.marks[search.current]
    assert cursor.selectedText().casefold() == "needle" and view.isVisibleTo(listing)


def test_a_taller_panel_builds_the_cards_its_bigger_view_needs(qtbot, panel, tmp_path):
    messages = [{"role": "user", "content": f"question {n}\n\nwith a second paragraph", "timestamp": 1} for n in range(300)]
    write_session(tmp_path / "long.jsonl", messages)
    panel.resize(760, 420)
    open_session(qtbot, panel.controller, tmp_path / "long.jsonl")
    listing = panel.list

    def filled() -> None:
        assert not listing._fill_timer.isActive()
        assert_cards_fill_the_view(listing)

    qtbot.waitUntil(filled, timeout=5000)
    listing.scroll_to_row(0, flash=False)  # at the top: growing the view leaves the scroll position as it is
    qtbot.waitUntil(filled, timeout=5000)
    assert listing.verticalScrollBar().value() == 0
    last = listing.cards()[-1].index
    height = listing.viewport().height()
    panel.resize(760, 1200)
    qtbot.waitUntil(lambda: listing.viewport().height() > height + 500, timeout=5000)  # the resize lands; the cards follow
    qtbot.waitUntil(filled, timeout=5000)
    assert listing.cards()[0].index == 0 and listing.cards()[-1].index > last


def test_a_copied_message_is_written_as_pis_json_stringify_writes_it():
    message = {"role": "assistant", "usage": {"cost": 2.0, "input": 1e21}, "0": "index key", "timestamp": 1.5}
    assert message_json(message) == (
        '{\n  "0": "index key",\n  "role": "assistant",\n  "usage": {\n    "cost": 2,\n    "input": 1e+21\n  },\n  "timestamp": 1.5\n}'
    )
