"""Everything the shared page shows, as data its script only follows.

`page_data` returns the page's main table (read when the page opens: the nodes, the
outline under each filter, each node's context as a step, the comparison, trace and
files) and the blocks' text in chunks (read when a context or a search first needs them,
so a 100,000-entry session opens without reading every message).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..js.stringify import js_stringify
from ..session.session import Session
from ..text.describe import entry_kind, entry_title, session_title
from ..text.terminal_text import visible, visible_line
from .contexts import ContextSteps, depth_first, walk_halves
from .outline import outlines
from .views import comparison_lines, files_view, trace_view

CHUNK_CHARS = 1 << 18  # characters of block text per chunk: a click parses the few its last cards lie in
TITLE_WIDTH = 80  # as the window's outline: the page's rows are as wide


@dataclass(frozen=True, slots=True)
class ShareRequest:
    """What to share: the node whose path the trace and files follow (default: pi's leaf), and a pair to compare."""

    leaf: str | None = None
    pair: tuple[str, str] | None = None


@dataclass(slots=True)
class PageData:
    main: dict[str, Any]
    chunks: list[list[Any]]  # [texts, roles, owners, images, edits] per chunk of blocks


def page_data(
    session: Session,
    request: ShareRequest,
    progress: Callable[[int, int], None] = lambda done, total: None,
    name: str | None = None,
    parallel: bool = False,
) -> PageData:
    """The page's data for `session`; `name`: the file's name to show (the session may be read from a
    redacted copy). `parallel`: the walk over the contexts is split in two processes (walk_halves;
    for the command line: a process with threads, as the window's, must not fork), each of which also
    works out some of the views, about as much work on each side: the titles of the entries it
    walked (parsed already), and the outline over there, the path's views here."""
    file = name if name is not None else Path(session.path).name
    order, parent = depth_first(session)
    node_of = {key: node for node, key in enumerate(order)}
    leaf = request.leaf if request.leaf is not None else session.leaf_id
    steps, here, there = walk_halves(
        session,
        (order, parent),
        progress,
        parallel,
        lambda nodes: _here(session, request, order, node_of, leaf, file, nodes),
        lambda nodes: _outline_then_titles(session, node_of, order[nodes.start : nodes.stop]),
    )
    main: dict[str, Any] = {
        "title": here["title"],
        "file": visible_line(file),
        "ids": here["ids"],
        "parent": steps.parent,
        "leaf": node_of.get(session.leaf_id, -1) if session.leaf_id is not None else -1,
        "shared": node_of.get(leaf, -1) if leaf is not None else -1,
        **_steps_table(steps),
        "titles": here["titles"] + there["titles"],
        "kinds": here["kinds"],
        "kind": here["kind"],
        "labels": here["labels"],
        "outline": there["outline"],
        "compare": here["compare"],
        "trace": here["trace"],
        "files": here["files"],
        "problems": here["problems"],
    }
    chunks, starts = _chunks(steps)
    main["chunkStarts"] = starts
    main["idText"] = here["idText"]
    return PageData(main, chunks)


def _here(
    session: Session, request: ShareRequest, order: list[str], node_of: dict[str, int], leaf: str | None, file: str, nodes: range
) -> dict[str, Any]:
    """What this process works out beside its half of the walk (walk_halves' `here`): the titles of
    the entries it walked, the path's views, and the entries' ids and kinds."""
    entries = session.entries
    kinds: dict[str, int] = {}
    kind_of = [kinds.setdefault(entry_kind(entries[key]), len(kinds)) for key in order]
    ids = [visible_line(key) for key in order]
    return {
        "title": session_title(session) or visible_line(file),
        "ids": ids,
        "idText": {str(node): visible(key) for node, key in enumerate(order) if visible(key) != ids[node]},
        "titles": _titles(session, order[nodes.start : nodes.stop]),
        "kinds": list(kinds),
        "kind": kind_of,
        **_path_views(session, request, node_of, leaf, file),
    }


def _outline_then_titles(session: Session, node_of: dict[str, int], keys: list[str]) -> Callable[[], dict[str, Any]]:
    """The outline now, before the walk parses the entries; then, after it, the titles of `keys` (walk_halves' `there`)."""
    outline = outlines(session, node_of)
    return lambda: {"outline": outline, "titles": _titles(session, keys)}


def _titles(session: Session, keys: list[str]) -> list[str]:
    """The entries' titles, each entry read for its title and let go (transient) unless the walk
    read it already: 160 MB of lines parsed and kept cost a gigabyte."""
    entries = session.entries
    return [visible_line(entry_title(entries[key].transient(), TITLE_WIDTH)) for key in keys]


def _path_views(session: Session, request: ShareRequest, node_of: dict[str, int], leaf: str | None, file: str) -> dict[str, Any]:
    """The labels, the comparison, the trace and files of the shared path, and the file's problems."""
    return {
        "labels": [[node_of[key], visible_line(_label_text(label))] for key, label in session.labels.items() if key in node_of],
        "compare": _comparison(session, request.pair, node_of),
        "trace": trace_view(session, leaf),
        "files": files_view(session, leaf),
        "problems": [visible_line(f"{file}:{problem.line}: {problem.reason}") for problem in session.problems[:1000]],
    }


def _label_text(label: Any) -> str:
    return label if isinstance(label, str) else js_stringify(label) or ""


def _steps_table(steps: ContextSteps) -> dict[str, Any]:
    """Each node's step as one flat list: keep, how many blocks it adds, those blocks."""
    flat: list[int] = []
    for keep, added in zip(steps.keep, steps.added):
        flat.append(keep)
        flat.append(len(added))
        flat.extend(added)
    cut = {str(index): len(text.rstrip()) for index, text in enumerate(steps.settings) if text.rstrip() != text}
    return {
        "steps": flat,
        "settings": steps.settings,
        "settingsCut": cut,
        "setting": steps.setting,
        "blockTail": {str(block): tail for block, tail in steps.block_tail.items()},
        "blockCount": len(steps.blocks),
    }


def _comparison(session: Session, pair: tuple[str, str] | None, node_of: dict[str, int]) -> dict[str, Any] | None:
    if pair is None:
        return None
    left, right = pair
    return {"left": node_of[left], "right": node_of[right], "lines": comparison_lines(session, left, right)}


def _chunks(steps: ContextSteps) -> tuple[list[list[Any]], list[int]]:
    """The blocks in chunks of about CHUNK_CHARS, and the first block of each."""
    chunks: list[list[Any]] = []
    starts: list[int] = []
    texts: list[str] = []
    roles: list[str] = []
    owners: list[int] = []
    images: dict[str, list[str]] = {}
    edits: dict[str, str] = {}
    size = 0
    for block, text in enumerate(steps.blocks):
        found = steps.images.get(block, ())
        if found:
            images[str(len(texts))] = found
        if block in steps.edits:
            edits[str(len(texts))] = steps.edits[block]
        texts.append(text)
        roles.append(steps.block_role[block])
        owners.append(steps.block_owner[block])
        size += len(text) + sum(map(len, found))
        if size >= CHUNK_CHARS:
            starts.append(block + 1 - len(texts))
            chunks.append([texts, roles, owners, images, edits])
            texts, roles, owners, images, edits, size = [], [], [], {}, {}, 0
    if texts:
        starts.append(len(steps.blocks) - len(texts))
        chunks.append([texts, roles, owners, images, edits])
    return chunks, starts
