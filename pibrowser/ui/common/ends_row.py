"""A row of two groups, one at each end, that puts the second under the first when they do not fit.

A dock must not be made wider by a row of controls, nor a row's words cut: what the
row asks for at least is the wider of its two groups, not both side by side. With
room for the first at its least and the second whole, the first takes what the second
leaves and the second sits at the end of the line; without, the second goes on a line
of its own under the first, at the end (or at the start, `under`).
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QWidget, QWidgetItem


class EndsRow(QLayout):
    """`start` and `end`, widgets or layouts; `spacing` between them on one line and between the lines;
    `under`: where the second sits on its own line (Qt.AlignmentFlag.AlignRight or AlignLeft)."""

    def __init__(
        self,
        start: QWidget | QLayout,
        end: QWidget | QLayout,
        spacing: int = 6,
        under: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignRight,
    ) -> None:
        super().__init__()
        self._items: list[QLayoutItem] = []
        self._under = under
        for part in (start, end):
            if isinstance(part, QLayout):
                self.addChildLayout(part)
                self._items.append(part)
            else:
                self.addChildWidget(part)
                self._items.append(QWidgetItem(part))
        self.setSpacing(spacing)
        self.setContentsMargins(0, 0, 0, 0)

    # ---- QLayout's questions

    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation.Horizontal

    def sizeHint(self) -> QSize:
        start, end = self._shown()
        if start is None:
            return QSize(0, 0)
        if end is None:
            return start.sizeHint()
        width = start.sizeHint().width() + self.spacing() + end.sizeHint().width()
        return QSize(width, self.heightForWidth(width))

    def minimumSize(self) -> QSize:
        shown = [item for item in self._shown() if item is not None]
        width = max((item.minimumSize().width() for item in shown), default=0)
        return QSize(width, self.heightForWidth(width))

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        start, end = self._shown()
        if start is None:
            return 0
        if end is None:
            return _height(start, width)
        if self._fits(width):
            return max(_height(start, self._start_width(width)), _height(end, _end_width(end, width)))
        below = width if self._under == Qt.AlignmentFlag.AlignLeft else _end_width(end, width)
        return _height(start, width) + self.spacing() + _height(end, below)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        start, end = self._shown()
        if start is None:
            return
        if end is None:
            start.setGeometry(rect)
            return
        end_width = _end_width(end, rect.width())
        if self._fits(rect.width()):
            width = self._start_width(rect.width())
            start.setGeometry(QRect(rect.left(), rect.top(), width, _height(start, width)))
            end.setGeometry(QRect(rect.right() + 1 - end_width, rect.top(), end_width, _height(end, end_width)))
            return
        start_height = _height(start, rect.width())
        start.setGeometry(QRect(rect.left(), rect.top(), rect.width(), start_height))
        if self._under == Qt.AlignmentFlag.AlignLeft:
            end_width = rect.width()  # a line of its own: all of it
        x = rect.right() + 1 - end_width
        end.setGeometry(QRect(x, rect.top() + start_height + self.spacing(), end_width, _height(end, end_width)))

    # ---- where the groups go

    def _shown(self) -> tuple[QLayoutItem | None, QLayoutItem | None]:
        """The groups that show (a hidden widget takes no room), the first as `start`."""
        shown = [item for item in self._items if not item.isEmpty()]
        return (shown[0] if shown else None), (shown[1] if len(shown) > 1 else None)

    def _fits(self, width: int) -> bool:
        start, end = self._shown()
        if start is None or end is None:
            return True
        return start.minimumSize().width() + self.spacing() + end.sizeHint().width() <= width

    def _start_width(self, width: int) -> int:
        """On one line, the first group takes what the second leaves."""
        _start, end = self._shown()
        return width if end is None else width - self.spacing() - _end_width(end, width)


def _end_width(item: QLayoutItem, width: int) -> int:
    return min(item.sizeHint().width(), width)


def _height(item: QLayoutItem, width: int) -> int:
    return item.heightForWidth(width) if item.hasHeightForWidth() else item.sizeHint().height()
