"""The legend: every shape, mark and colour the tree draws, in a strip under the tree that never covers it.

On the left, the kinds of entry the tree shows (shape and colour) and the marks a
node can carry; on the right, the selected path's colours (just those it uses) or,
comparing, the two paths' lines. The strip folds to one line; whether it is folded
is remembered.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from PySide6.QtCore import QPointF, QSettings, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import QFrame, QGridLayout, QHBoxLayout, QLabel, QScrollArea, QSizePolicy, QToolButton, QWidget

from ...model.context.provenance import Edit, Part, Provenance, path_parts
from .fold_item import FoldItem
from .kinds import KIND_NAMES, KINDS
from .node_item import NodeItem
from ..common.ends_row import EndsRow
from .style import Style
from ..guard import guarded

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
COMPARE_LEGEND = [
    ("A", "A: path to {left}"),
    ("B", "B: path to {right}"),
    ("trunk", "shared trunk"),
    ("fork", "fork point {fork} (double ring)"),
]

SETTING = "tree/legendExpanded"

# a character that looks like each node shape
_GLYPHS = {
    "circle": "●",
    "square": "■",
    "diamond": "◆",
    "hexagon": "⬢",
    "compaction": "▬",
    "summary": "▭",
    "triangle": "▲",
    "triangle_down": "▼",
    "tag": "⬟",
    "cross": "✖",
    "diamond_hollow": "◇",
    "dot": "•",
    "circle_dashed": "○",
    "unknown": "?",
}


class Legend(QFrame):
    """Shapes and marks (`text`), and the path's colours or the compared paths (`swatches`, `compare_rows`)."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("treeLegend")
        self.setAutoFillBackground(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.kinds: list[str] = []
        row = QHBoxLayout(self)
        row.setContentsMargins(4, 2, 6, 3)
        row.setSpacing(8)
        self.toggle = QToolButton(self)
        self.toggle.setAutoRaise(True)
        self.toggle.setCheckable(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setText("Legend")
        self.toggle.setToolTip("Fold or unfold the legend")
        self.toggle.setChecked(QSettings().value(SETTING, False) in (True, "true"))  # folded at first: the tree gets the room
        # The content scrolls inside the height the pane allows (cap_height), so the tree keeps its room.
        self.scroll_area = QScrollArea(self)
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        content = QWidget()
        content.setAutoFillBackground(False)
        self.text = QLabel(content)
        self.text.setTextFormat(Qt.TextFormat.RichText)  # our own words and colours only, nothing from a session
        self.text.setWordWrap(True)
        self.text.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.text.setMinimumWidth(160)
        self.paths = _Paths(content)
        # The path's colours beside the shapes and marks, or under them where the tree is narrow.
        content.setLayout(EndsRow(self.text, self.paths, spacing=10, under=Qt.AlignmentFlag.AlignLeft))
        self.scroll_area.setWidget(content)
        self.scroll_area.viewport().setAutoFillBackground(False)
        row.addWidget(self.toggle, 0, Qt.AlignmentFlag.AlignTop)
        row.addWidget(self.scroll_area, 1)
        self._grid = QGridLayout(self.paths)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._grid.setHorizontalSpacing(6)
        self._grid.setVerticalSpacing(1)
        self.swatches: dict[Part | Edit, QLabel] = {}
        self._labels: dict[object, QLabel] = {}
        self.enabled = True
        self._style: Style | None = None
        # While folded, the selected path's rows are hidden: what they show is worked out when it opens.
        self._roles_later: Callable[[], set] | None = None
        self._add_rows()
        self._add_compare_rows()
        font = self.font()
        font.setPointSizeF(max(7.0, font.pointSizeF() * 0.85))
        self.setFont(font)
        self.toggle.toggled.connect(self._expand)
        self._expand(self.toggle.isChecked(), remember=False)

    def cap_height(self, pane_height: int) -> None:
        """At most 30% of the pane's height (what does not fit scrolls), at least a line of it."""
        self.setMaximumHeight(max(self.toggle.sizeHint().height() + 8, pane_height * 3 // 10))

    @guarded(fallback=QSize())
    def sizeHint(self):
        # As tall as the content wants (the scroll area alone would ask for little), within the cap.
        hint = super().sizeHint()
        content = self.scroll_area.widget()
        wanted = content.heightForWidth(max(200, self.width() - self.toggle.width() - 24)) if content is not None else -1
        if wanted > 0:
            hint.setHeight(min(self.maximumHeight(), wanted + 8))
        return hint

    def expanded(self) -> bool:
        return self.toggle.isChecked()

    def _expand(self, on: bool, remember: bool = True) -> None:
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)
        self.paths.setVisible(on)
        if remember:
            QSettings().setValue(SETTING, on)
        self._refresh_text()
        if on and self._roles_later is not None:
            self.show_roles(self._roles_later())

    def show_kinds(self, kinds: Iterable[str]) -> None:
        """List the kinds of entry the tree shows, in KINDS order."""
        wanted = set(kinds)
        self.kinds = [kind for kind in KINDS if kind in wanted]
        self._refresh_text()

    def _refresh_text(self) -> None:
        style = self._style
        if style is None:
            return
        if not self.expanded():
            self.text.setText(f"<span style='color:{style.muted.name()}'>Shapes, marks and the colours of the selected path</span>")
        else:
            self.text.setText(_entries_line(self.kinds, style) + "<br>" + _marks_line(style))

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
            label.setWordWrap(True)  # a narrow tree wraps its words rather than cutting them
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
            label.setWordWrap(True)
            self._grid.addWidget(swatch, start + offset, 0)
            self._grid.addWidget(label, start + offset, 1)
            self.compare_rows[side] = (swatch, label)
            swatch.hide()
            label.hide()

    def show_marks(self, compared: tuple[str, str] | None, fork: str | None, roles: Callable[[], set]) -> None:
        """The compared paths when comparing, else the colours the selected path uses (`roles()`;
        asked when the rows show: folded, when it opens, as the selection's frame needs none of it)."""
        self._roles_later = None
        if compared:
            self.show_compare(*compared, fork)
        elif self.expanded():
            self.show_roles(roles())
        else:
            self.title.setText("Selected path")
            self._show_compare_rows(False)
            self._roles_later = roles
            self.setVisible(self.enabled)

    def show_roles(self, roles: set) -> None:
        """Show only the rows for colours the selected path uses; hide when there are none."""
        self._roles_later = None
        self.title.setText("Selected path")
        self._show_compare_rows(False)
        any_shown = False
        for role, swatch in self.swatches.items():
            on = role in roles
            swatch.setVisible(on)
            self._labels[role].setVisible(on)
            any_shown = any_shown or on
        self.title.setVisible(any_shown)
        self.setVisible(self.enabled)

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
        self.title.show()
        self.setVisible(self.enabled)

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
        self._refresh_text()


class _Paths(QWidget):
    """The path's rows: as wide as their longest line unwrapped (their words wrap only where even a
    line of its own is too narrow for them)."""

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        layout = self.layout()
        if not isinstance(layout, QGridLayout):
            return hint
        widest = 0
        for index in range(layout.count()):
            item = layout.itemAt(index)
            widget = item.widget() if item is not None else None
            if isinstance(widget, QLabel) and widget.isVisibleTo(self) and widget.text():
                widest = max(widest, widget.fontMetrics().horizontalAdvance(widget.text()))
        return QSize(max(hint.width(), widest + 26 + layout.horizontalSpacing() + 2), hint.height())


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


def path_roles(items: list, marked: set[int], provenance: Mapping[str, Provenance]) -> set:
    """The parts and edits the marked items show, so the legend lists just those.

    A fold on the path shows its members' parts; rather than run through every member
    of every fold (a path can be 100,000 entries long), any fold on the path lets in the
    parts of the whole path (`provenance`).
    """
    roles: set = set()
    folds = False
    for unit in marked:
        item = items[unit]
        if isinstance(item, NodeItem) and item.provenance is not None:
            roles.add(item.provenance.part)
            if item.provenance.edit is not None:
                roles.add(item.provenance.edit)
        elif isinstance(item, FoldItem) and item.on_path:
            folds = True
    if folds:
        roles.update(path_parts(provenance))
    if Part.AFTER_COMPACTION in roles:
        roles.add(Part.IN_CONTEXT)  # one colour, one row
    return roles


def shown_kinds(items: list) -> set[str]:
    """The kinds of entry the tree's items show (a fold's members are not drawn, so not counted)."""
    return {item.kind for item in items if isinstance(item, NodeItem)}


def _chip(color: QColor | str, text: str) -> str:
    return f"<span style='color:{QColor(color).name()}'>{text}</span>"


def _entries_line(kinds: list[str], style: Style) -> str:
    seen: set[str] = set()
    items = []
    for kind in kinds:
        name = KIND_NAMES[kind]
        if name in seen:
            continue
        seen.add(name)
        items.append(f"{_chip(style.kind_color[kind], _GLYPHS.get(style.kind_shape_name[kind], '●'))}&nbsp;{name}")
    return "<b>Entries</b>&nbsp; " + " &nbsp;".join(items)


def _marks_line(style: Style) -> str:
    pill = f"background:{style.highlight.name()}; color:{style.highlighted_text.name()}"
    marks = [
        f"{_chip(style.accent, '◯')}&nbsp;current leaf (where pi resumes)",
        f"<span style='background:{style.label_bg.name()}; color:{style.label_fg.name()}'>&nbsp;label&nbsp;</span>"
        f" or {_chip(style.label_bg.darker(140), '⚑')}&nbsp;labelled",
        f"{_chip(style.outline, '▁')}&nbsp;end of a branch",
        f"{_chip(style.highlight, '◌')}&nbsp;stands in for a hidden selection",
        f"{_chip(style.muted, '◖◗')}&nbsp;fold (click to open)",
        f"{_chip(style.current_hit, '●')}&nbsp;search hit",
        f"<span style='{pill}'>&nbsp;A&nbsp;</span><span style='{pill}'>&nbsp;B&nbsp;</span>&nbsp;compared",
        f"{_chip(style.edit_color[Edit.DROPPED], '•')}{_chip(style.edit_color[Edit.REPLACED], '•')}&nbsp;changed by a context edit",
    ]
    return "<b>Marks</b>&nbsp; " + " &nbsp;".join(marks)
