"""The tree pane: a bar (filter, search, the tree's commands) above the branch tree, wired to the controller."""

from __future__ import annotations

from typing import TYPE_CHECKING
from collections.abc import Iterable

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import QVBoxLayout, QWidget

from ...model.session.tree_filter import FilterMode, VisibleTree, extend_visible, visible_tree
from ...model.text.describe import entry_kind
from ...model.text.plural import counted
from ..common.widgets import remute
from .pane_bar import build_bar, paint_link
from .tree_search import TreeSearch
from .view import TreeView
from ..guard import guarded

if TYPE_CHECKING:
    from ...model.session.session import Session
    from ...model.workspace import Change
    from ..control.controller import SessionController

NARROW = 640  # narrower than this, the bar drops its "Show" label
ROOMY = 560  # from this wide the search field keeps the larger of its two least widths
SEARCH_ROOM = (80, 120)  # its least width in a narrow pane and in a roomy one: the toolbar gives up its buttons to its » first


def below_labels(session: Session, leaf: str | None) -> str | None:
    """The entry under the labels at the top of `leaf`'s branch (`leaf` itself when it is none). A label
    moves pi's leaf onto a label entry, which changes nothing in the context and which the filters but
    Raw hide: the leaf stands where it stood, and the note need not tell of a label the user just set."""
    while leaf is not None and leaf in session.entries and session.entries[leaf].type == "label":
        parent = session.parent(leaf)
        if parent is None:
            break
        leaf = parent
    return leaf


class TreePane(QWidget):
    """Bar + TreeView, wired to the controller.

    Public state for callers and tests: `view` (the TreeView), `search` (the TreeSearch),
    `filter_combo`, `search_edit`, `hit_label` ("3 of 17"), `info_label`, `hits` (ids
    found, in tree order), `search.index` (the hit stepped to, or None), `mode`, `visible`,
    `hidden_hits` (entries that match but the filter hides), `reveal_action` and its
    `reveal_button` (offer to show them), `hidden_note`.
    """

    searchChanged = Signal(str)  # the query now searched for ("" when cleared)

    def __init__(self, controller: SessionController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.visible: VisibleTree | None = None
        self.mode = FilterMode.DEFAULT
        self.view = TreeView(controller, self)
        self.search = TreeSearch(controller, self.view, self)
        self._set_up_bar()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.top_bar)
        layout.addWidget(self.hidden_note)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.view.legend)  # under the tree, so it never covers a node
        self._search_timer = QTimer(self, singleShot=True, interval=220)
        self._search_timer.timeout.connect(self._start_search)
        for action in self.view_actions():
            self.addAction(action)
        self._shortcut("F3", self.next_hit)
        self._shortcut("Shift+F3", self.previous_hit)
        self.search.changed.connect(self._update_hit_label)
        controller.changed.connect(self._on_change)
        self.view.treeRebuilt.connect(self._update_info)
        self.view.filterChosen.connect(self.set_filter)  # pi's filter keys, pressed in the tree
        self._update_hit_label()

    def _set_up_bar(self) -> None:
        bar = build_bar(self, self.view.tree_actions)
        self.top_bar, self.show_label, self.toolbar, self.info_label, self.hidden_note = (
            bar.row,
            bar.show_label,
            bar.toolbar,
            bar.info_label,
            bar.hidden_note,
        )
        self.filter_combo, self.search_edit, self.hit_label = bar.filter_combo, bar.search_edit, bar.hit_label
        self.previous_action, self.next_action = bar.previous_action, bar.next_action
        self.reveal_button, self.reveal_action = bar.reveal_button, bar.reveal_action  # shown only while the filter hides hits
        self.filter_combo.currentIndexChanged.connect(self._filter_chosen)
        self.search_edit.textChanged.connect(self._query_changed)
        self.search_edit.returnPressed.connect(self.next_hit)
        self.search_edit.installEventFilter(self)
        self.previous_action.triggered.connect(self.previous_hit)
        self.next_action.triggered.connect(self.next_hit)
        self.reveal_button.clicked.connect(self.reveal_hidden_hits)
        paint_link(self.reveal_button, self.palette())

    def _shortcut(self, keys, slot) -> QShortcut:
        shortcut = QShortcut(QKeySequence(keys), self)
        shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        shortcut.activated.connect(slot)
        return shortcut

    @guarded
    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.view.legend.cap_height(self.height())  # the legend never takes the tree's room
        self.show_label.setVisible(self.width() >= NARROW)
        self.search_edit.setMinimumWidth(SEARCH_ROOM[self.width() >= ROOMY])

    @guarded
    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            paint_link(self.reveal_button, self.palette())  # the link colour is the theme's
            remute(self)  # the counts' muted shade is worked out from the theme's colours

    # ---- the main window's hooks ----------------------------------------------------

    def set_node_actions(self, actions: Iterable[QAction]) -> None:
        """Actions offered by a node's context menu (they act on the selection, which the right-click sets)."""
        self.view.node_actions = list(actions)

    def view_actions(self) -> list[QAction]:
        return self.view.actions_for_menu()

    # ---- session and filter ----------------------------------------------------------

    @property
    def session(self) -> Session | None:
        return self.controller.session

    def _on_change(self, change: Change) -> None:
        """Rebuild for a new session or extend for appended entries; then let the view mark and scroll."""
        rebuilt = bool(change.replaced or change.appended)
        if change.replaced:
            if not change.same_file:
                self._start_afresh()
            self._apply_filter(keep_view=change.same_file)
        elif change.appended:
            self._extend(change)
        self.view.show_change(change, rebuilt=rebuilt)
        if change.selection:
            self._update_hit_label()
            self._update_hidden_note()

    def _start_afresh(self) -> None:
        """Another file: its tree starts unfiltered and unsearched, rather than silently under the last file's."""
        self.mode = FilterMode.DEFAULT
        self.filter_combo.blockSignals(True)
        self.filter_combo.setCurrentIndex(self.filter_combo.findData(FilterMode.DEFAULT))
        self.filter_combo.blockSignals(False)
        if self.search_edit.text():
            self.search_edit.clear()  # resets the search through _query_changed

    def _extend(self, change: Change) -> None:
        """Entries were appended to the open session: extend the tree, keeping folds, zoom and scroll."""
        session = self.session
        assert session is not None, "entries are appended to an open session"
        appended = list(change.appended)
        visible = self.visible
        extended = visible is not None and extend_visible(visible, session, appended, change.leaf_before)
        if visible is None or not extended:
            visible = self.visible = visible_tree(session, self.mode)
        self.search.set_tree(visible)
        # When the selection followed the head, the entry it left stays in view, not folded away.
        left = (change.leaf_before,) if change.selection and change.leaf_before is not None else ()
        if extended:
            self.view.grow_tree(visible, appended, change.leaf_before, keep_shown=left)
        else:
            self.view.set_tree(visible, keep_view=True, keep_shown=left)
        if self.search.query:
            self._start_search(keep_current=True)
        self._update_info()

    def set_filter(self, mode: FilterMode | str) -> None:
        mode = FilterMode(mode)
        index = self.filter_combo.findData(mode)
        if index >= 0 and index != self.filter_combo.currentIndex():
            self.filter_combo.setCurrentIndex(index)  # calls _filter_chosen
        elif mode is not self.mode:
            self._use_filter(mode)

    def _filter_chosen(self, index: int) -> None:
        mode = self.filter_combo.itemData(index)
        if mode is not None and mode is not self.mode:
            self._use_filter(FilterMode(mode))

    def _use_filter(self, mode: FilterMode) -> None:
        """Another filter: the tree shows what it keeps; fitted before, it fits again, else the selection
        (or what stands for it) stays in sight."""
        fitted = self.view.zoom.fitted
        self.mode = mode
        self._apply_filter(keep_view=True)
        if not fitted and self.controller.selected is not None and self.visible is not None and len(self.visible):
            self.view.scroll_to(self.controller.selected)
        else:
            self.view.fit()  # a tree shown whole is shown whole again

    def _apply_filter(self, keep_view: bool) -> None:
        """Filter the session afresh; without `keep_view` (another file) hits, folds and zoom start over."""
        session = self.session
        self.visible = visible_tree(session, self.mode) if session is not None else None
        self.search.set_tree(self.visible)
        if not keep_view:
            self.search.hits, self.search.index = [], None
        self.view.set_tree(self.visible, keep_view=keep_view)
        if self.search.query:
            self._start_search(keep_current=True)
        else:
            self._update_hit_label()
        self._update_info()

    def _update_hidden_note(self) -> None:
        """When the filter hides the selected entry or the current leaf, say so: the tree marks the ancestor shown in its place."""
        session, visible = self.session, self.visible
        notes = []
        if session is not None and visible is not None:
            selected, leaf = self.controller.selected, below_labels(session, session.leaf_id)
            watched = [("selected", selected)] + ([("current leaf", leaf)] if leaf != selected else [])
            for what, key in watched:
                if key is None or key in visible or key not in session.entries:
                    continue
                shown = visible.nearest_visible(session, key)
                hidden = len(session.path_to(key)) - (len(session.path_to(shown)) if shown is not None else 0)
                where = f"{counted(hidden, 'entry')} below {shown}, which is marked" if shown is not None else "no ancestor shown"
                notes.append(f"the {what} {entry_kind(session.entries[key])} {key} ({where})")
        text = "; ".join(notes)
        self.hidden_note.setText(f"Hidden by the filter: {text}" if text else "")
        self.hidden_note.setVisible(bool(text))
        self.hidden_note.setToolTip(text + ("\nChoose 'Raw: nothing hidden' to show every entry." if text else ""))

    def _update_info(self) -> None:
        session, visible, lay = self.session, self.visible, self.view.tree_layout
        self._update_hidden_note()
        if session is None or visible is None:
            self.info_label.setText("")
            return
        shown = f"{len(visible):,} of {len(session):,}" if visible.hidden else f"{len(session):,}"
        parts = [f"{shown} shown" if visible.hidden else counted(len(session), "entry")]
        if lay is not None and lay.folds:
            parts.append(f"{lay.folded_entries():,} folded in {counted(len(lay.folds), 'fold')}")
            self.info_label.shorter = (f"{shown} · {lay.folded_entries():,} folded", shown)
        else:
            self.info_label.shorter = (shown,)
        self.info_label.setText(" · ".join(parts) + " ")
        # The shortest form always shows: the toolbar beside it gives up its buttons to its » menu first.
        margins = self.info_label.contentsMargins()
        least = self.info_label.fontMetrics().horizontalAdvance(self.info_label.shorter[-1]) + margins.left() + margins.right() + 2
        self.info_label.setMinimumWidth(least)

    # ---- search ------------------------------------------------------------------------

    @property
    def hits(self) -> list[str]:
        return self.search.hits

    @property
    def hidden_hits(self) -> list[str]:
        return self.search.hidden_hits

    def focus_search(self) -> None:
        self.search_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search_edit.selectAll()

    def clear_search(self) -> None:
        """Esc: the search is emptied and the keys go back to the tree."""
        self.search_edit.clear()
        self.view.setFocus()

    @guarded(fallback=False)
    def eventFilter(self, watched, event) -> bool:
        if watched is self.search_edit and event.type() == event.Type.KeyPress:
            if event.key() == Qt.Key.Key_Escape:
                self.clear_search()
                return True
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                self.previous_hit()
                return True
            if event.key() in (Qt.Key.Key_Down, Qt.Key.Key_Up) and not event.modifiers():
                (self.next_hit if event.key() == Qt.Key.Key_Down else self.previous_hit)()
                return True
        return super().eventFilter(watched, event)

    def _query_changed(self, text: str) -> None:
        if not text.strip():
            self._search_timer.stop()
            self.search.clear()
            self.searchChanged.emit("")
            return
        self._search_timer.start()

    def search_now(self) -> None:
        """Run the typed search to the end at once (the pane otherwise searches in the background)."""
        self._search_timer.stop()
        if self.search_edit.text().strip() and (self.search.query != self.search_edit.text() or not self.search.searching):
            self._start_search()
        self.search.run_to_end()

    def _start_search(self, keep_current: bool = False) -> None:
        if self.search.query != self.search_edit.text():
            self.searchChanged.emit(self.search_edit.text())
        self.search.start(self.search_edit.text(), keep_current)

    def reveal_hidden_hits(self) -> None:
        """Show every entry, so the hits the filter hid can be seen and stepped to."""
        if not self.search.hidden_hits:
            return
        target = self.search.hidden_hits[0] if not self.search.hits else None
        self.set_filter(FilterMode.EVERY_ENTRY)
        self.search_now()
        if target is not None and target in self.search.hits:
            self.search.step_to(target)
            self.controller.select(target)
            self._update_hit_label()

    def next_hit(self) -> None:
        self._step(1)

    def previous_hit(self) -> None:
        self._step(-1)

    def _step(self, direction: int) -> None:
        if self._search_timer.isActive() or (self.search_edit.text().strip() and self.search.query != self.search_edit.text()):
            self.search_now()
        key = self.search.step(direction)
        if key is not None:
            self.controller.select(key)
        self._update_hit_label()

    def _update_hit_label(self) -> None:
        has = bool(self.search.hits)
        self.previous_action.setEnabled(has)
        self.next_action.setEnabled(has)
        self._update_reveal()
        self.hit_label.setText(self.search.summary(self.search_edit.text(), self._search_timer.isActive()))

    def _update_reveal(self) -> None:
        count = len(self.search.hidden_hits) if self.search_edit.text().strip() else 0
        self.reveal_action.setVisible(count > 0)
        if count:
            self.reveal_button.setText(f"+{count:,} hidden")
            self.reveal_button.setToolTip(
                f"{count:,} more {'entry matches' if count == 1 else 'entries match'} but the '{self.mode.title}' filter hides "
                f"{'it' if count == 1 else 'them'}.\nClick to show every entry and step through all hits."
            )
