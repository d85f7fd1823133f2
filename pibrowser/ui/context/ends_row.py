"""A row of two groups, one at each end, that puts the second under the first when they do not fit.

A dock must not be made wider by a row of controls: what the row asks for at
least is the wider of its two groups, not both side by side. With room for both,
the first sits at the start and the second at the end of one line; without, the
second goes on a line of its own, at the end.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QWidget, QWidgetItem


class EndsRow(QLayout):
    """`start` and `end`, widgets or layouts; `spacing` between them on one line and between the lines."""

    def __init__(self, start: QWidget | QLayout, end: QWidget | QLayout, spacing: int = 6) -> None:
        super().__init__()
        self._items: list[QLayoutItem] = []
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
        if end is None:
            return start.sizeHint() if start is not None else QSize(0, 0)
        assert start is not None
        return QSize(start.sizeHint().width() + self.spacing() + end.sizeHint().width(), self._line_height())

    def minimumSize(self) -> QSize:
        shown = [item for item in self._shown() if item is not None]
        width = max((item.minimumSize().width() for item in shown), default=0)
        return QSize(width, self.heightForWidth(width))

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        start, end = self._shown()
        if end is None or start is None or self._fits(width):
            return self._line_height()
        return start.sizeHint().height() + self.spacing() + end.sizeHint().height()

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        start, end = self._shown()
        if start is None:
            return
        start_size = start.sizeHint()
        if end is None:
            start.setGeometry(QRect(rect.left(), rect.top(), min(start_size.width(), rect.width()), rect.height()))
            return
        end_size = end.sizeHint()
        end_width = min(end_size.width(), rect.width())
        if self._fits(rect.width()):
            height = self._line_height()
            start.setGeometry(QRect(rect.left(), rect.top(), min(start_size.width(), rect.width() - end_width), height))
            end.setGeometry(QRect(rect.right() + 1 - end_width, rect.top(), end_width, height))
            return
        start.setGeometry(QRect(rect.left(), rect.top(), min(start_size.width(), rect.width()), start_size.height()))
        below = rect.top() + start_size.height() + self.spacing()
        end.setGeometry(QRect(rect.right() + 1 - end_width, below, end_width, end_size.height()))

    # ---- where the groups go

    def _shown(self) -> tuple[QLayoutItem | None, QLayoutItem | None]:
        """The groups that show (a hidden widget takes no room), the first as `start`."""
        shown = [item for item in self._items if not item.isEmpty()]
        return (shown[0] if shown else None), (shown[1] if len(shown) > 1 else None)

    def _fits(self, width: int) -> bool:
        start, end = self._shown()
        if start is None or end is None:
            return True
        return start.sizeHint().width() + self.spacing() + end.sizeHint().width() <= width

    def _line_height(self) -> int:
        return max((item.sizeHint().height() for item in self._shown() if item is not None), default=0)
