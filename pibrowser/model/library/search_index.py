"""The all-sessions search index: SQLite FTS5 in pibrowser's cache folder, kept current by appends.

pi only appends to a session file, so each file is indexed from the offset
reached last time. Before trusting that offset the index compares the bytes
just before it (and the file's first bytes) with what it saw then; a file
rewritten in any other way is indexed again from the start, a deleted one is
removed. Each chunk is one transaction that first reads the file's state, so
two processes indexing at once take turns (SQLite's locking, WAL) and never
index the same bytes twice. A session file is only ever opened for reading.

One chunk of a file becomes rows in index_chunk.py; SQLite's own matters (waiting out
another process, exact paths and ids, the schema check) are index_db.py. (Over 400 lines
as one file: SearchIndex opens, repairs, syncs and queries through one connection and
one recovery path, which read best together.)
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar
from collections.abc import Callable

from .discovery import cache_dir, session_files
from .index_chunk import Chunk, FileState, Step, still_appended
from .index_db import (
    BUSY_TIMEOUT_S,
    FILE_SHIFT,
    UNDER,
    check_schema,
    delete_rows,
    exact,
    exact_back,
    forget,
    is_damaged,
    patiently,
    transaction,
    under,
)
from ..js.value import to_well_formed
from ..session.lines import LineBatch, scan_lines
from ..session.regular_file import open_regular
from ..session.same_file import Stamp
from .search_query import Term, fts_match, mark_snippet, parse_query, spaced_out, term_patterns, unspaced

SCHEMA_VERSION = 2  # 2: ids of version 1 files in hits; unspaced scripts a token a character
INDEX_FILE = "search.sqlite3"
CHUNK_SIZE = 8 * 1024 * 1024  # read from one file at a time
BATCH_BYTES = CHUNK_SIZE  # read in one transaction, over as many files as it takes
MARK_START, MARK_END = "\ue000", "\ue001"  # around matched words in a snippet; never in our own text
RANK_WINDOW = 2_000  # matching rows ranked at most (the newest), unless all hits are asked for

SyncProgress = Callable[[int, int], None]  # bytes indexed so far, bytes to index in all
_T = TypeVar("_T")  # what a piece of work run by SearchIndex._recovering answers

ROLE_ALIASES = {
    "tool": "toolResult",
    "toolresult": "toolResult",
    "tool_result": "toolResult",
    "tool-result": "toolResult",
    "tool result": "toolResult",
    "bash": "bashExecution",
    "bashexecution": "bashExecution",
    "summary": "compactionSummary",
    "compaction": "compactionSummary",
    "compactionsummary": "compactionSummary",
    "branch": "branchSummary",
    "branchsummary": "branchSummary",
    "session_name": "name",
}


# The roles rows are indexed under: pi's message roles, and a label's or a session name's text.
KNOWN_ROLES = ("user", "assistant", "toolResult", "bashExecution", "custom", "branchSummary", "compactionSummary", "label", "name")


def normalize_role(role: str) -> str:
    """A role as the index stores it: pi's message roles, plus "label" and "name"."""
    return ROLE_ALIASES.get(role.strip().casefold(), role.strip())


@dataclass(frozen=True, slots=True)
class SearchFilters:
    roles: tuple[str, ...] = ()
    tools: tuple[str, ...] = ()
    project: str | None = None  # part of the session's cwd, any case
    since: int | None = None  # epoch ms, inclusive
    until: int | None = None  # epoch ms, exclusive


@dataclass(frozen=True, slots=True)
class Hit:
    file: str
    session: str | None
    entry: str | None
    line: int
    role: str
    tool: str | None
    time: int | None
    project: str
    marked: str  # the snippet with MARK_START/MARK_END around matched words

    @property
    def snippet(self) -> str:
        """The snippet on one line, without marks."""
        return " ".join(self.marked.replace(MARK_START, "").replace(MARK_END, "").split())

    def to_json(self) -> dict[str, object]:
        return {"file": self.file, "session": self.session, "entry": self.entry, "role": self.role, "snippet": self.snippet}


@dataclass(slots=True)
class SyncReport:
    files: int = 0  # session files under the root
    updated: int = 0  # files read (new, grown or rewritten)
    reindexed: int = 0  # files indexed again from the start (rewritten)
    removed: int = 0  # files gone from disk, dropped from the index
    bytes: int = 0  # bytes read and indexed


class IndexUnavailable(Exception):
    """The index cannot be used (the cache folder is not writable, the disk is full)."""


def default_index_path() -> Path:
    return cache_dir() / INDEX_FILE


class SearchIndex:
    def __init__(self, location: Path | None = None) -> None:
        self.location = default_index_path() if location is None else Path(location)
        self._connection: sqlite3.Connection | None = None

    # ---- opening, and rebuilding what cannot be trusted ----------------------------------

    @property
    def db(self) -> sqlite3.Connection:
        if self._connection is None:
            self._connection = self._open()
        return self._connection

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def __enter__(self) -> SearchIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _open(self) -> sqlite3.Connection:
        try:
            self.location.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise IndexUnavailable(f"{self.location.parent}: cannot create the index folder ({error.strerror or error})") from None
        try:
            return patiently(self._connect)
        except sqlite3.DatabaseError as error:
            if not is_damaged(error):
                raise
        self._discard_files()
        return patiently(self._connect)

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.location, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            if db.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
                self._create(db)
            check_schema(db)
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def _create(self, db: sqlite3.Connection) -> None:
        with transaction(db):
            # Another process may have built it while this one waited for the lock.
            if db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
                return
            tables = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
            for name in tables:
                if name in ("hits", "files", "rows") or not name.startswith("hits_"):
                    db.execute(f'DROP TABLE IF EXISTS "{name}"')
            db.execute(
                "CREATE TABLE files (id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, size INTEGER, mtime_ns INTEGER,"
                " consumed INTEGER, next_line INTEGER, next_row INTEGER, head BLOB, fingerprint BLOB,"
                " session TEXT, project TEXT, legacy INTEGER, problem TEXT, problems INTEGER DEFAULT 0)"
            )
            # The text alone in FTS5; what hits are filtered by in a plain table beside it (same rowid),
            # so a filter never reads a row's text: spaced out (search_query.spaced_out), a character
            # of a script written without spaces a token of its own; `unspaced` gives back the text.
            db.execute("CREATE VIRTUAL TABLE hits USING fts5(text, tokenize = \"unicode61 tokenchars '_'\")")
            db.execute("CREATE TABLE rows (id INTEGER PRIMARY KEY, entry TEXT, line INTEGER, role TEXT, tool TEXT, time INTEGER)")
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _discard_files(self) -> None:
        for suffix in ("", "-wal", "-shm"):
            try:
                os.remove(f"{self.location}{suffix}")
            except FileNotFoundError:
                pass
            except OSError as error:
                raise IndexUnavailable(f"{self.location}: damaged and cannot be replaced ({error.strerror or error})") from None

    def _recovering(self, work: Callable[[], _T]) -> _T:
        """Run `work`; if it finds the index damaged, build a new one and run it again."""
        try:
            check_schema(self.db)  # changed by someone else since it was opened?
            return work()
        except sqlite3.DatabaseError as error:
            if not is_damaged(error):
                raise
        self.close()
        self._discard_files()
        return work()

    # ---- keeping it current ---------------------------------------------------------------

    def sync(self, root: Path, progress: SyncProgress | None = None, cancelled: Callable[[], bool] | None = None) -> SyncReport:
        """Bring the index up to date with every session file under `root` (a folder or one file)."""
        return self._recovering(lambda: self._sync(Path(os.path.abspath(root)), progress, cancelled))

    def _sync(self, root: Path, progress: SyncProgress | None, cancelled: Callable[[], bool] | None) -> SyncReport:
        report = SyncReport()
        files = session_files(root)
        report.files = len(files)
        known = self._known_under(root)
        stale: list[tuple[Path, int, int]] = []  # path, bytes to read, modification time
        for path in files:
            try:
                stat = path.stat()
            except OSError:
                continue
            saved = known.pop(str(path), None)
            if saved != Stamp.of(stat):
                stale.append((path, max(0, stat.st_size - (saved[0] if saved and saved[0] <= stat.st_size else 0)), stat.st_mtime_ns))
        if known:
            self._remove(list(known))
            report.removed = len(known)
        report.updated = len(stale)
        # Oldest first, so the newest sessions get the highest row ids (ranking prefers them on common words).
        stale.sort(key=lambda item: item[2])
        pending = [path for path, _, _ in stale]
        total, done = sum(size for _, size, _ in stale), 0
        while pending and not (cancelled is not None and cancelled()):
            done = self._index_batch(pending, report, progress, done, total)
        if progress is not None:
            progress(total, total)
        return report

    def _index_batch(self, pending: list[Path], report: SyncReport, progress: SyncProgress | None, done: int, total: int) -> int:
        """One transaction: the next chunk of as many files as fit in BATCH_BYTES.

        Small sessions share a commit (a commit per file would cost more than the
        indexing); a large one is read a chunk per transaction, so another
        process waiting for the lock never waits long.
        """
        budget = BATCH_BYTES
        unfinished = []
        with transaction(self.db):
            while pending and budget > 0:
                path = pending.pop(0)
                step = self._index_chunk(self.db, path, report)
                budget -= max(step.read, 1024)
                done += step.read
                report.bytes += step.read
                if not step.finished:
                    unfinished.append(path)
        pending[:0] = unfinished
        if progress is not None:
            progress(min(done, total), total)
        return done

    def _known_under(self, root: Path) -> dict[str, tuple[int, int]]:
        rows = self.db.execute(f"SELECT path, size, mtime_ns FROM files WHERE {UNDER}", under(root))
        return {exact_back(path): (size, mtime) for path, size, mtime in rows}

    def _remove(self, paths: list[str]) -> None:
        with transaction(self.db):
            for path in paths:
                forget(self.db, path)

    def _index_chunk(self, db: sqlite3.Connection, path: Path, report: SyncReport) -> Step:
        """Index the next chunk of `path`, from where the index (read inside this transaction) stopped."""
        try:
            handle = open_regular(path)
        except OSError:
            forget(db, str(path))  # gone, unreadable or no file at all since the folder was listed
            return Step(0, True)
        with handle:
            stat = os.fstat(handle.fileno())
            state = self._state(db, path)
            if state is None or not still_appended(handle, state):
                if state is not None and state.consumed:
                    report.reindexed += 1
                state = self._reset(db, path, state)
            batch = next(scan_lines(handle, state.consumed, CHUNK_SIZE), LineBatch(state.consumed, b"", 0, False))
            step = Chunk(path, state, batch, at_eof=batch.end >= stat.st_size).index()
            if step.rows:
                first = (state.id << FILE_SHIFT) | state.next_row
                db.executemany(
                    "INSERT INTO hits (rowid, text) VALUES (?, ?)",
                    [(first + index, spaced_out(row[0])) for index, row in enumerate(step.rows)],
                )
                db.executemany(
                    "INSERT INTO rows VALUES (?, ?, ?, ?, ?, ?)", [(first + index, *row[1:]) for index, row in enumerate(step.rows)]
                )
            finished = step.finished or step.read == 0
            self._save(db, step, stat, finished)
            return Step(step.read, finished)

    def _save(self, db: sqlite3.Connection, step: Step, stat: os.stat_result, finished: bool) -> None:
        new, rows = step.state, step.rows
        assert new is not None and rows is not None, "a chunk's step: Chunk.index gives both"
        db.execute(
            "UPDATE files SET size = ?, mtime_ns = ?, consumed = ?, next_line = ?, next_row = ?, head = ?, fingerprint = ?,"
            " session = ?, project = ?, legacy = ?, problem = ?, problems = problems + ? WHERE id = ?",
            (
                stat.st_size if finished else -1,  # -1: not done, look again next time
                stat.st_mtime_ns,
                new.consumed,
                new.next_line,
                new.next_row + len(rows),
                new.head,
                new.fingerprint,
                exact(new.session),
                to_well_formed(new.project),
                int(new.legacy),
                None if new.problem is None else to_well_formed(new.problem),
                step.problems,
                new.id,
            ),
        )

    def _state(self, db: sqlite3.Connection, path: Path) -> FileState | None:
        row = db.execute(
            "SELECT id, size, mtime_ns, consumed, next_line, next_row, head, fingerprint, session, project, legacy, problem"
            " FROM files WHERE path = ?",
            (exact(str(path)),),
        ).fetchone()
        if row is None:
            return None
        return FileState(*row[:8], exact_back(row[8]), *row[9:10], bool(row[10]), row[11])  # type: ignore[call-arg]  # the checker lets *row[:8] fill every field

    def _reset(self, db: sqlite3.Connection, path: Path, state: FileState | None) -> FileState:
        if state is None:
            cursor = db.execute(
                "INSERT INTO files (path, consumed, next_line, next_row, problems) VALUES (?, 0, 1, 0, 0)", (exact(str(path)),)
            )
            file_id = cursor.lastrowid
            assert file_id is not None, "an INSERT sets it"
        else:
            file_id = state.id
            delete_rows(db, file_id)
            db.execute("UPDATE files SET problems = 0 WHERE id = ?", (file_id,))
        return FileState(file_id, -1, 0, 0, 1, 0, b"", b"", None, "", False, None)

    # ---- asking ---------------------------------------------------------------------------

    def search(self, query: str, root: Path | None = None, filters: SearchFilters | None = None, limit: int = 100) -> list[Hit]:
        """Hits for `query`, best first (bm25), one per entry; only files under `root` when given."""
        return self._recovering(lambda: self._search(query, root, filters or SearchFilters(), limit))

    def _search(self, query: str, root: Path | None, filters: SearchFilters, limit: int) -> list[Hit]:
        terms = parse_query(query)
        match = fts_match(terms)
        if match is None:
            return []
        chosen: dict[int, tuple] = {}  # rowid: the hit's fields but its snippet, best first
        seen: set[tuple[int, object]] = set()
        ranked = self._ranked(match, root, filters, limit)
        for start in range(0, len(ranked), 128):
            batch = [rowid for rowid, _ in ranked[start : start + 128]]
            rows = self._rows_of(batch)
            for rowid in batch:
                path, session, project, entry, line, role, tool, time = rows[rowid]
                key = (rowid >> FILE_SHIFT, entry if entry is not None else line)
                if key in seen:
                    continue  # an entry's text and its tool calls are rows of their own: show the entry once
                seen.add(key)
                chosen[rowid] = (path, session, entry, line, role, tool, time, project or "")
                if limit and len(chosen) >= limit:
                    return self._with_snippets(terms, chosen)
        return self._with_snippets(terms, chosen)

    def _ranked(self, match: str, root: Path | None, filters: SearchFilters, limit: int) -> list[tuple[int, float]]:
        """(rowid, bm25) of matching rows, best first.

        bm25 costs about a microsecond a row; a word found in hundreds of thousands
        of entries would take a second to rank in full, so only the newest
        RANK_WINDOW matching rows (by file, as indexed) are ranked when no `limit`
        asks for everything. Every filter applies before that cut.
        """
        params: list[object]
        conditions, params = ["hits MATCH ?"], [match]
        files, file_params = [], []
        if root is not None:
            files.append(UNDER)
            file_params += under(Path(os.path.abspath(root)))
        if filters.project:
            files.append("instr(lower(project), ?) > 0")
            file_params.append(filters.project.casefold())
        if files:
            conditions.append(f"(h.rowid >> {FILE_SHIFT}) IN (SELECT id FROM files WHERE {' AND '.join(files)})")
            params += file_params
        join = ""
        if filters.roles or filters.tools or filters.since is not None or filters.until is not None:
            join = "JOIN rows r ON r.id = h.rowid"
        if filters.roles:
            conditions.append(f"r.role IN ({','.join('?' * len(filters.roles))})")
            params += [normalize_role(role) for role in filters.roles]
        if filters.tools:
            conditions.append(f"lower(r.tool) IN ({','.join('?' * len(filters.tools))})")
            params += [tool.casefold() for tool in filters.tools]
        if filters.since is not None:
            conditions.append("r.time >= ?")
            params.append(filters.since)
        if filters.until is not None:
            conditions.append("r.time < ?")
            params.append(filters.until)
        sql = f"SELECT h.rowid, bm25(hits) FROM hits h {join} WHERE {' AND '.join(conditions)} ORDER BY h.rowid DESC"
        if limit:
            sql += f" LIMIT {RANK_WINDOW}"
        rows = self.db.execute(sql, params).fetchall()
        rows.sort(key=lambda row: row[1])  # bm25: lower is better
        return rows

    def _rows_of(self, rowids: list[int]) -> dict[int, tuple]:
        found = self.db.execute(
            "SELECT r.id, f.path, f.session, f.project, r.entry, r.line, r.role, r.tool, r.time"
            f" FROM rows r JOIN files f ON f.id = (r.id >> {FILE_SHIFT}) WHERE r.id IN ({','.join('?' * len(rowids))})",
            rowids,
        )
        return {
            rowid: (exact_back(path), exact_back(session), project, exact_back(entry), *rest)
            for rowid, path, session, project, entry, *rest in found
        }

    def _with_snippets(self, terms: list[Term], chosen: dict[int, tuple]) -> list[Hit]:
        """Snippets only for the hits shown."""
        patterns = term_patterns(terms)
        snippets: dict[int, str] = {}
        rowids = list(chosen)
        for start in range(0, len(rowids), 500):
            batch = rowids[start : start + 500]
            found = self.db.execute(f"SELECT rowid, text FROM hits WHERE rowid IN ({','.join('?' * len(batch))})", batch)
            snippets.update((rowid, mark_snippet(unspaced(text), patterns, MARK_START, MARK_END)) for rowid, text in found)
        return [Hit(*fields, snippets.get(rowid, "")) for rowid, fields in chosen.items()]  # type: ignore[call-arg]  # the checker lets *fields fill every field

    def roles(self) -> set[str]:
        """Every role some indexed row has (a file from the wild may hold roles of its own)."""
        return {role for (role,) in self.db.execute("SELECT DISTINCT role FROM rows")}

    def indexed_files(self) -> dict[str, str | None]:
        """Every indexed file and its problem (None for a session): for tests and diagnostics."""
        return {exact_back(path): problem for path, problem in self.db.execute("SELECT path, problem FROM files")}
