"""pibrowser's model of pi sessions: no Qt here, so it runs and tests without a display.

Packages by concern, each importing only those listed before it:

    js        what JavaScript does where pi's answers depend on it (JSON, dates, sort, values)
    session   a file read: lines, entries, the tree (Session), following appends, problems
    context   pi's context rules: the resolved context of a node, its provenance, the files its path touched
    tokens    pi's estimates, what a context is made of, recorded usage, the context over time
    fold      pi's rules folded along a path: every node's context and figures from one pass
    text      sessions as text for people (the window and the terminal say the same)
    trace     a path as pi's agent loop ran it: runs, turns, tool calls, times, errors
    compare   two nodes' contexts side by side
    library   every session on the machine: discovery, the list, the search index
    writing   what pibrowser appends or writes: labels, extracted branches
    workspace the open session and the user's place in it (one owner, every change a value)
    graph     the session as a networkx DiGraph with what each entry is, for notebooks and graph files

The names below are imported when first asked for: importing one module of the model
(`pibrowser context` needs a few) does not import the whole of it.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .context.provenance import Edit, Part, Provenance, path_provenance
    from .context.resolve import Context, empty_context, resolve, resolve_path
    from .js.value import MISSING
    from .session.entry import Entry
    from .session.problems import Problem, SessionLoadError
    from .session.session import Session

_HOME = {
    "Context": "context.resolve",
    "empty_context": "context.resolve",
    "resolve": "context.resolve",
    "resolve_path": "context.resolve",
    "Entry": "session.entry",
    "MISSING": "js.value",
    "Problem": "session.problems",
    "SessionLoadError": "session.problems",
    "Edit": "context.provenance",
    "Part": "context.provenance",
    "Provenance": "context.provenance",
    "path_provenance": "context.provenance",
    "Session": "session.session",
}

__all__ = [
    "Context",
    "Edit",
    "Entry",
    "MISSING",
    "Part",
    "Problem",
    "Provenance",
    "Session",
    "SessionLoadError",
    "empty_context",
    "path_provenance",
    "resolve",
    "resolve_path",
]


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # asked once
    return value
