"""The legend: what the colours of the selected path mean, shown for the colours the path uses."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
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
        self._add_rows()
        font = self.font()
        font.setPointSizeF(max(7.0, font.pointSizeF() * 0.85))
        self.setFont(font)
        self.setToolTip(_kinds_tooltip())

    def _add_rows(self) -> None:
        title = QLabel("<b>Selected path</b>")
        self._grid.addWidget(title, 0, 0, 1, 2)
        for row, (role, text) in enumerate(LEGEND, start=1):
            swatch = QLabel()
            swatch.setFixedSize(18, 6)
            label = QLabel(text)
            self._grid.addWidget(swatch, row, 0)
            self._grid.addWidget(label, row, 1)
            self.swatches[role] = swatch
            self._labels[role] = label

    def show_roles(self, roles: set) -> None:
        """Show only the rows for colours the selected path uses; hide when there are none."""
        any_shown = False
        for role, swatch in self.swatches.items():
            on = role in roles
            swatch.setVisible(on)
            self._labels[role].setVisible(on)
            any_shown = any_shown or on
        self.setVisible(self.enabled and any_shown)
        self.adjustSize()

    def set_style(self, style: Style) -> None:
        for role, swatch in self.swatches.items():
            color = style.color_for(role)
            swatch.setStyleSheet(f"background: {color.name()}; border-radius: 3px;")
        palette = self.palette()
        background = QColor(style.base)
        background.setAlpha(235)
        palette.setColor(QPalette.ColorRole.Window, background)
        self.setPalette(palette)


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
