"""A widget shown whole where its column has room for it, and scrolled where it has not.

A dock sizes what it holds by minimum sizes, which Qt works out without word wrap: in a short
window the context header got a line and a half for its "Made of" words while the cards below
kept their room, and the text was cut across its lines. Asking for the wrapped height outright
made the window taller than the user had made it. This asks for the wrapped height at its width,
up to what its column has left once the column's other widgets have their least, and scrolls
the rest, so nothing is cut and the window keeps its size.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtWidgets import QFrame, QScrollArea, QWidget

from ..guard import guarded

_MOST = (1 << 24) - 1  # QWIDGETSIZE_MAX: no column, no bound


class FittedScroll(QScrollArea):
    """Holds `widget` (laid out with height for width); put it in a vertical layout of its column."""

    def __init__(self, widget: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._column: QWidget | None = None  # watched for its height: the room it leaves changes
        self._hinted = -1  # the height sizeHint asked for last: the column lays out again when it changes
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setWidgetResizable(True)
        # Its least height is what its lines take at its width (the scroll area asks its height for
        # width), not Qt's guess for wrapped text at its narrowest, which left blank rows below.
        widget.setMinimumHeight(1)
        self.setWidget(widget)
        self.viewport().setAutoFillBackground(False)  # the widget paints its own background
        widget.installEventFilter(self)  # its text changed: the height it wants did too

    def wanted(self) -> int:
        """The height the widget's wrapped lines take at the width it is shown at."""
        widget = self.widget()
        layout = widget.layout() if widget is not None else None
        if widget is None or layout is None:
            return widget.sizeHint().height() if widget is not None else 0
        width = self.viewport().width() if self.isVisible() else self.width()
        return layout.totalHeightForWidth(width) if layout.hasHeightForWidth() else layout.totalSizeHint().height()

    def _room(self) -> int:
        """The column's height less what its other widgets need at the least."""
        column = self.parentWidget()
        layout = column.layout() if column is not None else None
        if column is None or layout is None:
            return _MOST
        others = 0
        for index in range(layout.count()):
            item = layout.itemAt(index)
            widget = item.widget() if item is not None else None
            if widget is not None and widget is not self and not widget.isHidden():
                others += widget.minimumSizeHint().height() + layout.spacing()
        return max(0, column.height() - others)

    def _hold(self) -> None:
        column = self.parentWidget()
        if column is not self._column:
            if self._column is not None:
                self._column.removeEventFilter(self)
            if column is not None:
                column.installEventFilter(self)
            self._column = column
        wanted = self.wanted()
        least = min(wanted, self._room())
        if least != self.minimumHeight():
            self.setMinimumHeight(least)  # which has the column lay out again
        elif wanted != self._hinted:
            self.updateGeometry()  # (every resize of the column asking again would lay it out again)
        self._hinted = wanted

    @guarded(fallback=QSize())
    def sizeHint(self) -> QSize:
        return QSize(super().sizeHint().width(), self.wanted())

    @guarded(fallback=False)
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if (watched is self.widget() and kind == QEvent.Type.LayoutRequest) or (watched is self._column and kind == QEvent.Type.Resize):
            self._hold()
        return False

    @guarded
    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._hold()
