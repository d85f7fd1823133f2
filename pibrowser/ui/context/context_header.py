"""The context panel's header: the shown context's settings and numbers, and the view's switches.

It gives the thinking level, model, message count, estimated tokens, the
usage and cost recorded on the path, and the labels: the selected entry's own
(set or cleared with a click) and those on its path (a menu that selects them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QMenu,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...model.context.resolve import Context
from ...model.text.describe import entry_title, short_label
from ...model.session.entry import Entry
from ...model.session.path_labels import PathLabels
from ...model.tokens.composition import Composition, kind_name
from ...model.tokens.context_estimate import estimate_text
from ...model.tokens.stats import ContextStats
from ...model.text.terminal_text import visible_line
from .message_items import ContextInfo
from .composition_bar import CompositionBar
from ..common.ends_row import EndsRow
from ..common.formatting import format_model, format_tokens, format_usage
from ..common.safe_text import plain
from ..common.widgets import menu_text, plain_label, set_smaller
from ...model.text.plural import counted

FIELDS = [
    ("thinking", "Thinking"),
    ("model", "Model"),
    ("messages", "Messages"),
    ("tokens", "Tokens"),
    ("usage", "Usage on path"),
    ("compaction", "Compaction"),
]


class ContextHeader(QFrame):
    """Settings and numbers of the shown context, and the view's switches.

    `labelEditRequested` / `labelClearRequested`: the Set… / Clear buttons of the
    selected entry's label; `labelChosen(id)`: a label picked from the path menu.
    """

    labelEditRequested = Signal()
    labelClearRequested = Signal()
    labelChosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.NoFrame)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(10, 8, 10, 6)
        outer.setSpacing(4)
        self._build_titles(outer)
        grid = self._value_grid()
        self._add_composition_row(grid)
        self._add_label_row(grid)
        outer.addLayout(grid)
        outer.addLayout(self._controls())

    def _build_titles(self, outer: QVBoxLayout) -> None:
        self.title = plain_label("", wrap=True)  # it names an entry: a long id wraps rather than widening the dock
        font = self.title.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.1)
        self.title.setFont(font)
        self.subtitle = plain_label("", muted=True, small=True)
        self.subtitle.setWordWrap(True)
        outer.addWidget(self.title)
        outer.addWidget(self.subtitle)

    def _value_grid(self) -> QGridLayout:
        """A name and a value per row of FIELDS; `values[key]` and `<key>_label` reach them."""
        grid = QGridLayout()
        grid.setHorizontalSpacing(14)
        grid.setVerticalSpacing(2)
        self.values: dict[str, QLabel] = {}
        for row, (key, name) in enumerate(FIELDS):
            label = plain_label(name, muted=True, small=True)
            value = plain_label("", small=True)
            value.setWordWrap(True)
            grid.addWidget(label, row, 0, Qt.AlignmentFlag.AlignTop)
            grid.addWidget(value, row, 1)
            self.values[key] = value
            setattr(self, f"{key}_label", label)
        grid.setColumnStretch(1, 1)
        self.values["tokens"].setToolTip(
            "pi's estimate, the one it compacts by: the last assistant usage that no later edit or compaction\n"
            "voided, plus characters / 4 of each message after it; without one, characters / 4 of every message\n"
            "(images count 4,800 characters)."
        )
        self.values["usage"].setToolTip(
            "Recorded by assistant messages, usage entries, tool results and summaries on the path, as pi totals them"
        )
        return grid

    def _add_composition_row(self, grid: QGridLayout) -> None:
        """What the context is made of: the bar, and its largest parts in words."""
        row = grid.rowCount()
        self.composition_label = plain_label("Made of", muted=True, small=True)
        self.composition_bar = CompositionBar()
        self.composition_text = plain_label("", small=True, muted=True)
        self.composition_text.setWordWrap(True)
        cell = QVBoxLayout()
        cell.setSpacing(1)
        cell.addWidget(self.composition_bar)
        cell.addWidget(self.composition_text)
        grid.addWidget(self.composition_label, row, 0, Qt.AlignmentFlag.AlignTop)
        grid.addLayout(cell, row, 1)

    def show_composition(self, composition: Composition | None, chosen: str | None = None, shown: int = 0) -> None:
        """The bar, and in words its three largest parts (or the kind the cards are filtered to)."""
        self.composition_bar.set_composition(composition)
        self.composition_bar.set_chosen(chosen)
        if composition is None or not composition.tokens:
            self.composition_text.setText("")
            return
        if chosen:
            self.composition_text.setText(
                f"Only the {shown:,} card{'s' if shown != 1 else ''} with {kind_name(chosen)} · click it again for all"
            )
            return
        # The three largest parts in words (the bar's tooltip has every part; a click filters the cards).
        largest = sorted(composition.shares(), key=lambda share: -share[2])[:3]
        self.composition_text.setText(" · ".join(f"{kind_name(kind)} {tokens / composition.tokens:.0%}" for kind, _, tokens in largest))

    def _add_label_row(self, grid: QGridLayout) -> None:
        """Labels: the selected entry's, with Set… and Clear, and a menu of those on the path."""
        row = grid.rowCount()
        self.labels_label = plain_label("Labels", muted=True, small=True)
        self.label_value = plain_label("", small=True)
        self.label_value.setWordWrap(True)
        self.set_label_button = _tool_button("Set…", "Label the selected entry, as pi's /label does (L)")
        self.clear_label_button = _tool_button("Clear", "Remove the selected entry's label (Shift+L)")
        self.path_labels_button = _tool_button("On path", "Select an entry of this path by its label")
        self.path_labels_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.path_labels_menu = QMenu(self.path_labels_button)
        self.path_labels_button.setMenu(self.path_labels_menu)
        self._path_labels: list[tuple[Entry, Any]] = []  # (entry, its label) on the shown path, root first
        self._labels_on_path = PathLabels()  # a step along a path looks at the entries it adds only
        self.path_labels_menu.aboutToShow.connect(self._fill_path_labels)
        self.set_label_button.clicked.connect(self.labelEditRequested)
        self.clear_label_button.clicked.connect(self.labelClearRequested)
        buttons = QHBoxLayout()
        buttons.setSpacing(2)
        for button in (self.set_label_button, self.clear_label_button, self.path_labels_button):
            set_smaller(button, 0.9)
            buttons.addWidget(button)
        # The label's words on a line of their own, the buttons after them, or under them when narrow.
        self.label_value.setMinimumWidth(self.label_value.fontMetrics().horizontalAdvance("none on this entry"))
        grid.addWidget(self.labels_label, row, 0, Qt.AlignmentFlag.AlignTop)
        grid.addLayout(EndsRow(self.label_value, buttons, spacing=4), row, 1)

    def show_labels(self, key: str | None, labels: Mapping[str, Any], path: Sequence[Entry]) -> None:
        """The label of `key` and the labels on its path (root first)."""
        own = labels.get(key) if key is not None else None
        on_path = self._labels_on_path.on(path, labels)
        text = f"“{plain(own)}”" if own is not None else "none on this entry"
        others = len(on_path) - (own is not None and any(entry.id == key for entry in on_path))
        if others:
            text += f" · {others:,} more on the path"
        self.label_value.setText(text)
        self.set_label_button.setEnabled(key is not None)
        self.set_label_button.setText("Edit…" if own is not None else "Set…")
        self.clear_label_button.setEnabled(own is not None)
        # The menu is filled when it opens: a long path can hold hundreds of labels, and
        # making their actions at every step up the path cost more than the rest of the header.
        self._path_labels = [(entry, labels[entry.id]) for entry in on_path]
        self.path_labels_menu.clear()
        self.path_labels_button.setEnabled(bool(on_path))
        self.path_labels_button.setText(f"On path ({len(on_path):,})" if on_path else "On path")

    def _fill_path_labels(self) -> None:
        """The labels on the shown path, root first; picking one selects its entry."""
        self.path_labels_menu.clear()
        for entry, label in self._path_labels:
            title = f"{short_label(label)}  —  {entry_title(entry, 60)}  ({entry.id})"
            action = self.path_labels_menu.addAction(menu_text(title))  # a QAction's text is never read as HTML
            action.triggered.connect(lambda _=False, target=entry.id: self.labelChosen.emit(target))

    def _controls(self) -> EndsRow:
        """The view's switches at the start, the moves and Copy at the end (under them in a narrow dock)."""
        self.show_dropped = QCheckBox("Show dropped")
        self.show_dropped.setToolTip("Show messages a context edit removed, greyed out. They are NOT sent to the model.")
        self.expand_thinking = QCheckBox("Expand thinking")
        self.top_button = _tool_button("⤒", "Go to the first message")
        self.end_button = _tool_button("⤓", "Go to the last message")
        self.copy_button = _tool_button("Copy", "Copy the whole context as a Markdown transcript (the arrow: other forms)")
        self.copy_button.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        self.copy_menu = QMenu(self.copy_button)
        self.copy_markdown_action = self.copy_menu.addAction("Copy as Markdown Transcript")
        self.copy_json_action = self.copy_menu.addAction("Copy as pi's JSON (messages, thinkingLevel, model)")
        self.copy_button.setMenu(self.copy_menu)
        switches, moves = QHBoxLayout(), QHBoxLayout()
        for group, widgets in (
            (switches, (self.show_dropped, self.expand_thinking)),
            (moves, (self.top_button, self.end_button, self.copy_button)),
        ):
            group.setSpacing(6)
            for widget in widgets:
                group.addWidget(widget)
        switches.addStretch(1)
        return EndsRow(switches, moves)

    def show_context(self, context: Context, stats: ContextStats, info: ContextInfo, entry: Entry | None) -> None:
        # Ids and titles come from the file: one line, control characters shown.
        self.title.setText(f"Context at {visible_line(str(context.leaf))}")
        self.subtitle.setText(visible_line(entry_title(entry, 120)) if entry is not None else "")
        self.values["thinking"].setText(plain(context.thinking_level))
        self.values["model"].setText(format_model(context.model))
        dropped = sum(1 for item in info.items if item.dropped)
        self.values["messages"].setText(_message_count(stats, dropped))
        self.values["tokens"].setText(_token_estimate(stats))
        usage = format_usage(stats)
        if stats.usage is not None and stats.usage.records:
            usage += f" · {counted(stats.usage.records, 'record')}"
        self.values["usage"].setText(usage)
        self.values["compaction"].setText(_compaction_line(context, info))
        self.show_dropped.setText(f"Show dropped ({dropped})" if dropped else "Show dropped")
        self.show_dropped.setEnabled(bool(dropped) or self.show_dropped.isChecked())

    def clear(self, text: str) -> None:
        self.title.setText(text)
        self.subtitle.setText("")
        for value in self.values.values():
            value.setText("")
        self.show_composition(None)
        self.show_labels(None, {}, [])


def _tool_button(text: str, tip: str) -> QToolButton:
    button = QToolButton()
    button.setText(text)
    button.setToolTip(tip)
    button.setAutoRaise(True)
    return button


def _message_count(stats: ContextStats, dropped: int) -> str:
    count = f"{stats.messages:,} sent to the model"
    if dropped:
        count += f" · {dropped} dropped by edits (not sent)"
    return count


def _token_estimate(stats: ContextStats) -> str:
    """pi's own estimate first (the timeline strip plots the same figure), then how it was made."""
    estimate = stats.pi_estimate
    if estimate.last_usage_index is None:
        return f"≈{estimate_text(estimate.tokens)} (pi's estimate: chars/4)"
    return (
        f"≈{estimate_text(estimate.tokens)} (pi's estimate: last usage {estimate_text(estimate.usage_tokens)} at #{estimate.last_usage_index + 1}"
        f" + {estimate_text(estimate.trailing_tokens)} after) · chars/4 of all: {estimate_text(stats.estimated_tokens)}"
    )


def _compaction_line(context: Context, info: ContextInfo) -> str:
    compaction = context.compaction
    if compaction is None:
        return "none on this path"
    return (
        f"{compaction.id} · summarizes {counted(info.summarized, 'entry')} · {format_tokens(compaction.get('tokensBefore'))} tokens before"
    )
