"""What the context is made of, as one stacked bar in the header: each kind's share of pi's estimate.

The segments follow model/tokens/composition.py: the system prompt first, then
user text, assistant text, thinking, tool calls and tool results per tool name,
images, summaries, custom messages, shell runs, and pi's rounding. Hovering
names a segment and its size; a click asks the panel to show only the cards
holding that kind (`kindChosen`), a click on the chosen one shows all again.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from ...model.tokens.composition import ROUNDING, Composition, group_of, kind_name
from ..style.colors import kind_color, mix
from ..common.safe_text import safe_tip
from ..guard import guarded, guarded_paint

BAR_HEIGHT = 14


class CompositionBar(QWidget):
    """`set_composition(c)` shows it; `kindChosen(kind)` is a click ("" to show every card again)."""

    kindChosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.composition: Composition | None = None
        self.chosen: str | None = None
        self.segments: list[tuple[str, float, float, QColor]] = []  # kind, x from, x to, colour
        self.setMouseTracking(True)
        self.setMinimumHeight(BAR_HEIGHT + 4)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setAccessibleName("What the context is made of")
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    @guarded(fallback=QSize())
    def sizeHint(self) -> QSize:
        return QSize(200, BAR_HEIGHT + 4)

    def set_composition(self, composition: Composition | None) -> None:
        self.composition = composition
        if composition is None or self.chosen not in composition.chars:
            self.chosen = None
        self._lay_out()
        self.update()

    def set_chosen(self, kind: str | None) -> None:
        self.chosen = kind
        self.update()

    def _lay_out(self) -> None:
        self.segments = []
        composition = self.composition
        if composition is None or not composition.tokens:
            return
        width = max(1.0, self.width() - 2.0)
        x = 1.0
        seen: dict[str, int] = {}
        for kind, _, tokens in composition.shares():
            group = group_of(kind) if kind != ROUNDING else ROUNDING
            nth = seen.get(group, 0)
            seen[group] = nth + 1
            right = x + width * tokens / composition.tokens
            self.segments.append((kind, x, right, kind_color(kind, nth)))
            x = right

    @guarded
    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._lay_out()

    def kind_at(self, x: float) -> str | None:
        for kind, left, right, _ in self.segments:
            if left <= x < right or (right - left < 3 and abs(x - (left + right) / 2) < 2):
                return kind
        return None

    def describe(self, kind: str) -> str:
        """A kind's name, characters, tokens and share, as the tooltip says it."""
        composition = self.composition
        assert composition is not None, "the bar's kinds are those of the composition it shows"
        tokens = composition.kind_tokens(kind)
        share = tokens / composition.tokens if composition.tokens else 0
        if kind == ROUNDING:
            return f"{kind_name(kind)}: {tokens:,.2f} tokens ({share:.1%})"
        chars = composition.chars.get(kind, 0)
        action = "show all cards again" if kind == self.chosen else "show only the cards with it"
        return (
            f"{kind_name(kind)}: {chars:,} characters ≈ {tokens:,.0f} tokens ({share:.1%})\n"
            f"pi's estimate: characters / 4, images 4,800 characters each. Click to {action}."
        )

    @guarded_paint
    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        palette = self.palette()
        base = palette.color(QPalette.ColorRole.Base)
        text = palette.color(QPalette.ColorRole.Text)
        top = (self.height() - BAR_HEIGHT) / 2
        painter.fillRect(QRectF(0, top, self.width(), BAR_HEIGHT), mix(base, text, 0.08))
        for kind, left, right, color in self.segments:
            if self.chosen is not None and kind != self.chosen:
                color = mix(color, base, 0.65)
            painter.fillRect(QRectF(left, top, max(1.0, right - left), BAR_HEIGHT), color)
        if self.chosen is not None:
            for kind, left, right, _ in self.segments:
                if kind == self.chosen:
                    painter.setPen(QPen(text, 1.5))
                    painter.drawRect(QRectF(left, top + 0.5, max(2.0, right - left), BAR_HEIGHT - 1))
        painter.end()

    @guarded
    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        kind = self.kind_at(event.position().x())
        if kind is None:
            QToolTip.hideText()
            return
        QToolTip.showText(event.globalPosition().toPoint(), safe_tip(self.describe(kind)), self)

    @guarded
    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        kind = self.kind_at(event.position().x())
        if kind is None or kind == ROUNDING:
            return
        self.kindChosen.emit("" if kind == self.chosen else kind)
