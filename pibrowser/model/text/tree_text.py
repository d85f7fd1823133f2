"""The tree as indented text, in the spirit of pi's /tree: linear runs stay flat, branches indent."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .describe import entry_title, short_label
from .terminal_text import visible_line

if TYPE_CHECKING:
    from ..session.session import Session


def tree_text(session: Session, width: int = 100) -> str:
    lines: list[str] = []
    roots = session.display_roots()
    # (id, prefix for this line, prefix for lines below it)
    stack = [(root, "", "") for root in reversed(roots)]
    while stack:
        key, lead, rest = stack.pop()
        lines.append(lead + _line(session, key, width))
        kids = session.children(key)
        if len(kids) == 1:
            stack.append((kids[0], rest, rest))
            continue
        for index in reversed(range(len(kids))):
            last = index == len(kids) - 1
            stack.append((kids[index], rest + ("└─ " if last else "├─ "), rest + ("   " if last else "│  ")))
    return "\n".join(lines) + "\n"


def _line(session: Session, key: str, width: int) -> str:
    # Ids and titles come from the file: a newline in one must not split its node.
    text = f"{visible_line(key)} {visible_line(entry_title(session.entry(key), width))}"
    label = session.labels.get(key)
    if label is not None:
        text += f"  [{short_label(label)}]"
    if key == session.leaf_id:
        text += "  ← leaf"
    if key in session.cycle_roots:
        text += "  (parentId cycle cut here)"
    return text
