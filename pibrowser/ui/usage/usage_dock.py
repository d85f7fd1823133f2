"""View ▸ Usage (Ctrl+Shift+U): the Usage view in a dock, shown and brought to the front by its action."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMainWindow

from ..control.controller import SessionController
from ..control.sessions_controller import SessionsController
from .usage_view import UsageView


def install_usage_dock(window: QMainWindow, controller: SessionController, sessions: SessionsController) -> tuple[QDockWidget, QAction]:
    """The dock (hidden until asked for; the usage is read the first time it shows) and its action."""
    view = UsageView(controller, sessions)
    dock = QDockWidget("Usage", window)
    dock.setObjectName("usageDock")
    dock.setWidget(view)
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
    dock.hide()
    action = QAction("&Usage…", window)
    action.setShortcut(QKeySequence("Ctrl+Shift+U"))
    action.setStatusTip("Where the tokens and the money went: usage and cost across every session in the folder")

    def show() -> None:
        dock.show()
        dock.raise_()

    action.triggered.connect(show)
    window.addAction(action)
    return dock, action
