"""Help ▸ Keyboard Shortcuts: every key the window answers to, read from the live menus."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QMenu, QMenuBar, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from ..common.widgets import fit_dialog
from ..tree.filter_keys import shortcut_rows

# Keys that are not menu actions: the tree view and the search box handle them directly.
TREE_KEYS = (
    ("↑", "Parent entry (outline: the row above)"),
    ("↓", "First child (outline: the row below)"),
    ("← / →", "Previous / next sibling (outline: a page up / down)"),
    ("Page Up / Page Down", "Outline: a page up / down"),
    ("Ctrl+← / Alt+←", "Fold the selection's run, or up to where its branch starts"),
    ("Ctrl+→ / Alt+→", "Open the fold, or down to the next branch"),
    ("Home", "Root of the selected branch"),
    ("End", "Current leaf (where pi resumes)"),
    ("Enter / Space", "Open the fold the selection stands in"),
    ("Wheel", "Zoom around the pointer"),
    ("Shift+Wheel", "Scroll sideways"),
    ("Drag", "Pan"),
    ("Click / right-click", "Select / menu of the entry"),
)
# Ctrl+F and Esc are Edit menu actions, listed with the menus.
SEARCH_KEYS = (
    ("Enter / F3 / ↓", "Next hit"),
    ("Shift+Enter / Shift+F3 / ↑", "Previous hit"),
)


def menu_shortcuts(menu_bar: QMenuBar) -> list[tuple[str, list[tuple[str, str]]]]:
    """(menu title, [(keys, action text)]) for every menu action that has a shortcut."""
    groups = []
    for menu_action in menu_bar.actions():
        menu = menu_action.menu()
        if not isinstance(menu, QMenu):
            continue
        rows = list(_rows(menu.actions()))
        if rows:
            groups.append((_plain(menu_action.text()), rows))
    return groups


def _rows(actions: Iterable[QAction]) -> Iterable[tuple[str, str]]:
    for action in actions:
        keys = [key.toString(QKeySequence.SequenceFormat.NativeText) for key in action.shortcuts() if not key.isEmpty()]
        if keys:
            yield " / ".join(keys), _plain(action.text())


def _plain(text: str) -> str:
    """Menu text without its mnemonic ampersand or trailing ellipsis."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip("…")


class ShortcutsDialog(QDialog):
    """A two-column list, grouped by where the keys work."""

    def __init__(self, menu_bar: QMenuBar, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard Shortcuts")
        self.tree = QTreeWidget(self)
        self.tree.setColumnCount(2)
        self.tree.setHeaderLabels(["Keys", "Does"])
        self.tree.setRootIsDecorated(False)
        self.tree.setSelectionMode(QTreeWidget.SelectionMode.NoSelection)
        self.tree.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        groups = [
            ("Tree", list(TREE_KEYS)),
            ("Tree filter, as in pi's /tree", shortcut_rows()),
            ("Search", list(SEARCH_KEYS)),
            *menu_shortcuts(menu_bar),
        ]
        for title, rows in groups:
            self._add_group(title, rows)
        self.tree.expandAll()
        self.tree.resizeColumnToContents(0)
        self.tree.setWordWrap(True)  # where the window leaves less room than the longest line, it wraps
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tree)
        layout.addWidget(buttons)
        # Wide enough for every line whole: the keys, the longest description, the scroll bar.
        margins = layout.contentsMargins()
        wanted = (
            self.tree.columnWidth(0)
            + self.tree.sizeHintForColumn(1)
            + self.tree.verticalScrollBar().sizeHint().width()
            + 2 * self.tree.frameWidth()
            + margins.left()
            + margins.right()
        )
        fit_dialog(self, wanted, 560)

    def _add_group(self, title: str, rows: list[tuple[str, str]]) -> None:
        head = QTreeWidgetItem(self.tree, [title])
        font = head.font(0)
        font.setBold(True)
        head.setFont(0, font)
        head.setFirstColumnSpanned(True)
        head.setFlags(Qt.ItemFlag.ItemIsEnabled)
        for keys, text in rows:
            QTreeWidgetItem(head, [keys, text])

    def rows(self) -> dict[str, list[tuple[str, str]]]:
        """What the dialog lists, by group (for tests and for copying)."""
        out = {}
        for head in filter(None, map(self.tree.topLevelItem, range(self.tree.topLevelItemCount()))):
            rows = filter(None, map(head.child, range(head.childCount())))
            out[head.text(0)] = [(row.text(0), row.text(1)) for row in rows]
        return out
