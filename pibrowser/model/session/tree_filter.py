"""pi's /tree filter modes, and the tree that remains visible under one of them.

pi's tree selector always hides `usage` entries and assistant messages that carry
no text (tool calls only) unless they ended in an error or were aborted, or are
the current leaf. On top of that each mode keeps:

  default       everything but the bookkeeping entries (label, context_edit,
                custom, model_change, thinking_level_change, session_info)
  no-tools      the default minus tool results
  user-only     user messages only
  labeled-only  entries that carry a label
  all           everything (still minus the two rules above)

Hidden entries are spliced out: a visible entry hangs under its nearest visible
ancestor, and siblings keep the order of the full tree. `EVERY_ENTRY` is
pibrowser's own addition for looking at the raw file: nothing is hidden.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, Final

from .entry import Entry
from .gcpause import gc_paused
from .textless_replies import is_textless_reply

if TYPE_CHECKING:
    from .session import Session


class FilterMode(str, Enum):
    DEFAULT = "default"
    NO_TOOLS = "no-tools"
    USER_ONLY = "user-only"
    LABELED_ONLY = "labeled-only"
    ALL = "all"
    EVERY_ENTRY = "every-entry"

    @property
    def title(self) -> str:  # type: ignore[override]  # the mode's name for people; nothing calls str.title on a mode
        return _TITLES[self]

    @property
    def description(self) -> str:
        return _DESCRIPTIONS[self]


_TITLES = {
    FilterMode.DEFAULT: "Default",
    FilterMode.NO_TOOLS: "No tools",
    FilterMode.USER_ONLY: "User only",
    FilterMode.LABELED_ONLY: "Labeled only",
    FilterMode.ALL: "All",
    FilterMode.EVERY_ENTRY: "Raw: nothing hidden",
}

_DESCRIPTIONS = {
    FilterMode.DEFAULT: "pi's default: hides bookkeeping entries, usage records and tool-call-only assistant turns",
    FilterMode.NO_TOOLS: "The default without tool results",
    FilterMode.USER_ONLY: "Only the user's messages",
    FilterMode.LABELED_ONLY: "Only entries that carry a label",
    FilterMode.ALL: "pi's 'all': every entry except usage records and assistant turns that only call tools",
    FilterMode.EVERY_ENTRY: "Every entry in the file, nothing hidden: also usage records and assistant turns that only call tools",
}

# The modes pi's selector cycles through, in its order.
PI_MODES = (FilterMode.DEFAULT, FilterMode.NO_TOOLS, FilterMode.USER_ONLY, FilterMode.LABELED_ONLY, FilterMode.ALL)

SETTINGS_TYPES = frozenset({"label", "context_edit", "custom", "model_change", "thinking_level_change", "session_info"})


def passes(entry: Entry, mode: FilterMode, *, is_current_leaf: bool = False, labeled: bool = False) -> bool:
    """Whether pi's tree selector shows `entry` in `mode` (search aside)."""
    if mode is FilterMode.EVERY_ENTRY:
        return True
    if not is_current_leaf and entry.role == "assistant" and is_textless_reply(entry):
        return False
    return _KEEPS[mode](entry.type, entry.role, labeled)


# The modes that keep an entry by its type alone, and the types each hides (the filter's walk asks
# the set, not a function, of every entry: a million-entry session's filter took a fifth less).
_DEFAULT_HIDDEN, _ALL_HIDDEN = SETTINGS_TYPES | {"usage"}, frozenset({"usage"})
_HIDDEN_KINDS: dict[FilterMode, frozenset[Any]] = {FilterMode.DEFAULT: _DEFAULT_HIDDEN, FilterMode.ALL: _ALL_HIDDEN}
# Per pi mode, whether it keeps an entry of a type and role (a textless assistant reply aside).
_KEEPS: dict[FilterMode, Callable[[Any, Any, bool], bool]] = {
    FilterMode.DEFAULT: lambda kind, role, labeled: kind not in _DEFAULT_HIDDEN,
    FilterMode.NO_TOOLS: lambda kind, role, labeled: (
        kind != "usage" and kind not in SETTINGS_TYPES and not (kind == "message" and role == "toolResult")
    ),
    FilterMode.USER_ONLY: lambda kind, role, labeled: kind == "message" and role == "user",
    FilterMode.LABELED_ONLY: lambda kind, role, labeled: labeled and kind != "usage",
    FilterMode.ALL: lambda kind, role, labeled: kind not in _ALL_HIDDEN,
}


class _Linked(Enum):  # an enum member, so that the type checker tells it from a key
    LINKED = "linked"


_LINKED: Final = _Linked.LINKED  # in VisibleParents: the entry hangs under its parent in the session


class VisibleParents(Mapping[str, "str | None"]):
    """Each visible entry → the visible entry it hangs under (None for a root of the shown
    forest), without a dict entry per visible entry: a million visible entries cost
    tens of megabytes that way. Kept instead: the entries the filter hides, and the
    visible entries whose parent in the session is hidden (they hang higher up);
    every other visible entry hangs under its parent in the session.

    It answers for the entries of the session as they were when it was worked out:
    entries appended since count as hidden until `admit` and assignment take them in.
    """

    __slots__ = ("_session", "_hidden", "_rehung", "_before_line", "_count")

    def __init__(self, session: Session) -> None:
        self._session = session
        self._hidden: set[str] = set()
        self._rehung: dict[str, str | None] = {}
        order = session.file_order
        self._before_line = order[-1].line + 1 if order else 0  # entries read from earlier lines are known
        self._count = 0

    def __contains__(self, key: object) -> bool:
        entry = self._session.entries.get(key)  # type: ignore[call-overload]
        return entry is not None and entry.line < self._before_line and key not in self._hidden

    def among(self, keys: Iterable[str]) -> list[str]:
        """Those of `keys` that are visible (`in` each, above), in order: one loop, no call per key."""
        entries, before_line, hidden = self._session.entries, self._before_line, self._hidden
        return [key for key in keys if key not in hidden and (entry := entries.get(key)) is not None and entry.line < before_line]

    def get(self, key: str, default: Any = None) -> Any:
        return self._above(key) if key in self else default

    def __getitem__(self, key: str) -> str | None:
        if key not in self:
            raise KeyError(key)
        return self._above(key)

    def _above(self, key: str) -> str | None:
        above = self._rehung.get(key, _LINKED)
        return self._session.parent(key) if above is _LINKED else above

    def __iter__(self) -> Iterator[str]:
        hidden, before_line = self._hidden, self._before_line
        return (key for key, entry in self._session.entries.items() if entry.line < before_line and key not in hidden)

    def __len__(self) -> int:
        return self._count

    def __setitem__(self, key: str, above: str | None) -> None:
        """Show `key` under `above`."""
        if key not in self:
            self._count += 1
        self._hidden.discard(key)
        if above == self._session.parent(key):
            self._rehung.pop(key, None)
        else:
            self._rehung[key] = above

    def hide(self, key: str) -> None:
        if key in self:
            self._count -= 1
        self._hidden.add(key)
        self._rehung.pop(key, None)

    def pop(self, key: str) -> str | None:
        """Hide `key`; where it hung."""
        above = self[key]
        self.hide(key)
        return above

    def admit(self, keys: list[str]) -> None:
        """Take in entries appended to the session, hidden until shown by assignment."""
        entries = self._session.entries
        self._hidden.update(keys)
        self._before_line = max([self._before_line, *(entries[key].line + 1 for key in keys)])

    def root_of(self, key: str) -> str:
        """The root of the shown forest above visible `key`: the topmost visible entry on its path."""
        session = self._session
        if "" not in session.entries:  # else the path stops short of the tree's links (see Session.path_to)
            return next(above for above in session.path_to(key) if above in self)
        # A walk up that needs no check of visibility (what a visible entry hangs under is visible).
        rehung, parent = self._rehung, session.parent
        while True:
            above = rehung.get(key, _LINKED)
            if above is _LINKED:
                above = parent(key)
            if above is None:
                return key
            key = above


@dataclass(slots=True)
class VisibleTree:
    """The forest that remains under a filter: every visible entry under its nearest visible ancestor.

    `order` lists the visible entries depth first in child order (the order the
    search steps through); `hidden` counts the entries the filter left out.
    """

    mode: FilterMode
    parent: VisibleParents
    roots: list[str] = field(default_factory=list)
    children: dict[str, list[str]] = field(default_factory=dict)
    hidden: int = 0
    _order: list[str] | None = None

    @property
    def order(self) -> list[str]:
        # Worked out when asked (search, unfold all), not with the tree: it walks every entry.
        if self._order is None:
            self._order = _depth_first(self)
        return self._order

    def __contains__(self, key: object) -> bool:
        return key in self.parent

    def __len__(self) -> int:
        return len(self.parent)

    def kids(self, key: str) -> list[str]:
        return self.children.get(key, _EMPTY)

    def siblings(self, key: str) -> list[str]:
        parent = self.parent.get(key)
        return self.roots if parent is None else self.children.get(parent, _EMPTY)

    def root_of(self, key: str) -> str:
        return self.parent.root_of(key)

    def nearest_visible(self, session: Session, key: str | None) -> str | None:
        """`key` if visible, else its nearest visible ancestor (None when there is none)."""
        seen = 0
        while key is not None and key not in self.parent:
            key = session.parent(key) if key in session.entries else None
            seen += 1
            if seen > len(session.entries):
                return None
        return key


_EMPTY: list[str] = []


def visible_tree(session: Session, mode: FilterMode | str = FilterMode.DEFAULT) -> VisibleTree:
    """The entries `mode` shows, as a forest; iterative, O(entries)."""
    mode = FilterMode(mode)
    with gc_paused():
        return _visible_tree(session, mode)


def _visible_tree(session: Session, mode: FilterMode) -> VisibleTree:
    parents = VisibleParents(session)
    result = VisibleTree(mode, parents)
    entries, labels, leaf = session.entries, session.labels, session.leaf_id
    children_of = session.children_by_parent.get
    roots, children, hidden, rehung = result.roots, result.children, parents._hidden, parents._rehung
    hide = hidden.add
    everything = mode is FilterMode.EVERY_ENTRY
    keeps = _KEEPS.get(mode, lambda kind, role, labeled: True)  # every entry: not asked
    hidden_kinds = _HIDDEN_KINDS.get(mode)  # a mode that keeps by the type alone: a set, not a call per entry
    labeled_only = mode is FilterMode.LABELED_ONLY
    # Depth first, children in pi's order: per entry with several children, the rest of
    # them (an iterator, not a stack entry per child: a level can be a million wide), with
    # their nearest visible ancestor and whether that is their parent.
    stack: list[tuple[Iterator[str], str | None, bool]] = [(iter(session.display_roots()), None, True)]
    push = stack.append
    while stack:
        rest, above_rest, linked_rest = stack[-1]
        key = next(rest, None)
        if key is None:
            stack.pop()
            continue
        above, linked = above_rest, linked_rest
        while key is not None:  # down a line of single children without a stack entry
            # `passes`, inlined: this runs for every entry of the session.
            entry = entries[key]
            role = entry.role
            if everything or (
                (entry.type not in hidden_kinds if hidden_kinds is not None else keeps(entry.type, role, labeled_only and key in labels))
                and not (role == "assistant" and key != leaf and is_textless_reply(entry))
            ):
                if not linked:
                    rehung[key] = above
                if above is None:
                    roots.append(key)
                else:
                    kids = children.get(above)
                    if kids is None:
                        children[above] = [key]
                    else:
                        kids.append(key)
                above, linked = key, True
            else:
                hide(key)
                linked = False
            kids_of_key = children_of(key)
            if kids_of_key is None:
                key = None
            elif len(kids_of_key) == 1:
                key = kids_of_key[0]
            else:
                push((iter(kids_of_key), above, linked))
                key = None
    parents._count = len(entries) - len(hidden)
    result.hidden = len(hidden)
    return result


def extend_visible(tree: VisibleTree, session: Session, new_ids: list[str], old_leaf: str | None) -> bool:
    """Update `tree` in place after `session` was extended by `new_ids`; False when it must be rebuilt.

    Appending usually only adds entries at the ends of branches. Whatever could move
    anything else (a new label under labeled-only, an entry sorted in among older
    siblings, a cut cycle, the old leaf losing the current-leaf exemption with
    children already under it) answers False, and the caller recomputes from scratch.
    """
    mode = tree.mode
    entries, labels, leaf = session.entries, session.labels, session.leaf_id
    new = set(new_ids)
    if session.cycle_roots or any(key not in entries for key in new_ids):
        return False
    if mode is FilterMode.LABELED_ONLY and any(entries[key].type == "label" for key in new_ids):
        return False
    with gc_paused():
        tree.parent.admit(new_ids)
        if old_leaf is not None and old_leaf in tree.parent and old_leaf not in new:
            entry = entries[old_leaf]
            if not passes(entry, mode, is_current_leaf=old_leaf == leaf, labeled=old_leaf in labels):
                # it was shown only as the current leaf
                if tree.children.get(old_leaf):
                    return False
                above = tree.parent.pop(old_leaf)
                siblings = tree.roots if above is None else tree.children[above]
                siblings.remove(old_leaf)
                if above is not None and not siblings:
                    del tree.children[above]
        for key in new_ids:
            entry = entries[key]
            if not passes(entry, mode, is_current_leaf=key == leaf, labeled=key in labels):
                continue
            parent = session.parent(key)
            # the new entry must come last among the visible children it joins
            above, walk, child = None, parent, key
            while walk is not None:
                if session.children(walk)[-1] != child:
                    return False
                if walk in tree.parent:
                    above = walk
                    break
                child, walk = walk, session.parent(walk)
            if walk is None and parent is not None:
                return False  # joins the roots from inside a hidden tree: let a rebuild order it
            tree.parent[key] = above
            if above is None:
                tree.roots.append(key)
            else:
                tree.children.setdefault(above, []).append(key)
        tree._order = None
    tree.hidden = len(entries) - len(tree.parent)
    return True


def _depth_first(tree: VisibleTree) -> list[str]:
    order: list[str] = []
    children = tree.children
    stack = list(reversed(tree.roots))
    while stack:
        key = stack.pop()
        order.append(key)
        kids = children.get(key)
        if kids:
            stack.extend(reversed(kids))
    return order
