"""The tree pane: a small toolbar (filter, search, zoom and folds) above the branch tree."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import TYPE_CHECKING, Iterable

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence, QPalette, QShortcut
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QSizePolicy, QToolBar, QToolButton, QVBoxLayout, QWidget

from ...model.text.describe import entry_kind
from ...model.session.search import find
from ...model.session.tree_filter import PI_MODES, FilterMode, VisibleTree, extend_visible, visible_tree
from .view import TreeView
from ...model.text.plural import counted

if TYPE_CHECKING:
    from ...model.session.session import Session
    from ...model.workspace import Change
    from ..control.controller import SessionController

SEARCH_CHUNK = 1500  # entries searched per event-loop turn, so typing stays responsive


class TreePane(QWidget):
    searchChanged = Signal(str)  # the query now searched for ("" when cleared)

    """Toolbar + TreeView, wired to the controller.

    Public state for callers and tests: `view` (the TreeView), `filter_combo`,
    `search_edit`, `hit_label` ("3 of 17"), `info_label`, `hits` (ids found, in
    tree order), `hit_index` (the hit stepped to, or None), `mode`, `visible`,
    `hidden_hits` (entries that match but the filter hides), `reveal_action`
    and its `reveal_button` (offer to show them).
    """

    def __init__(self, controller: SessionController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.visible: VisibleTree | None = None
        self.mode = FilterMode.DEFAULT
        self.hits: list[str] = []
        self.hit_index: int | None = None
        self.hidden_hits: list[str] = []
        self._hidden_order: list[str] | None = None  # searched after the visible entries
        self._order_pos: dict[str, int] | None = None
        self._search_query = ""
        self._search_at = 0
        self._searching = False
        self.view = TreeView(controller, self)
        self._build_toolbar()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.top_bar)
        layout.addWidget(self.hidden_note)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.view.legend)  # under the tree, so it never covers a node
        self._search_timer = QTimer(self, singleShot=True, interval=220)
        self._search_timer.timeout.connect(self._start_search)
        self._search_step = QTimer(self, singleShot=True, interval=0)
        self._search_step.timeout.connect(self._search_chunk)
        for action in self.view_actions():
            self.addAction(action)
        self._shortcut("F3", self.next_hit)
        self._shortcut("Shift+F3", self.previous_hit)
        controller.changed.connect(self._on_change)
        self.view.treeRebuilt.connect(self._update_info)
        self._update_hit_label()

    def _on_selection(self, _key) -> None:
        self._update_hit_label()
        self._update_hidden_note()

    def _shortcut(self, keys, slot) -> QShortcut:
        shortcut = QShortcut(QKeySequence(keys), self)
        shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        shortcut.activated.connect(slot)
        return shortcut

    def _build_toolbar(self) -> None:
        """Filter and search in a row that never overflows; zoom and folds in a toolbar after them.

        In a narrow window the toolbar gives up room first (its buttons go to its
        » menu), so the search field is always there for Ctrl+F.
        """
        self.top_bar = QWidget(self)
        row = QHBoxLayout(self.top_bar)
        row.setContentsMargins(4, 2, 0, 2)
        row.setSpacing(2)  # the row's minimum plus the context panel's must fit an 800 px window
        bar = self.toolbar = QToolBar("Tree", self)
        bar.setObjectName("treeToolbar")
        bar.setMovable(False)
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        combo = self.filter_combo = QComboBox(self.top_bar)
        combo.setToolTip("Which entries the tree shows (pi's /tree filters)")
        for mode in (*PI_MODES, FilterMode.EVERY_ENTRY):
            combo.addItem(mode.title, mode)
            combo.setItemData(combo.count() - 1, mode.description, Qt.ItemDataRole.ToolTipRole)
        combo.insertSeparator(len(PI_MODES))
        combo.currentIndexChanged.connect(self._filter_chosen)
        # Narrow in the bar; the list that drops down shows the names whole.
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        combo.setMinimumContentsLength(7)
        row.addWidget(QLabel("Show", self.top_bar))
        row.addWidget(combo)
        edit = self.search_edit = QLineEdit(self.top_bar)
        edit.setPlaceholderText("Find in messages, labels, ids…")
        edit.setClearButtonEnabled(True)
        edit.setToolTip("Find text in messages, summaries, labels and ids\nEnter / F3: next   Shift+Enter / Shift+F3: previous   Esc: clear")
        edit.setMinimumWidth(120)
        edit.setMaximumWidth(360)
        edit.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        edit.textChanged.connect(self._query_changed)
        edit.returnPressed.connect(self.next_hit)
        edit.installEventFilter(self)
        row.addWidget(edit, 2)
        self.previous_action = QAction("◀", self)
        self.previous_action.setToolTip("Previous hit (Shift+F3)")
        self.previous_action.triggered.connect(self.previous_hit)
        self.next_action = QAction("▶", self)
        self.next_action.setToolTip("Next hit (F3)")
        self.next_action.triggered.connect(self.next_hit)
        for action in (self.previous_action, self.next_action):
            button = QToolButton(self.top_bar)
            button.setDefaultAction(action)
            button.setAutoRaise(True)
            button.setFixedWidth(22)
            row.addWidget(button)
        self.hit_label = QLabel("", self.top_bar)
        row.addWidget(self.hit_label)
        reveal = self.reveal_button = QToolButton(self.top_bar)
        reveal.setAutoRaise(True)
        reveal.setCursor(Qt.CursorShape.PointingHandCursor)
        reveal.clicked.connect(self.reveal_hidden_hits)
        # Drawn as a link: it is an offer, not a status.
        font = reveal.font()
        font.setUnderline(True)
        reveal.setFont(font)
        self._paint_reveal()
        row.addWidget(reveal)
        self.reveal_action = reveal  # shown only while the filter hides hits
        # What the filter hides at the selection: a line over the tree, there only when something is hidden.
        self.hidden_note = QLabel("", self)
        self.hidden_note.setTextFormat(Qt.TextFormat.PlainText)
        self.hidden_note.setContentsMargins(6, 2, 6, 2)
        self.hidden_note.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.hidden_note.hide()
        reveal.setVisible(False)
        bar.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        row.addWidget(bar, 3)
        view = self.view
        for action, text in (
            (view.tree_actions.zoom_out, "−"),
            (view.tree_actions.zoom_in, "+"),
            (view.tree_actions.fit, "Fit"),
            (None, None),
            (view.tree_actions.fold_all, "Fold"),
            (view.tree_actions.unfold_all, "Unfold"),
            (view.tree_actions.legend, "Legend"),
        ):
            if action is None:
                bar.addSeparator()
                continue
            bar.addAction(action)
            widget = bar.widgetForAction(action)
            if widget is not None:
                widget.setText(text)
        spacer = QWidget(bar)
        spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        bar.addWidget(spacer)
        # last, so it is the first thing a narrow window hides
        self.info_label = QLabel("", bar)
        self.info_label.setEnabled(False)  # drawn muted
        bar.addWidget(self.info_label)

    def _paint_reveal(self) -> None:
        palette = self.reveal_button.palette()
        palette.setColor(QPalette.ColorRole.ButtonText, self.palette().color(QPalette.ColorRole.Link))
        self.reveal_button.setPalette(palette)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.view.legend.cap_height(self.height())  # the legend never takes the tree's room

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._paint_reveal()  # the link colour is the theme's

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
            self._on_selection(None)

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
        appended = list(change.appended)
        extended = self.visible is not None and extend_visible(self.visible, session, appended, change.leaf_before)
        if not extended:
            self.visible = visible_tree(session, self.mode)
        self._order_pos = None
        # When the selection followed the head, the entry it left stays in view, not folded away.
        left = (change.leaf_before,) if change.selection and change.leaf_before is not None else ()
        if extended:
            self.view.grow_tree(self.visible, appended, change.leaf_before, keep_shown=left)
        else:
            self.view.set_tree(self.visible, keep_view=True, keep_shown=left)
        if self._search_query:
            self._start_search(keep_current=True)
        self._update_info()

    def set_filter(self, mode: FilterMode | str) -> None:
        mode = FilterMode(mode)
        index = self.filter_combo.findData(mode)
        if index >= 0 and index != self.filter_combo.currentIndex():
            self.filter_combo.setCurrentIndex(index)  # calls _filter_chosen
        elif mode is not self.mode:
            self.mode = mode
            self._apply_filter(keep_view=True)
            self._keep_selection_in_view()

    def _filter_chosen(self, index: int) -> None:
        mode = self.filter_combo.itemData(index)
        if mode is None or mode is self.mode:
            return
        self.mode = FilterMode(mode)
        self._apply_filter(keep_view=True)
        self._keep_selection_in_view()

    def _keep_selection_in_view(self) -> None:
        """After a filter change: the selection (or what stands for it) stays in sight; with none, the tree fits."""
        if self.controller.selected is not None and self.visible is not None and len(self.visible):
            self.view.scroll_to(self.controller.selected)
        else:
            self.view.fit()

    def _apply_filter(self, keep_view: bool) -> None:
        """Filter the session afresh; without `keep_view` (another file) hits, folds and zoom start over."""
        session = self.session
        self.visible = visible_tree(session, self.mode) if session is not None else None
        self._order_pos = None
        if not keep_view:
            self.hits, self.hit_index = [], None
        self.view.set_tree(self.visible, keep_view=keep_view)
        if self._search_query:
            self._start_search(keep_current=True)
        else:
            self._update_hit_label()
        self._update_info()

    def _update_hidden_note(self) -> None:
        """When the filter hides the selected entry or the current leaf, say so: the tree marks the ancestor shown in its place."""
        session, visible = self.session, self.visible
        notes = []
        if session is not None and visible is not None:
            selected, leaf = self.controller.selected, session.leaf_id
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
        parts = [f"{len(visible):,} of {len(session):,} shown" if visible.hidden else counted(len(session), "entry")]
        if lay is not None and lay.folds:
            parts.append(f"{lay.folded_entries():,} folded in {counted(len(lay.folds), 'fold')}")
        self.info_label.setText(" · ".join(parts) + " ")

    # ---- search ------------------------------------------------------------------------

    def focus_search(self) -> None:
        self.search_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search_edit.selectAll()

    def clear_search(self) -> None:
        """Esc: the search is emptied and the keys go back to the tree."""
        self.search_edit.clear()
        self.view.setFocus()

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
            self._search_step.stop()
            self._search_query = ""
            self._searching = False
            self.hits, self.hit_index = [], None
            self.hidden_hits = []
            self.view.set_hits([])
            self._update_hit_label()
            self.searchChanged.emit("")
            return
        self._search_timer.start()

    def search_now(self) -> None:
        """Run the typed search to the end at once (the pane otherwise searches in the background)."""
        self._search_timer.stop()
        if self.search_edit.text().strip() and (self._search_query != self.search_edit.text() or not self._searching):
            self._start_search()
        while self._searching:
            self._search_chunk()

    def _start_search(self, keep_current: bool = False) -> None:
        previous = self.hits[self.hit_index] if keep_current and self.hit_index is not None and self.hit_index < len(self.hits) else None
        if self._search_query != self.search_edit.text():
            self.searchChanged.emit(self.search_edit.text())
        self._search_query = self.search_edit.text()
        self._search_at = 0
        self._searching = bool(self._search_query.strip()) and self.visible is not None
        self.hits, self.hit_index = [], None
        self.hidden_hits, self._hidden_order = [], None
        self._keep_hit = previous
        self.view.set_hits([])
        if self._searching:
            self._search_step.start()
        self._update_hit_label()

    def _search_chunk(self) -> None:
        if not self._searching or self.session is None or self.visible is None:
            self._searching = False
            return
        if self._hidden_order is not None:
            self._search_hidden_chunk()
            return
        order = self.visible.order
        found = self._search_next(order)
        self.hits.extend(found)
        if self._keep_hit is not None and self._keep_hit in found:
            self.hit_index = self.hits.index(self._keep_hit)
        if self._search_at >= len(order):
            # The visible hits are all drawn; go on counting what the filter hides.
            self.view.set_hits(self.hits, self._current_hit())
            self._hidden_order = [key for key in self.session.entries if key not in self.visible]
            self._search_at = 0
        elif found:
            self.view.set_hits(self.hits, self._current_hit())
        self._continue_search()

    def _search_hidden_chunk(self) -> None:
        self.hidden_hits.extend(self._search_next(self._hidden_order or []))
        self._continue_search()

    def _search_next(self, order: list[str]) -> list[str]:
        """The hits among the next SEARCH_CHUNK entries of `order`."""
        chunk = order[self._search_at : self._search_at + SEARCH_CHUNK]
        self._search_at += len(chunk)
        return list(find(self.session, self._search_query, chunk))

    def _continue_search(self) -> None:
        done = self._hidden_order is not None and self._search_at >= len(self._hidden_order)
        if done:
            self._searching = False
        else:
            self._search_step.start()
        self._update_hit_label()

    def reveal_hidden_hits(self) -> None:
        """Show every entry, so the hits the filter hid can be seen and stepped to."""
        if not self.hidden_hits:
            return
        target = self.hidden_hits[0] if not self.hits else None
        self.set_filter(FilterMode.EVERY_ENTRY)
        self.search_now()
        if target is not None and target in self.hits:
            self.hit_index = self.hits.index(target)
            self.view.set_hits(self.hits, target)
            self.controller.select(target)
            self._update_hit_label()

    def _current_hit(self) -> str | None:
        return self.hits[self.hit_index] if self.hit_index is not None and self.hit_index < len(self.hits) else None

    def _position(self, key: str | None) -> int:
        """Where `key` (or the visible entry standing for it) comes in tree order; -1 if nowhere."""
        if self.visible is None or key is None or self.session is None:
            return -1
        if self._order_pos is None:
            self._order_pos = {k: i for i, k in enumerate(self.visible.order)}
        shown = self.visible.nearest_visible(self.session, key)
        return self._order_pos.get(shown, -1) if shown is not None else -1

    def next_hit(self) -> None:
        self._step(1)

    def previous_hit(self) -> None:
        self._step(-1)

    def _step(self, direction: int) -> None:
        if self._search_timer.isActive() or (self.search_edit.text().strip() and self._search_query != self.search_edit.text()):
            self.search_now()
        if not self.hits:
            self._update_hit_label()
            return
        count = len(self.hits)
        if self.hit_index is None or self._current_hit() != self.controller.selected:
            # start from the selection: the first hit after it (or before it, going back)
            here = self._position(self.controller.selected)
            positions = [self._position(key) for key in self.hits]
            if direction > 0:
                at = bisect_right(positions, here)
                index = at % count
            else:
                at = bisect_left(positions, here) - 1
                index = at % count
        else:
            index = (self.hit_index + direction) % count
        self.hit_index = index
        key = self.hits[index]
        self.view.set_hits(self.hits, key)
        self.controller.select(key)
        self._update_hit_label()

    def _update_hit_label(self) -> None:
        query = self.search_edit.text().strip()
        has = bool(self.hits)
        self.previous_action.setEnabled(has)
        self.next_action.setEnabled(has)
        self._update_reveal()
        if not query:
            self.hit_label.setText("")
            return
        more = "…" if self._searching or self._search_timer.isActive() else ""
        if not self.hits:
            self.hit_label.setText("searching…" if more else "none shown" if self.hidden_hits else "no hits")
        elif self.hit_index is not None and self._current_hit() == self.controller.selected:
            self.hit_label.setText(f"{self.hit_index + 1} of {len(self.hits)}{more}")
        else:
            self.hit_label.setText(f"{counted(len(self.hits), 'hit')}{more}")

    def _update_reveal(self) -> None:
        count = len(self.hidden_hits) if self.search_edit.text().strip() else 0
        self.reveal_action.setVisible(count > 0)
        if count:
            self.reveal_button.setText(f"+{count:,} hidden")
            self.reveal_button.setToolTip(
                f"{count:,} more {'entry matches' if count == 1 else 'entries match'} but the '{self.mode.title}' filter hides "
                f"{'it' if count == 1 else 'them'}.\nClick to show every entry and step through all hits."
            )
