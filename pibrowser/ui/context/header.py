"""The context panel's header: the shown context's settings and numbers, and the view's switches.

It gives the thinking level, model, message count, estimated tokens, and the
usage and cost recorded on the path.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...model.context import Context
from ...model.describe import entry_title
from ...model.entry import Entry
from ...model.stats import ContextStats
from .card_items import ContextInfo
from .formatting import format_model, format_tokens, format_usage
from .safe_text import plain
from .widgets import plain_label

FIELDS = [("thinking", "Thinking"), ("model", "Model"), ("messages", "Messages"), ("tokens", "Tokens"), ("usage", "Usage on path"), ("compaction", "Compaction")]


class ContextHeader(QFrame):
    """Settings and numbers of the shown context, and the view's switches."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.NoFrame)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(10, 8, 10, 6)
        outer.setSpacing(4)
        self._build_titles(outer)
        outer.addLayout(self._value_grid())
        outer.addLayout(self._controls())

    def _build_titles(self, outer: QVBoxLayout) -> None:
        self.title = plain_label("")
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
            "pi's estimate: characters / 4 for each message (images count 4,800 characters).\n"
            "pi's running estimate starts from the last assistant usage and adds what came after it."
        )
        self.values["usage"].setToolTip("Recorded by assistant messages, usage entries, tool results and summaries on the path, as pi totals them")
        return grid

    def _controls(self) -> QHBoxLayout:
        controls = QHBoxLayout()
        controls.setSpacing(6)
        self.show_dropped = QCheckBox("Show dropped")
        self.show_dropped.setToolTip("Show messages a context edit removed, greyed out. They are NOT sent to the model.")
        self.expand_thinking = QCheckBox("Expand thinking")
        self.top_button = _tool_button("⤒", "Go to the first message")
        self.end_button = _tool_button("⤓", "Go to the last message")
        self.copy_button = _tool_button("Copy", "Copy the whole context as a Markdown transcript")
        for widget in (self.show_dropped, self.expand_thinking):
            controls.addWidget(widget)
        controls.addStretch(1)
        for widget in (self.top_button, self.end_button, self.copy_button):
            controls.addWidget(widget)
        return controls

    def show_context(self, context: Context, stats: ContextStats, info: ContextInfo, entry: Entry | None) -> None:
        self.title.setText(f"Context at {context.leaf}")
        self.subtitle.setText(entry_title(entry, 120) if entry is not None else "")
        self.values["thinking"].setText(plain(context.thinking_level))
        self.values["model"].setText(format_model(context.model))
        dropped = sum(1 for item in info.items if item.dropped)
        self.values["messages"].setText(_message_count(stats, dropped))
        self.values["tokens"].setText(_token_estimate(stats))
        usage = format_usage(stats)
        if stats.usage.total.records:
            usage += f" · {stats.usage.total.records} records"
        self.values["usage"].setText(usage)
        self.values["compaction"].setText(_compaction_line(context, info))
        self.show_dropped.setText(f"Show dropped ({dropped})" if dropped else "Show dropped")
        self.show_dropped.setEnabled(bool(dropped) or self.show_dropped.isChecked())

    def clear(self, text: str) -> None:
        self.title.setText(text)
        self.subtitle.setText("")
        for value in self.values.values():
            value.setText("")


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
    tokens = f"≈{stats.estimated_tokens:,} (chars/4)"
    estimate = stats.pi_estimate
    if estimate.last_usage_index is not None:
        tokens += f" · pi's estimate {estimate.tokens:,} = last usage {estimate.usage_tokens:,} (#{estimate.last_usage_index + 1}) + {estimate.trailing_tokens:,} after"
    return tokens


def _compaction_line(context: Context, info: ContextInfo) -> str:
    compaction = context.compaction
    if compaction is None:
        return "none on this path"
    return f"{compaction.id} · summarizes {info.summarized} entries · {format_tokens(compaction.get('tokensBefore'))} tokens before"
