"""A branch as a session file of its own, exactly as pi's createBranchedSession writes it.

pi's rules (SessionManager.createBranchedSession in pi 1.6.0):
- the entries are the path root…node, without its label entries; every kept
  entry is re-chained to the kept entry before it (labels are real tree
  entries, so later entries can hang below a label);
- a compaction whose firstKeptEntryId named a removed label now names the
  first kept entry after that label;
- the labels that are set on kept entries follow the path, in the order of
  pi's label map, as label entries chained one below the other, each with the
  timestamp of the label entry that set it;
- a new version 3 header comes first: a new session id, the original cwd, and
  parentSession = the original file;
- the file is `<ISO time with : and . as ->_<session id>.jsonl` in the original's
  folder, and pi writes it only when the branch holds a user or assistant message.

The original file is never touched, and the new file appears whole or not at all.
"""

from __future__ import annotations

import errno
import logging
import os
import secrets
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..session.entry import Entry
from ..js.value import MISSING, compact
from .label_writer import iso_now, new_entry_id
from ..session.line_layout import entry_line, entry_object
from ..session.problems import SessionLoadError
from ..session.session import Session

log = logging.getLogger(__name__)

CURRENT_VERSION = 3


class ExtractError(SessionLoadError):
    """The branch cannot be written (unknown node, unwritable folder…): one line to show."""


@dataclass(frozen=True, slots=True)
class Branch:
    """What pi would write for a node: the header and the entries after it."""

    header: dict[str, Any]
    entries: list[dict[str, Any]]
    has_conversation: bool

    @property
    def file_name(self) -> str:
        return f"{self.header['timestamp'].replace(':', '-').replace('.', '-')}_{self.header['id']}.jsonl"

    def lines(self) -> list[bytes]:
        """The file's lines, each as JSON.stringify writes it, newline included."""
        return [entry_line(item) for item in (self.header, *self.entries)]


def branch_of(session: Session, node: str) -> Branch:
    """The header and entries pi's createBranchedSession(node) gives for this session."""
    if node not in session.entries:
        raise ExtractError(session.path, f"no entry with id {node!r}")
    path = [session.entries[key] for key in session.path_to(node)]
    kept = without_labels(path)
    labels = label_entries(session, kept)
    timestamp = iso_now()
    header = {
        "type": "session",
        "version": CURRENT_VERSION,
        "id": uuid7(),
        "timestamp": timestamp,
        "cwd": pi_resolve_path(cwd) if isinstance(cwd := session.header.get("cwd"), str) else os.getcwd(),
        "parentSession": os.path.abspath(session.path),
    }
    entries = kept + labels
    return Branch(header, entries, has_conversation(entries))


def without_labels(path: list[Entry]) -> list[dict[str, Any]]:
    """The path's entries without labels, re-chained, first kept ids remapped off removed labels."""
    kept: list[dict[str, Any]] = []
    replacement: dict[Any, Any] = {}  # a removed label's id → the kept entry that followed it
    pending: list[Any] = []
    parent = None
    for entry in path:
        data = entry.data
        if entry.type == "label":
            pending.append(data.get("id"))
            continue
        own_id = data.get("id")
        for label_id in pending:
            replacement[label_id] = own_id
        pending.clear()
        copy = {**data, "parentId": parent}
        if entry.type == "compaction":
            first = _remapped(data.get("firstKeptEntryId", MISSING), own_id, replacement)
            if first is MISSING:
                copy.pop("firstKeptEntryId", None)  # undefined: JSON.stringify leaves the key out
            else:
                copy["firstKeptEntryId"] = first
        kept.append(copy)
        parent = own_id
    return kept


def _remapped(first: Any, own_id: Any, replacement: dict[Any, Any]) -> Any:
    if first == own_id and first is not MISSING or not _hashable(first):
        return first
    mapped = replacement.get(first)
    return first if mapped is None else mapped  # `??`: a null id falls back too


def _hashable(value: Any) -> bool:
    return not isinstance(value, (dict, list))


def label_entries(session: Session, kept: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The labels of kept entries as new label entries, chained after the path."""
    ids = {item.get("id") for item in kept if _hashable(item.get("id"))}
    parent = kept[-1].get("id") if kept else None
    parent = parent or None  # pi: `lastEntry?.id || null`
    written = []
    for target, label in session.label_map.items():
        if not isinstance(target, str) or target not in ids:
            continue
        entry_id = new_entry_id(ids)
        timestamp = session.label_times.get(target, MISSING)
        written.append(compact(**entry_object("label", entry_id, parent, timestamp, targetId=target, label=label)))
        ids.add(entry_id)
        parent = entry_id
    return written


def has_conversation(entries: list[dict[str, Any]]) -> bool:
    """pi's _hasConversation: a user or assistant message anywhere in the new file."""
    for item in entries:
        if item.get("type") != "message":
            continue
        message = item.get("message")
        if message is None:
            # pi reads `message.role` here and throws: it writes no file.
            raise ExtractError("branch", f"entry {item.get('id')!r} is a message without a body; pi cannot branch over it")
        if isinstance(message, dict) and message.get("role") in ("user", "assistant"):
            return True
    return False


def pi_resolve_path(text: str) -> str:
    """pi's resolvePath: `~` and file:// URLs expanded, then made absolute and normalized."""
    if text == "~":
        text = str(Path.home())
    elif text.startswith("~/"):
        text = os.path.join(str(Path.home()), text[2:])
    elif text.startswith("file://"):
        from urllib.parse import unquote, urlparse

        text = unquote(urlparse(text).path)
    return os.path.normpath(os.path.join(os.getcwd(), text)) if text else os.getcwd()


def uuid7() -> str:
    """A time-ordered UUID (version 7), as pi names sessions."""
    millis = time.time_ns() // 1_000_000
    value = (millis & 0xFFFFFFFFFFFF) << 80 | secrets.randbits(80)
    value = value & ~(0xF << 76) | 0x7 << 76  # version 7
    value = value & ~(0x3 << 62) | 0x2 << 62  # RFC 4122 variant
    text = f"{value:032x}"
    return f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}"


def extract_branch(session: Session, node: str, output_dir: str | Path | None = None) -> Path | None:
    """Write the branch root…node as a new session file; its path, or None where pi writes nothing.

    The file lands in `output_dir` (default: the original's folder) under pi's
    name, written to a temporary name first and renamed, so a failure leaves no
    partial file.
    """
    branch = branch_of(session, node)
    if not branch.has_conversation:
        return None
    return write_branch(branch, Path(output_dir) if output_dir is not None else default_folder(session))


def default_folder(session: Session) -> Path:
    """pi's: the folder of the file it opened, as given (symlinks not followed)."""
    return Path(os.path.abspath(session.path)).parent


def write_branch(branch: Branch, folder: Path) -> Path:
    target = folder / branch.file_name
    try:
        folder.mkdir(parents=True, exist_ok=True)  # pi creates its session folder too
        if target.exists():
            raise ExtractError(target, "exists already; nothing written")
        # Created the way pi's writeFileSync creates it: 0666 less the umask (mkstemp would make it private).
        temporary = folder / f".{branch.file_name}.{secrets.token_hex(4)}.tmp"
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as error:
        raise ExtractError(folder, f"cannot write the new session here: {error.strerror or error}") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.writelines(branch.lines())
            stream.flush()
            os.fsync(stream.fileno())
        _name_new_file(temporary, target)
    except BaseException as error:
        try:
            os.unlink(temporary)
        except OSError:
            pass  # the error below is the one to tell; a leftover temporary file is ours, in the new folder
        if isinstance(error, OSError):
            raise ExtractError(folder, f"cannot write the new session here: {error.strerror or error}") from None
        raise
    return target


def _name_new_file(temporary: Path, target: Path) -> None:
    """Give the written file its name, never over a file that took the name since the check.

    A hard link fails when the name exists (a rename would replace it); on a filesystem
    without hard links the bytes are copied into a file created only if the name is free.
    """
    try:
        os.link(temporary, target)
    except FileExistsError:
        raise ExtractError(target, "exists already; nothing written") from None
    except OSError as error:
        if error.errno not in _NO_HARD_LINKS:
            raise
        _copy_to_new(temporary, target)
    try:
        os.unlink(temporary)
    except OSError as error:
        log.warning("%s: written, but its temporary copy %s stays (%s)", target, temporary, error.strerror or error)


_NO_HARD_LINKS = {errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.ENOSYS, errno.EMLINK}


def _copy_to_new(source: Path, target: Path) -> None:
    try:
        handle = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except FileExistsError:
        raise ExtractError(target, "exists already; nothing written") from None
    try:
        with os.fdopen(handle, "wb") as out, open(source, "rb") as data:
            shutil.copyfileobj(data, out)
            out.flush()
            os.fsync(out.fileno())
    except BaseException:
        os.unlink(target)  # created by us just now: nobody else's bytes
        raise
