"""`pibrowser trace`, `composition` and `files`: what one path of a session did, holds and touched."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING

from .output import check_known, write

# Imported where each command runs.
if TYPE_CHECKING:
    from ..model.session.path_index import PathIndex
    from ..model.session.session import Session

Write = Callable[[bytes], None]


def trace(args: argparse.Namespace) -> int:
    return _on_path(args, args.leaf, _trace)


def composition(args: argparse.Namespace) -> int:
    return _on_path(args, args.leaf, _composition)


def files(args: argparse.Namespace) -> int:
    return _on_path(args, args.leaf, _files)


def _on_path(args: argparse.Namespace, leaf: str | None, show: Callable[[Session | PathIndex, str | None, str, Write], None]) -> int:
    """Show what the path to `leaf` (default: the current leaf) did, holds or touched; a clean file
    is indexed, not loaded."""
    from ..model.session.path_index import PathIndex

    source: Session | PathIndex | None = PathIndex.scan(args.file)
    if source is None:
        from ..model.session.session import Session  # only for a file the index does not read

        source = Session.load(args.file, lazy=False)
    try:
        leaf = leaf or source.leaf_id
        check_known(source, [leaf])
        show(source, leaf, args.format, write)
    finally:
        if isinstance(source, PathIndex):
            source.close()
    return 0


def _trace(source: Session | PathIndex, leaf: str | None, form: str, write: Write) -> None:
    from ..model.session.gcpause import gc_paused

    # The trace's nodes and rows hold no garbage until the end: the collector would only walk them again.
    # They are gone when it is back (else its first pass would walk every one of them).
    with gc_paused():
        _write_trace(source, leaf, form, write)


def _write_trace(source: Session | PathIndex, leaf: str | None, form: str, write: Write) -> None:
    from ..model.session.path_index import PathIndex
    from ..model.trace.agent_loop import trace_of_path, trace_with_facts
    from ..model.trace.facts import Facts
    from ..model.trace.rows import each_row, rows_json, rows_text_pieces

    facts_of: Callable[[str], Facts]
    if isinstance(source, PathIndex) and leaf is not None:
        # Its lines are read a stretch at a time and each decoded once: they are not all held.
        trace, facts_of = trace_of_path(source.path_entries(leaf, lines_kept=False))
    else:
        trace, facts = trace_with_facts(source.path_entries(leaf) if leaf is not None else [])
        facts_of = facts.__getitem__
    rows = each_row(trace, facts_of)  # made as they are written: a long path's are not all held
    if form == "json":
        for piece in rows_json(rows):
            write(piece)
        write(b"\n")
    else:
        from ..model.text.terminal_text import visible

        for text in rows_text_pieces(trace, rows):
            write(visible(text).encode("utf-8"))  # every cell is one line already; nothing else may slip through
    trace.release()


def _composition(source: Session | PathIndex, leaf: str | None, form: str, write: Write) -> None:
    from ..model.context.resolve import resolve
    from ..model.js.stringify import dump_json
    from ..model.text.terminal_text import columns, one_line, pad
    from ..model.tokens.composition import context_composition, kind_name

    composition = context_composition(resolve(source, leaf))
    if form == "json":
        write(dump_json(composition.to_json()) + b"\n")
        return
    total = composition.tokens or 1
    rows = [
        (one_line(kind_name(kind), 36), f"{chars:,}", f"{tokens:,.2f}", f"{tokens / total:6.1%}")
        for kind, chars, tokens in composition.shares()
    ]
    rows.append(("total (pi: ceil(chars / 4) per message)", f"{composition.total_chars:,}", f"{composition.tokens:,.2f}", ""))
    width = max(columns(row[0]) for row in [("kind",), *rows])  # the total's label is the longest
    lines = [f"{pad('kind', width)}  {'chars':>12}  {'tokens':>12}  share"]
    lines.extend(f"{pad(name, width)}  {chars:>12}  {tokens:>12}  {share}".rstrip() for name, chars, tokens, share in rows)
    write(("\n".join(lines) + "\n").encode("utf-8"))


def _files(source: Session | PathIndex, leaf: str | None, form: str, write: Write) -> None:
    from ..model.context.file_lists import file_operations
    from ..model.js.stringify import dump_json
    from ..model.text.terminal_text import one_line

    found = file_operations(source.path_entries(leaf) if leaf is not None else [])
    if form == "json":
        write(dump_json(found.to_json()) + b"\n")
        return
    lines = []
    for title, paths in (("modified", found.modified_files), ("read", found.read_files)):
        lines.append(f"{title} ({len(paths):,}):")
        for path in paths:
            calls = ", ".join(f"{call.op} in {call.entry}" for call in found.calls_for(path))
            lines.append(f"  {one_line(path)}    {one_line(calls, 120)}")
    write(("\n".join(lines) + "\n").encode("utf-8"))
