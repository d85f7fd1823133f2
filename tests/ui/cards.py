"""Reaching the cards of a list as a user does: the live card over a row, a click on one of its parts."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QHelpEvent, QMouseEvent
from PySide6.QtWidgets import QApplication, QToolTip

from pibrowser.ui.cards.live_card import LiveCard
from pibrowser.ui.cards.row_list import RowList
from pibrowser.ui.cards.text_piece import Text


def live(cards: RowList, row: int) -> LiveCard:
    """The live card over a row, the row scrolled into view first (as the mouse reaches it)."""
    view = cards.live_card(row)
    assert view.isVisible() and view.geometry() == cards.row_rect(row)
    return view


def point_of(view: LiveCard, target: object) -> QPoint:
    rect = view.root.rect_of(target, view.width())
    assert rect is not None, f"{target!r} is not shown"
    assert view.rect().contains(rect.center())
    return rect.center()


def hover(widget, spot: QPoint) -> None:
    """The mouse moves over a point of a widget. (Sent to the widget: QTest moves the cursor instead, and
    maps the point through the screen's pixel ratio, which lands elsewhere on a scaled screen.)"""
    event = QMouseEvent(
        QEvent.Type.MouseMove,
        QPointF(spot),
        QPointF(widget.mapToGlobal(spot)),
        Qt.MouseButton.NoButton,
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(widget, event)


def click(qtbot, cards: RowList, row: int, target: object, button=Qt.MouseButton.LeftButton) -> None:
    """Click a part of a row's card (a link, a section's title, a thumbnail, a frame, the card itself)."""
    view = live(cards, row)
    spot = point_of(view, target)
    hover(view, spot)
    qtbot.mouseClick(view, button, pos=spot)


def click_at(qtbot, cards: RowList, row: int, spot: QPoint) -> None:
    view = live(cards, row)
    hover(view, spot)
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=spot)


def tooltip_at(view: LiveCard, spot: QPoint) -> str:
    """The tooltip the live card shows at a point ("" when none)."""
    QToolTip.hideText()
    QApplication.sendEvent(view, QHelpEvent(QEvent.Type.ToolTip, spot, view.mapToGlobal(spot)))
    return QToolTip.text() if QToolTip.isVisible() else ""


def reach_text(qtbot, cards: RowList, row: int, text: Text):
    """Move the mouse over a text of a row's card: its live text view, laid over it."""
    view = live(cards, row)
    hover(view, point_of(view, text))
    return view.texts[text]


def right_click(cards: RowList, row: int, spot: QPoint | None = None):
    """Open the card's menu as a right click does; returns the menu."""
    from PySide6.QtGui import QContextMenuEvent

    view = live(cards, row)
    spot = spot if spot is not None else QPoint(6, 6)
    QApplication.sendEvent(view, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, spot, view.mapToGlobal(spot)))
    return cards.actions_.menu
