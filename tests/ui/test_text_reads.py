"""Text reads at every size: whole, wrapped at words or ending in an ellipsis, never cut mid-word;
and a dialog never larger than the window it belongs to."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QStyle, QToolButton, QWidget

from pibrowser.ui.style.colors import contrast  # WCAG 2's ratio
from pibrowser.ui.style.theme import Theme

from ..conftest import DEMO, FIXTURES
from .conftest import load, window_of
from .reading import unread_labels

pytestmark = pytest.mark.usefixtures("isolated_settings")
S5 = FIXTURES / "generated-s5.jsonl"


@pytest.mark.parametrize("size", [(800, 600), (1000, 700), (1600, 1000)])
def test_the_legend_reads_however_narrow_the_tree(qtbot, size):
    """The legend unfolded with a click, then the context dock dragged wider and wider: every line of it
    reads (at 1000×700 "kept by the compaction" showed as "kept by the compac")."""
    window = window_of(qtbot, size)
    load(qtbot, window, DEMO)
    legend = window.tree.view.legend
    qtbot.mouseClick(legend.toggle, Qt.MouseButton.LeftButton)
    assert legend.expanded() and legend.paths.isVisible()
    for dock_width in (0, size[0] // 2, size[0] * 62 // 100):
        if dock_width:
            window.resizeDocks([window.context_dock], [dock_width], Qt.Orientation.Horizontal)
        window.layout().activate()
        legend.scroll_area.widget().layout().activate()
        assert unread_labels(legend.scroll_area.widget()) == [], (size, dock_width, window.tree.width())


@pytest.mark.parametrize("size", [(800, 600), (1000, 700)])
def test_the_shortcuts_list_reads_whole_at_its_first_size(qtbot, size):
    """Help ▸ Keyboard Shortcuts: every line whole in its column, the dialog within the window."""
    window = window_of(qtbot, size)
    window.shortcuts_action.trigger()
    dialog = window.shortcuts_dialog
    qtbot.waitExposed(dialog)
    assert dialog.width() <= window.width() and dialog.height() <= window.height()
    tree = dialog.tree
    margin = tree.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, tree) + 1  # Qt's text margin in a cell
    metrics = tree.fontMetrics()
    for group in range(tree.topLevelItemCount()):
        head = tree.topLevelItem(group)
        for row in range(head.childCount()):
            item = head.child(row)
            for column in (0, 1):
                cell = tree.visualItemRect(item)
                width = tree.columnWidth(column) if column == 0 else min(tree.columnWidth(1), tree.viewport().width() - tree.columnWidth(0))
                assert metrics.horizontalAdvance(item.text(column)) <= width - 2 * margin, (item.text(column), width, cell)
    dialog.reject()


def inside(inner: QRect, outer: QRect) -> bool:
    return outer.contains(inner.topLeft()) and outer.contains(inner.bottomRight())


def test_a_dialog_is_never_larger_than_its_window(qtbot):
    """At 800×600, Compare With… (the picker asked for 900 px) and Show Log: whole within the window,
    their buttons in reach."""
    window = window_of(qtbot, (800, 600))
    session = load(qtbot, window, DEMO)
    window.controller.select(session.leaf_id)
    window.compare_action.trigger()
    picker = window.leaf_picker
    qtbot.waitExposed(picker)
    assert picker.width() <= window.width() and picker.height() <= window.height()
    cancel = picker.buttons.button(picker.buttons.StandardButton.Cancel)
    assert cancel.isVisible() and inside(QRect(cancel.mapTo(picker, cancel.rect().topLeft()), cancel.size()), picker.rect())
    picker.reject()
    window.log_action.trigger()
    viewer = window.log_viewer
    qtbot.waitExposed(viewer)
    assert viewer.width() <= window.width() and viewer.height() <= window.height()
    viewer.close()


def text_colour(widget: QWidget, role: QPalette.ColorRole) -> QColor:
    """The colour a widget draws its text in, as it is now (a disabled widget's is the palette's Disabled one)."""
    group = QPalette.ColorGroup.Active if widget.isEnabled() else QPalette.ColorGroup.Disabled
    return widget.palette().color(group, role)


@pytest.mark.parametrize("theme", [Theme.LIGHT, Theme.DARK])
@pytest.mark.parametrize("size", [(800, 600), (1000, 700), (1600, 1000)])
def test_the_trees_bar_reads_in_both_themes(qtbot, theme, size):
    """View ▸ Theme ▸ Light / Dark, s5 open: the counts line over the tree ("871 of 1,047 shown · 48 folded
    in 6 folds", faint in the light theme) and the bar's » button (all but invisible in the dark one, and
    at 800 px it holds Map, Outline, zoom and the legend's switch) read against the bar: WCAG 4.5:1."""
    window = window_of(qtbot, size)
    window.themes.actions[theme].trigger()
    load(qtbot, window, S5)
    pane = window.tree
    background = pane.toolbar.palette().color(QPalette.ColorRole.Window)
    info = pane.info_label
    assert info.text().endswith("folds") or "shown" in info.text()
    assert info.shown().startswith("871 of 1,047")  # at least its short form, never '87…'
    assert contrast(text_colour(info, QPalette.ColorRole.WindowText), background) >= 4.5, info.text()
    extension = pane.toolbar.findChild(QToolButton, "qt_toolbar_ext_button")
    # The » shows where the bar has no room for everything, and then holds what it has no room for.
    qtbot.waitUntil(lambda: extension.isEnabled() or not extension.isVisible(), timeout=3000)
    if size[0] == 800:
        assert extension.isVisible()
    if extension.isVisible():
        assert extension.text() and extension.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonTextOnly  # in the theme's colour
        assert contrast(text_colour(extension, QPalette.ColorRole.ButtonText), background) >= 4.5
