"""pibrowser's model of pi sessions: no Qt here, so it runs and tests without a display."""

from .context import Context, empty_context, resolve, resolve_path
from .entry import Entry
from .js.value import MISSING
from .problems import Problem, SessionLoadError
from .provenance import Edit, Part, Provenance, path_provenance
from .session import Session

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
