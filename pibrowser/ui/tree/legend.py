"""The legend: what the colours of the selected path mean, shown for the colours the path uses."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QWidget

from ...model.provenance import Edit, Part
from .fold_item import FoldItem
from .kinds import KIND_NAMES, KINDS
from .node_item import NodeItem
from .style import Style

LEGEND: list[tuple[Part | Edit, str]] = [
    (Part.IN_CONTEXT, "in context / after the compaction"),
    (Part.KEPT, "kept by the compaction"),
    (Part.CHECKPOINT, "compaction checkpoint"),
    (Part.SUMMARIZED, "summarized by the compaction"),
    (Part.SYSTEM_FOLDED, "system message folded into the checkpoint"),
    (Part.SUPERSEDED, "older compaction, superseded"),
    (Part.NOT_CONTEXT, "sends no message"),
    (Edit.DROPPED, "dropped by a context edit"),
    (Edit.REPLACED, "content replaced by a context edit"),
]

# Compare mode's rows: what each line style means.
COMPARE_LEGEND = [("A", "A: path to {left}"), ("B", "B: path to {right}"), ("trunk", "shared trunk"), ("fork", "fork point {fork} (double ring)")]

# a character that looks like each node shape, for the legend's tooltip
_GLYPHS = {"circle": "●", "square": "■", "diamond": "◆", "hexagon": "⬢", "compaction": "▬", "summary": "▭", "triangle": "▲",
           "triangle_down": "▼", "tag": "⬟", "cross": "✖", "diamond_hollow": "◇", "dot": "•", "circle_dashed": "○", "unknown": "?"}


class Legend(QFrame):
    """What the path colours mean; small, in a corner of the view."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("treeLegend")
        self.setAutoFillBackground(True)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(8, 6, 8, 6)
        self._grid.setHorizontalSpacing(6)
        self._grid.setVerticalSpacing(1)
        self.swatches: dict[object, QLabel] = {}
        self._labels: dict[object, QLabel] = {}
        self.enabled = True
        self._style: Style | None = None
        self._add_rows()
        self._add_compare_rows()
        font = self.font()
        font.setPointSizeF(max(7.0, font.pointSizeF() * 0.85))
        self.setFont(font)
        self.setToolTip(_kinds_tooltip())

    def _add_rows(self) -> None:
        self.title = QLabel("Selected path")
        bold = self.title.font()
        bold.setBold(True)
        self.title.setFont(bold)
        self._grid.addWidget(self.title, 0, 0, 1, 2)
        for row, (role, text) in enumerate(LEGEND, start=1):
            swatch = QLabel()
            swatch.setFixedSize(18, 6)
            label = QLabel(text)
            self._grid.addWidget(swatch, row, 0)
            self._grid.addWidget(label, row, 1)
            self.swatches[role] = swatch
            self._labels[role] = label

    def _add_compare_rows(self) -> None:
        start = len(LEGEND) + 1
        self.compare_rows: dict[str, tuple[QLabel, QLabel]] = {}
        for offset, (side, _text) in enumerate(COMPARE_LEGEND):
            swatch, label = QLabel(), QLabel()
            label.setTextFormat(Qt.TextFormat.PlainText)  # ids come from the file
            self._grid.addWidget(swatch, start + offset, 0)
            self._grid.addWidget(label, start + offset, 1)
            self.compare_rows[side] = (swatch, label)
            swatch.hide()
            label.hide()

    def show_roles(self, roles: set) -> None:
        """Show only the rows for colours the selected path uses; hide when there are none."""
        self.title.setText("Selected path")
        self._show_compare_rows(False)
        any_shown = False
        for role, swatch in self.swatches.items():
            on = role in roles
            swatch.setVisible(on)
            self._labels[role].setVisible(on)
            any_shown = any_shown or on
        self.setVisible(self.enabled and any_shown)
        self.adjustSize()

    def show_compare(self, left: str, right: str, fork: str | None) -> None:
        """Compare mode: the two paths, their trunk and the fork point instead of the path's parts."""
        self.title.setText("Comparing")
        for role, swatch in self.swatches.items():
            swatch.hide()
            self._labels[role].hide()
        names = {"left": _short(left), "right": _short(right), "fork": _short(fork) if fork else ""}
        for side, text in COMPARE_LEGEND:
            self.compare_rows[side][1].setText(text.format(**names))
        self._show_compare_rows(True, has_trunk=fork is not None)
        self.setVisible(self.enabled)
        self.adjustSize()

    def _show_compare_rows(self, on: bool, has_trunk: bool = True) -> None:
        for side, (swatch, label) in self.compare_rows.items():
            shown = on and (has_trunk or side in ("A", "B"))
            swatch.setVisible(shown)
            label.setVisible(shown)

    def set_style(self, style: Style) -> None:
        self._style = style
        for role, swatch in self.swatches.items():
            color = style.color_for(role)
            swatch.setStyleSheet(f"background: {color.name()}; border-radius: 3px;")
        for side, (swatch, _label) in self.compare_rows.items():
            swatch.setPixmap(_line_swatch(style, side, self.devicePixelRatioF()))
        palette = self.palette()
        background = QColor(style.base)
        background.setAlpha(235)
        palette.setColor(QPalette.ColorRole.Window, background)
        self.setPalette(palette)


def _short(key: str | None) -> str:
    text = "" if key is None else str(key)
    return text if len(text) <= 12 else text[:11] + "…"


def _line_swatch(style: Style, side: str, ratio: float) -> QPixmap:
    """A short stretch of the path's line (or the fork's double ring), as the tree draws it."""
    width, height = 26, 14
    pixmap = QPixmap(int(width * ratio), int(height * ratio))
    pixmap.setDevicePixelRatio(ratio)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    if side == "fork":
        pen = style.compare_pen("trunk")
        pen.setWidthF(2.0)
        painter.setPen(pen)
        center = QPointF(width / 2, height / 2)
        painter.drawEllipse(center, 3.5, 3.5)
        painter.drawEllipse(center, 6.0, 6.0)
    else:
        painter.setPen(style.compare_pen(side))
        painter.drawLine(QPointF(2, height / 2), QPointF(width - 2, height / 2))
    painter.end()
    return pixmap


def path_roles(items: list, marked: set[int]) -> set:
    """The parts and edits the marked items show, so the legend lists just those."""
    roles: set = set()
    for unit in marked:
        item = items[unit]
        if isinstance(item, NodeItem) and item.provenance is not None:
            roles.add(item.provenance.part)
            if item.provenance.edit is not None:
                roles.add(item.provenance.edit)
        elif isinstance(item, FoldItem):
            roles.update(part for part, _ in item.path_parts)
    if Part.AFTER_COMPACTION in roles:
        roles.add(Part.IN_CONTEXT)  # one colour, one row
    return roles


def _kinds_tooltip() -> str:
    rows = []
    seen = set()
    for kind, (light, _, shape, _) in KINDS.items():
        name = KIND_NAMES[kind]
        if name in seen:
            continue
        seen.add(name)
        rows.append(f"<span style='color:{light}'>{_GLYPHS.get(shape, '●')}</span> {name}")
    rows.append("<br>A bar under a node ends a branch; an amber ring marks the current leaf.")
    rows.append("A dashed capsule is a fold: click it to show its entries.")
    return "<b>Node shapes</b><br>" + "<br>".join(rows)
