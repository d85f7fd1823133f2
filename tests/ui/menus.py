"""Menus as a user meets them: a right-click opens one, an entry is chosen in it."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtGui import QAction, QContextMenuEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMenu, QWidget


def plain(text: str) -> str:
    """An action's text as it reads: without its mnemonic marks."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def right_click(widget: QWidget, spot: QPoint) -> QMenu:
    """Right-click `widget` at `spot` as the mouse does; the menu that pops up."""
    QApplication.sendEvent(widget, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, spot, widget.mapToGlobal(spot)))
    menu = QApplication.activePopupWidget()
    assert isinstance(menu, QMenu), f"no menu popped up on a right-click of {type(widget).__name__}"
    return menu


def entry(menu: QMenu, text: str) -> QAction:
    """The menu's entry whose text starts with `text` (mnemonics aside)."""
    found = [action for action in menu.actions() if plain(action.text()).startswith(text)]
    assert found, f"no entry {text!r} in {[plain(action.text()) for action in menu.actions()]}"
    return found[0]


def click(menu: QMenu, action: QAction) -> None:
    """Choose an entry of a shown menu as a user does: it is highlighted (the mouse over it, or the arrow
    keys), then taken (Enter), which is what a click on it does too."""
    assert menu.isVisible(), "the menu is not shown"
    assert action.isEnabled() and action.isVisible(), f"{plain(action.text())!r} cannot be chosen"
    menu.setActiveAction(action)
    QTest.keyClick(menu, Qt.Key.Key_Return)


def choose(widget: QWidget, spot: QPoint, text: str) -> None:
    """Right-click `widget` at `spot` and click the entry that starts with `text`."""
    menu = right_click(widget, spot)
    click(menu, entry(menu, text))


def choose_in_popup(opens: Callable[[], None], pick: Callable[[QMenu], QAction | None]) -> None:
    """Call `opens`, which shows a menu that runs its own loop (a button's menu, a toolbar's »), and in
    that loop choose the entry `pick` names as a user does (None: close the menu with Esc); `opens`
    returns once the menu is gone."""
    popped: list[QMenu] = []

    def take() -> None:
        menu = QApplication.activePopupWidget()
        if not isinstance(menu, QMenu) or not menu.isVisible():
            QTimer.singleShot(10, take)  # not up yet
            return
        popped.append(menu)
        action = pick(menu)
        if action is None:
            QTest.keyClick(menu, Qt.Key.Key_Escape)
        else:
            click(menu, action)

    QTimer.singleShot(0, take)
    opens()
    assert popped, "no menu popped up"
