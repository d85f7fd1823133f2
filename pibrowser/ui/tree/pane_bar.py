"""The tree pane's bar: the filter, the search field, the tree's main commands, then the rest.

The row never hides what a narrow window needs most: the search field (Ctrl+F), Fit,
Fold and Unfold are widgets of the row itself. Stepping through hits (F3 and Enter do
it too), the Map / Outline switch (also in the View menu), zoom and the legend's switch
sit in a toolbar that gives up room next (its » menu holds them then); the counts take
what is left, elided.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QPalette
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QSizePolicy, QToolBar, QToolButton, QWidget

from ...model.session.tree_filter import PI_MODES, FilterMode
from ..common.widgets import ElidedLabel, set_muted

if TYPE_CHECKING:
    from .menu import TreeActions


@dataclass(frozen=True)
class PaneBar:
    """The bar's widgets and actions, for the pane to wire up."""

    row: QWidget
    show_label: QLabel
    filter_combo: QComboBox
    search_edit: QLineEdit
    previous_action: QAction
    next_action: QAction
    hit_label: QLabel
    reveal_button: QToolButton
    reveal_action: QAction
    toolbar: QToolBar
    info_label: ElidedLabel
    hidden_note: QLabel


def build_bar(parent: QWidget, actions: TreeActions) -> PaneBar:
    row = QWidget(parent)
    layout = QHBoxLayout(row)
    layout.setContentsMargins(4, 2, 0, 2)
    layout.setSpacing(2)  # the row's minimum plus the context panel's must fit an 800 px window
    show_label = QLabel("Show", row)
    show_label.hide()  # shown when the pane has room (see TreePane.resizeEvent)
    combo = _filter_combo(row)
    edit = _search_edit(row)
    layout.addWidget(show_label)
    layout.addWidget(combo)
    layout.addWidget(edit, 2)
    for action in (actions.fit, actions.fold_all, actions.unfold_all):
        layout.addWidget(_button(row, action))
    bar = _toolbar(parent)
    previous_action, next_action = QAction("◀", parent), QAction("▶", parent)
    previous_action.setToolTip("Previous hit (Shift+F3)")
    next_action.setToolTip("Next hit (F3)")
    bar.addAction(previous_action)
    bar.addAction(next_action)
    hit_label = QLabel("", bar)
    bar.addWidget(hit_label)
    reveal = _reveal_button(bar)
    reveal_action = bar.addWidget(reveal)
    reveal_action.setVisible(False)  # shown only while the filter hides hits
    bar.addSeparator()
    bar.addActions([actions.as_map, actions.as_outline])
    bar.addSeparator()
    bar.addActions([actions.zoom_out, actions.zoom_in, actions.legend])
    layout.addWidget(bar)  # no more than it needs: the room left goes to the search field and the counts
    # The counts take what the bar leaves, elided (whole in the tooltip): in the bar, a narrow window hid
    # them in its » menu, which cannot hold a label, and the » then showed greyed out, holding nothing.
    info = ElidedLabel("", row)
    info.setContentsMargins(4, 0, 4, 0)
    set_muted(info)  # muted, but text that reads (a disabled label's grey did not, in the light theme)
    layout.addWidget(info, 2)
    return PaneBar(
        row, show_label, combo, edit, previous_action, next_action, hit_label, reveal, reveal_action, bar, info, _hidden_note(parent)
    )


def _filter_combo(parent: QWidget) -> QComboBox:
    combo = QComboBox(parent)
    combo.setToolTip(
        "Which entries the tree shows (pi's /tree filters)\nIn the tree, as in pi: Ctrl+T, Ctrl+U, Ctrl+L, Ctrl+A toggle one, Ctrl+D back to default"
    )
    for mode in (*PI_MODES, FilterMode.EVERY_ENTRY):
        combo.addItem(mode.title, mode)
        combo.setItemData(combo.count() - 1, mode.description, Qt.ItemDataRole.ToolTipRole)
    combo.insertSeparator(len(PI_MODES))
    # Narrow in the bar; the list that drops down shows the names whole.
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(5)
    return combo


def _search_edit(parent: QWidget) -> QLineEdit:
    edit = QLineEdit(parent)
    edit.setPlaceholderText("Find in messages, labels, ids…")
    edit.setClearButtonEnabled(True)
    edit.setToolTip("Find text in messages, summaries, labels and ids\nEnter / F3: next   Shift+Enter / Shift+F3: previous   Esc: clear")
    edit.setMinimumWidth(80)
    edit.setMaximumWidth(360)
    edit.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
    return edit


def _button(parent: QWidget, action: QAction) -> QToolButton:
    """A button for `action`, saying its short text (its icon text)."""
    button = QToolButton(parent)
    button.setDefaultAction(action)
    button.setAutoRaise(True)
    button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
    return button


def _reveal_button(parent: QWidget) -> QToolButton:
    """An offer to show the hits the filter hides, drawn as a link (it is an offer, not a status)."""
    reveal = QToolButton(parent)
    reveal.setAutoRaise(True)
    reveal.setCursor(Qt.CursorShape.PointingHandCursor)
    font = reveal.font()
    font.setUnderline(True)
    reveal.setFont(font)
    return reveal


def paint_link(button: QToolButton, palette: QPalette) -> None:
    """The reveal link in the theme's link colour."""
    own = button.palette()
    own.setColor(QPalette.ColorRole.ButtonText, palette.color(QPalette.ColorRole.Link))
    button.setPalette(own)


def _toolbar(parent: QWidget) -> QToolBar:
    bar = QToolBar("Tree", parent)
    bar.setObjectName("treeToolbar")
    bar.setMovable(False)
    bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
    bar.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
    # The » that holds what a narrow bar has no room for: the style's picture of it is dark grey,
    # all but invisible in the dark theme; as text it is drawn in the theme's colour.
    more = bar.findChild(QToolButton, "qt_toolbar_ext_button")
    if more is not None:
        more.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        more.setText("»")
        more.setToolTip("More of the tree's commands")
    return bar


def _hidden_note(parent: QWidget) -> QLabel:
    """What the filter hides at the selection: a line over the tree, there only when something is hidden."""
    note = QLabel("", parent)
    note.setTextFormat(Qt.TextFormat.PlainText)
    note.setContentsMargins(6, 2, 6, 2)
    note.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    note.setWordWrap(True)
    note.hide()
    return note
