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

from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

from .entry import Entry
from .jsvalue import MISSING, js_trim, js_truthy

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
    def title(self) -> str:
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
    FilterMode.EVERY_ENTRY: "Every entry",
}

_DESCRIPTIONS = {
    FilterMode.DEFAULT: "pi's default: hides bookkeeping entries, usage records and tool-call-only assistant turns",
    FilterMode.NO_TOOLS: "The default without tool results",
    FilterMode.USER_ONLY: "Only the user's messages",
    FilterMode.LABELED_ONLY: "Only entries that carry a label",
    FilterMode.ALL: "pi's 'all': every entry except usage records and tool-call-only assistant turns",
    FilterMode.EVERY_ENTRY: "Every entry in the file, nothing hidden",
}

# The modes pi's selector cycles through, in its order.
PI_MODES = (FilterMode.DEFAULT, FilterMode.NO_TOOLS, FilterMode.USER_ONLY, FilterMode.LABELED_ONLY, FilterMode.ALL)

SETTINGS_TYPES = frozenset({"label", "context_edit", "custom", "model_change", "thinking_level_change", "session_info"})


def has_text_content(content: Any) -> bool:
    """pi's hasTextContent: a non-blank string, or a text block with non-blank text."""
    if isinstance(content, str):
        return bool(js_trim(content))
    if isinstance(content, list):
        for block in content:
            if isinstance(block, dict) and block.get("type") == "text":
                text = block.get("text")
                if isinstance(text, str) and js_trim(text):
                    return True
    return False


def is_silent_assistant(entry: Entry) -> bool:
    """An assistant message pi's tree never shows: no text, and not an error or abort."""
    if entry.type != "message" or entry.role != "assistant":
        return False
    message = entry.message
    if not isinstance(message, dict):
        return False
    if has_text_content(message.get("content")):
        return False
    stop = message.get("stopReason", MISSING)
    return not (js_truthy(stop) and stop != "stop" and stop != "toolUse")


def passes(entry: Entry, mode: FilterMode, *, is_current_leaf: bool = False, labeled: bool = False) -> bool:
    """Whether pi's tree selector shows `entry` in `mode` (search aside)."""
    if mode is FilterMode.EVERY_ENTRY:
        return True
    kind = entry.type
    if kind == "usage":
        return False
    if not is_current_leaf and entry.role == "assistant" and is_silent_assistant(entry):
        return False
    if mode is FilterMode.USER_ONLY:
        return kind == "message" and entry.role == "user"
    if mode is FilterMode.NO_TOOLS:
        return kind not in SETTINGS_TYPES and not (kind == "message" and entry.role == "toolResult")
    if mode is FilterMode.LABELED_ONLY:
        return labeled
    if mode is FilterMode.ALL:
        return True
    return kind not in SETTINGS_TYPES


@dataclass(slots=True)
class VisibleTree:
    """The forest that remains under a filter: every visible entry under its nearest visible ancestor.

    `order` lists the visible entries depth first in child order (the order the
    search steps through); `hidden` counts the entries the filter left out.
    """

    mode: FilterMode
    roots: list[str] = field(default_factory=list)
    children: dict[str, list[str]] = field(default_factory=dict)
    parent: dict[str, str | None] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    hidden: int = 0

    def __contains__(self, key: object) -> bool:
        return key in self.parent

    def __len__(self) -> int:
        return len(self.order)

    def kids(self, key: str) -> list[str]:
        return self.children.get(key, _EMPTY)

    def siblings(self, key: str) -> list[str]:
        parent = self.parent.get(key)
        return self.roots if parent is None else self.children.get(parent, _EMPTY)

    def root_of(self, key: str) -> str:
        parent = self.parent
        while parent.get(key) is not None:
            key = parent[key]
        return key

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
    result = VisibleTree(mode)
    entries, succ, labels, leaf = session.entries, session.graph.succ, session.labels, session.leaf_id
    roots, children, parent, order = result.roots, result.children, result.parent, result.order
    everything = mode is FilterMode.EVERY_ENTRY
    # (key, nearest visible ancestor), depth first, children in pi's order.
    stack: list[tuple[str, str | None]] = [(key, None) for key in reversed(session.display_roots())]
    pop, push = stack.pop, stack.append
    while stack:
        key, above = pop()
        if everything or passes(entries[key], mode, is_current_leaf=key == leaf, labeled=key in labels):
            parent[key] = above
            order.append(key)
            if above is None:
                roots.append(key)
            else:
                kids = children.get(above)
                if kids is None:
                    children[above] = [key]
                else:
                    kids.append(key)
            above = key
        kids_of_key = succ[key]
        if kids_of_key:
            for kid in reversed(list(kids_of_key)):
                push((kid, above))
    result.hidden = len(entries) - len(order)
    return result
