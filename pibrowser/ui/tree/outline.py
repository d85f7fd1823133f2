"""The outline: the shown tree as rows in the tree's own view, beside the map as a second way to see it.

It draws the layout the map draws (the same units, folds and marked items), so the
selection, folds, hits and comparison carry over when the view switches. Its rows
follow pi's /tree order; its keys are pi's /tree keys (outline_rows.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtWidgets import QGraphicsScene

from .outline_item import ROW, OutlineItem, compare_chains, path_chain
from .outline_rows import OutlineRows, branch_down, branch_up, outline_rows, page, step

if TYPE_CHECKING:
    from ...model.session.session import Session
    from .layout import TreeLayout
    from .style import Style
    from .tree_marks import TreeMarks

MIN_WIDTH = 480.0  # rows are at least this wide, so a narrow window still shows some of each title
TEXT_ROOM = 420.0  # past the deepest node, room for some of its text


class Outline:
    """The rows (`rows`) and their item (`item`, None while the map is shown) for the layout last shown."""

    def __init__(self, scene: QGraphicsScene) -> None:
        self._scene = scene
        self.rows: OutlineRows | None = None
        self.item: OutlineItem | None = None
        self._rows_for: tuple | None = None  # the layout, leaf unit and style the rows were made for
        self._width = MIN_WIDTH

    def shown(self) -> bool:
        return self.item is not None and self.item.isVisible()

    def forget(self) -> None:
        """Drop the item (the scene is clearing it) and the rows (the layout is going)."""
        self.item, self.rows, self._rows_for = None, None, None

    def show(self, lay: TreeLayout, session: Session, units: list, leaf_unit: int | None, style: Style) -> None:
        """Lay `lay` out as rows (the branch of `leaf_unit` first) and draw them; the rows of the
        layout shown last are kept (switching back and forth lays nothing out again)."""
        wanted = (lay, leaf_unit, style)
        if self.rows is None or self._rows_for is None or any(a is not b for a, b in zip(self._rows_for, wanted)):
            self.rows = outline_rows(lay, session, leaf_unit)
            self._rows_for = wanted
            if self.item is not None:
                self._scene.removeItem(self.item)
            self.item = OutlineItem(self.rows, lay, units, style, self._width)
            self._scene.addItem(self.item)
        if self.item is not None:  # made with the rows
            self.item.setVisible(True)

    def hide(self) -> None:
        """Out of sight while the map shows (kept, with its rows, for switching back)."""
        if self.item is not None:
            self.item.setVisible(False)

    def rect(self) -> QRectF:
        """The scene rectangle the outline needs: its rows and a little room below the last."""
        rows = len(self.rows) if self.rows is not None else 0
        return QRectF(0, 0, self._width, rows * ROW + 2 * ROW)

    def set_width(self, width: float) -> None:
        """As wide as the view (the rows' text is elided there, with its whole text in the tooltip),
        or wider when the deepest rows sit further in than that."""
        deepest = self.item.deepest() + TEXT_ROOM if self.item is not None else 0.0
        self._width = max(MIN_WIDTH, width, deepest)
        if self.item is not None:
            self.item.set_width(self._width)

    def mark(self, marks: TreeMarks, units: list, style: Style) -> None:
        """Draw the marked path's or the compared paths' edges, and repaint the rows in sight. Not while the
        map shows: the rows kept may be of a layout since replaced (they are marked when they show again)."""
        if self.item is None or self.rows is None or not self.shown():
            return
        if marks.chains:
            self.item.set_chains(compare_chains(self.rows, marks.chains, style))
        else:
            self.item.set_chains([path_chain(self.rows, units, marks.path.chain, style)])

    def update(self) -> None:
        if self.item is not None:
            self.item.update()

    def repaint(self, item) -> None:
        """An item's look changed (hovered): on the map it repaints itself, here its row does."""
        item.update()
        if self.shown():
            rect = self.row_rect(item.unit)
            if self.item is not None and rect is not None:
                self.item.update(rect)

    # ---- where things are -------------------------------------------------------------------

    def unit_at(self, point: QPointF) -> int | None:
        if self.item is None or self.rows is None:
            return None
        row = self.item.row_at(point.y())
        return self.rows.unit(row) if row is not None else None

    def row_rect(self, unit: int | None) -> QRectF | None:
        if self.item is None or self.rows is None or unit is None:
            return None
        return self.item.row_rect(self.rows.row_of[unit])

    def node_point(self, unit: int | None) -> QPointF | None:
        if self.item is None or self.rows is None or unit is None:
            return None
        return self.item.node_point(self.rows.row_of[unit])

    # ---- pi's /tree keys ---------------------------------------------------------------------

    def target(self, lay: TreeLayout, unit: int, move: str, page_rows: int) -> int | None:
        """The unit a move leads to from `unit`: "up", "down" (a row, round the ends), "page_up",
        "page_down", "branch_up", "branch_down"."""
        rows = self.rows
        if rows is None or not len(rows):
            return None
        row = rows.row_of[unit]
        if move in ("up", "down"):
            row = step(rows, row, -1 if move == "up" else 1)
        elif move in ("page_up", "page_down"):
            row = page(rows, row, -page_rows if move == "page_up" else page_rows)
        elif move == "branch_up":
            row = branch_up(rows, lay, row)
        elif move == "branch_down":
            row = branch_down(rows, lay, row)
        else:
            return None
        return rows.unit(row)
