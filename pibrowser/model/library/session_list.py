"""Every session under a folder, summarised for a list: header, name, first words, counts, usage, forks.

Summaries are cached by path, size and modification time in pibrowser's cache
folder, so listing thousands of unchanged files only costs a stat each. A file
that is not a session is listed with the reason, and never stops the scan.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any
from collections.abc import Callable, Iterable

import msgspec
import orjson

from ..session.content import texts
from .cache_file import missing_under, write_whole
from .discovery import cache_dir, cwd_from_folder, session_files, sessions_dir
from ..js.collate import collation_key
from ..js.date import js_iso, js_time
from ..session.problems import SessionLoadError
from ..session.regular_file import open_regular
from ..session.same_file import Stamp
from ..session.session import Session
from ..tokens.usage import path_usage
from ..trace.agent_loop import build_trace

log = logging.getLogger(__name__)

CACHE_VERSION = 3  # 2: wall time and errors; 3: a date JS cannot hold is null
FIRST_MESSAGE_LIMIT = 200

ScanProgress = Callable[[int, int], None]


@dataclass(slots=True)
class SessionSummary:
    file: str
    size: int
    mtime_ns: int
    id: str | None = None
    cwd: str | None = None
    name: str | None = None
    first_message: str | None = None
    created: str | None = None  # header timestamp as JS prints the Date
    modified: str | None = None  # pi's "modified": the last user/assistant message, else created, else file time
    modified_ms: int = 0
    entries: int = 0
    messages: int = 0
    leaves: int = 0
    parent_session: Any = None  # as the header has it
    tokens: float = 0
    cost: float = 0
    warnings: int = 0  # lines pi would skip, and the like
    wall_ms: float = 0  # time pi spent in runs, all branches (trace/: idle time between runs left out)
    errors: int = 0  # failed replies, failed tool results, calls left without a result
    problem: str | None = None  # set when the file is not a session at all
    forks: list[str] = field(default_factory=list)  # filled after the scan, never cached
    parent: str | None = None  # the listed file that parentSession names, if any

    @property
    def project(self) -> str:
        """The folder the session ran in; else the one pi's folder name for it spells (a lossy mapping)."""
        return self.cwd if self.cwd else cwd_from_folder(Path(self.file).parent.name)

    def to_json(self) -> dict[str, Any]:
        """The object `pibrowser sessions --format json` prints, keys in this order."""
        out = {
            "file": self.file,
            "id": self.id,
            "cwd": self.cwd,
            "name": self.name,
            "first_message": self.first_message,
            "created": self.created,
            "modified": self.modified,
            "entries": self.entries,
            "messages": self.messages,
            "leaves": self.leaves,
            "size": self.size,
            "parentSession": self.parent_session,
            "forks": self.forks,
        }
        if self.problem is not None:
            out["problem"] = self.problem
        return out


def summarize(path: Path, size: int, mtime_ns: int) -> SessionSummary:
    """Read one file as pi would and keep what the list shows."""
    summary = SessionSummary(str(path), size, mtime_ns, modified_ms=mtime_ns // 1_000_000)
    summary.modified = js_iso(summary.modified_ms)
    try:
        session = Session.load(path)
    except SessionLoadError as error:
        summary.problem = error.reason
        return summary
    except (OSError, ValueError, TypeError, KeyError, RecursionError, MemoryError) as error:
        summary.problem = f"cannot be read ({type(error).__name__}: {error})"
        return summary
    _fill(summary, session)
    return summary


def _fill(summary: SessionSummary, session: Session) -> None:
    header = session.header
    summary.id = header.get("id")
    summary.cwd = header["cwd"] if isinstance(header.get("cwd"), str) else ""
    summary.name = session.name
    summary.parent_session = header.get("parentSession")
    created = js_time(header.get("timestamp"))
    summary.created = js_iso(created)
    header_time = created if isinstance(header.get("timestamp"), str) else None  # pi reads only a string
    summary.entries = len(session)
    summary.leaves = session.leaf_count()
    summary.warnings = len(session.problems)
    last_activity = None
    for entry in session.file_order:
        if entry.type != "message":
            continue
        summary.messages += 1
        if entry.role not in ("user", "assistant"):
            continue
        message = entry.peek().get("message")
        if not isinstance(message, dict) or "content" not in message:
            continue
        activity = _activity_time(message, entry.timestamp)
        if activity is not None:
            last_activity = activity if last_activity is None else max(last_activity, activity)
        if summary.first_message is None and entry.role == "user":
            text = " ".join(_message_text(message.get("content")).split())
            if text:
                summary.first_message = text[:FIRST_MESSAGE_LIMIT]
    # pi's rule for "modified": the last activity, else the header's time, else the file's.
    if last_activity is not None and last_activity > 0:
        summary.modified_ms = int(last_activity)  # `new Date(t)` drops a fraction, after the test
    elif header_time is not None:
        summary.modified_ms = header_time
    summary.modified = js_iso(summary.modified_ms)
    usage = path_usage(list(session.entries.values())).total
    summary.tokens, summary.cost = usage.tokens, usage.cost
    # The file in order is pi's appends in time order: its runs, whichever branch each went on.
    totals = build_trace(session.file_order).totals
    summary.wall_ms, summary.errors = totals.wall_ms, totals.errors


def _activity_time(message: dict[str, Any], entry_timestamp: Any) -> float | None:
    stamp = message.get("timestamp")
    if isinstance(stamp, (int, float)) and not isinstance(stamp, bool):
        return stamp if stamp == stamp else None  # a fraction counts as it is for pi's `> 0`
    return js_time(entry_timestamp)


def _message_text(content: Any) -> str:
    # pi's extractTextContent: a string, or the text blocks joined by spaces.
    return " ".join(texts(content))


def group_by_project(summaries: list[SessionSummary]) -> dict[str, list[SessionSummary]]:
    """Projects in the order of their newest session; within each, the sessions as given (newest first)."""
    groups: dict[str, list[SessionSummary]] = {}
    for summary in summaries:
        groups.setdefault(summary.project, []).append(summary)
    return groups


def title_of(summary: SessionSummary) -> str:
    """What a row shows: the session's name, else its first words, else the file name."""
    return summary.name or summary.first_message or Path(summary.file).name


ForkNode = tuple["SessionSummary", list]  # a session and the nodes of the forks listed under it


def nest_forks(members: list[SessionSummary]) -> list[ForkNode]:
    """One project's sessions as a forest: a fork under its parent when the parent is among `members`.

    Order is kept (newest first at every level); parentSession links that loop leave every session
    of the loop at the top rather than losing them.
    """
    by_file = {member.file: member for member in members}

    def nested(member: SessionSummary) -> bool:
        seen, parent = {member.file}, member.parent
        while parent in by_file:
            if parent in seen:
                return False
            seen.add(parent)
            parent = by_file[parent].parent
        return member.parent in by_file

    children: dict[str, list[SessionSummary]] = {}
    tops = []
    for member in members:
        if member.parent is not None and nested(member):  # (a nested member's parent is a file)
            children.setdefault(member.parent, []).append(member)
        else:
            tops.append(member)

    def node(member: SessionSummary) -> ForkNode:
        return member, [node(child) for child in children.get(member.file, [])]

    return [node(member) for member in tops]


# ---- the scan -------------------------------------------------------------------------


def scan_sessions(
    root: Path | None = None,
    *,
    cache: SummaryCache | None = None,
    progress: ScanProgress | None = None,
) -> list[SessionSummary]:
    """Summaries of every session file under `root` (pi's folder by default), newest first, forks linked."""
    root = Path(os.path.abspath(sessions_dir() if root is None else root))
    cache = SummaryCache.default() if cache is None else cache
    files = session_files(root)
    summaries = []
    for index, path in enumerate(files):
        if progress is not None and not index % 16:
            progress(index, len(files))
        summary = cache.summary(path)
        if summary is not None:
            summaries.append(summary)
    if progress is not None:
        progress(len(files), len(files))
    cache.forget_missing_under(root, {summary.file for summary in summaries})
    cache.save()
    link_forks(summaries)
    return in_pis_order(summaries, root)


def in_pis_order(summaries: list[SessionSummary], root: Path) -> list[SessionSummary]:
    """Newest first, ties as pi's session list (/resume) breaks them: `b.localeCompare(a)` of the file
    names for one folder's sessions; across project folders (the "all" scope) first the file's own
    time, newest first, then the names. Both are stable sorts over those orders in pi."""
    one_folder = all(Path(summary.file).parent == root for summary in summaries)

    def tie_break(summary: SessionSummary) -> tuple:
        name = collation_key(Path(summary.file).name)
        return (name,) if one_folder else (summary.mtime_ns, name)

    # Sorting by the tie-break first and then, stably, by time, as pi does; the full path last
    # keeps names that collate alike in one order.
    ordered = sorted(summaries, key=lambda summary: summary.file, reverse=True)
    ordered.sort(key=tie_break, reverse=True)
    ordered.sort(key=lambda summary: summary.modified_ms, reverse=True)
    return ordered


def link_forks(summaries: Iterable[SessionSummary]) -> None:
    """Fill `forks` (the files whose parentSession names this one, newest first) and `parent`."""
    summaries = list(summaries)
    by_key = {_path_key(summary.file): summary for summary in summaries}
    for summary in summaries:
        summary.forks = []
        summary.parent = None
    for summary in sorted(summaries, key=lambda item: (item.modified_ms, item.file), reverse=True):
        if not isinstance(summary.parent_session, str) or not summary.parent_session:
            continue
        parent = by_key.get(_path_key(summary.parent_session))
        if parent is not None and parent is not summary:
            parent.forks.append(summary.file)
            summary.parent = parent.file


def _path_key(path: str) -> str:
    # pi writes the parent's resolved path; compare real paths so a link or `..` still matches.
    try:
        return os.path.normcase(os.path.realpath(path))
    except (OSError, ValueError):
        return path


# ---- the cache -------------------------------------------------------------------------


class SummaryCache:
    """Summaries by path, trusted while the file's size and modification time are unchanged."""

    FILE_NAME = f"sessions-v{CACHE_VERSION}.json"

    def __init__(self, location: Path | None) -> None:
        self.location = location
        self._entries: dict[str, dict[str, Any]] = self._load()
        self._dirty = False

    @classmethod
    def default(cls) -> SummaryCache:
        return cls(cache_dir() / cls.FILE_NAME)

    def _load(self) -> dict[str, dict[str, Any]]:
        if self.location is None:
            return {}
        try:
            with open_regular(self.location) as handle:  # a FIFO in its place must not stop the list
                data = _loads(handle.read())
        except FileNotFoundError:
            return {}  # no cache yet
        except (OSError, ValueError) as error:
            log.info("%s cannot be read (%s): the sessions are read again", self.location, error)
            return {}  # a damaged one: start again
        if not isinstance(data, dict) or data.get("version") != CACHE_VERSION or not isinstance(data.get("files"), dict):
            return {}
        return data["files"]

    def summary(self, path: Path) -> SessionSummary | None:
        """The file's summary, from the cache when it still holds; None when the file vanished."""
        try:
            stat = path.stat()
        except OSError:
            return None
        key = str(path)
        saved = _from_cache(self._entries.get(key))
        if saved is not None and Stamp(saved.size, saved.mtime_ns) == Stamp.of(stat):
            return saved
        summary = summarize(path, stat.st_size, stat.st_mtime_ns)
        record = asdict(summary)
        for name in _NOT_CACHED:
            record.pop(name)
        self._entries[key] = record
        self._dirty = True
        return summary

    def forget_missing_under(self, root: Path, present: set[str]) -> None:
        for key in missing_under(self._entries, root, present):
            del self._entries[key]
            self._dirty = True

    def save(self) -> None:
        """Write the cache whole and atomically: a concurrent reader sees the old or the new file."""
        if self.location is not None and self._dirty:
            self._dirty = not write_whole(self.location, _dumps({"version": CACHE_VERSION, "files": self._entries}))


_NOT_CACHED = ("forks", "parent")  # filled after each scan
_CACHED = frozenset(field.name for field in fields(SessionSummary)) - set(_NOT_CACHED)


def _from_cache(saved: Any) -> SessionSummary | None:
    """The summary a cache entry holds; None for an entry of any other shape (another version, a damaged
    or edited file): that file is read again."""
    if not isinstance(saved, dict) or saved.keys() != _CACHED:
        return None
    try:
        return msgspec.convert(saved, SessionSummary)  # every field of its type, or a ValidationError
    except msgspec.ValidationError:
        return None


def _dumps(value: Any) -> bytes:
    """The cache as JSON. A session's text (and a file's name) may hold lone surrogates, which
    orjson refuses: then the standard library writes them as escapes (numbers stay exact)."""
    try:
        return orjson.dumps(value)
    except TypeError:
        return json.dumps(value, ensure_ascii=True, separators=(",", ":")).encode("ascii")


def _loads(data: bytes) -> Any:
    """What _dumps wrote; orjson refuses a lone surrogate's escape, the standard library takes it."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        return json.loads(data)
