"""The commands on one session file: `context`, `tree`, `diff`, `label`, `extract`, `timeline`, `graph`, `upgrade`.

Each runner takes the parsed arguments and returns the exit status (cli/commands.py names
them). `pibrowser context`, timed against pi, imports only what the path of a leaf needs:
what the other commands use (the full Session, the fold, compare, the graph, writing, text
for people) is imported where that command runs.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..failure import fail
from ..model.context.resolve import Context, resolve
from ..model.fold.structure import context_of_path
from ..model.js.stringify import dump_json
from ..model.session.gcpause import gc_paused
from ..model.session.path_index import PathIndex
from .output import check_known, text, write

if TYPE_CHECKING:
    from pathlib import Path

    from ..model.session.session import Session


def context(args: argparse.Namespace) -> int:
    if not args.all:
        # Only the leaves' paths are needed: a clean file is indexed, not loaded.
        index = PathIndex.scan(args.file)
        if index is not None:
            # The contexts' JSON holds no cycles: the collector would only walk the index again.
            with index, gc_paused():
                return _print_contexts(index, args)
    return _print_contexts(_load(args.file), args)


def tree(args: argparse.Namespace) -> int:
    from ..model.session.index_tree import IndexTree
    from ..model.text.tree_json import tree_json
    from ..model.text.tree_text import forest_lines, line_titles, tree_bytes

    # The tree, its rows and titles hold no cycles: the collector would only walk them again and again.
    with gc_paused():
        # A clean file's tree is read in one pass, each entry's title made while its line is at hand;
        # any other file is loaded whole, its problems said.
        found = IndexTree.scan(args.file, previews=line_titles if args.format == "text" else None)
        if args.format == "json":
            write(tree_json(found if found is not None else _load_skimmed(args.file)) + b"\n")
            return 0
        # Written as made (the text of a long session is not held whole), its ids, titles and labels terminal-safe.
        for piece in forest_lines(found, found.column.__getitem__) if found is not None else tree_bytes(_load_skimmed(args.file)):
            write(piece)
    return 0


def diff(args: argparse.Namespace) -> int:
    session = _load(args.file)
    check_known(session, [args.left, args.right])
    from ..model.compare.comparison import compare
    from ..model.compare.diff_report import diff_object, diff_text

    comparison = compare(session, args.left, args.right)
    write(dump_json(diff_object(comparison)) + b"\n" if args.format == "json" else text(diff_text(comparison)))
    return 0


def label(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from ..model.writing import label_writer

    # An empty TEXT clears too; pi leaves the key out when clearing.
    # pi may be mid-line: say why the command pauses (a second or two at most).
    patience = replace(label_writer.PATIENCE, on_wait=lambda message: print(message, file=sys.stderr))
    print(label_writer.append_label(args.file, args.target, args.text or None, patience=patience))
    return 0


def extract(args: argparse.Namespace) -> int:
    from ..model.session.session import Session
    from ..model.text.terminal_text import visible_line
    from ..model.writing.extract import extract_branch

    written = extract_branch(Session.load(args.file, lazy=False), args.leaf, args.output)
    if written is None:
        return fail(
            f"{args.file}: nothing written: the branch to {args.leaf} holds no user or assistant message yet, and pi writes no file before one"
        )
    print(visible_line(str(written)))  # the folder given may hold anything
    return 0


def timeline(args: argparse.Namespace) -> int:
    from ..model.fold.path_fold import path_rows
    from ..model.text.csv_cells import timeline_csv
    from ..model.tokens.timeline import timeline_json

    session = _load(args.file)
    leaf = args.leaf if args.leaf is not None else session.leaf_id
    check_known(session, [leaf])
    rows = path_rows(session, leaf) if leaf is not None else []
    write(timeline_json(rows) + b"\n" if args.format == "json" else text(timeline_csv(rows)))
    return 0


def graph(args: argparse.Namespace) -> int:
    from ..model.graph import session_graph
    from .graph_command import write_graph

    write_graph(session_graph(_load(args.file)), args.format, sys.stdout.buffer)
    return 0


def upgrade(args: argparse.Namespace) -> int:
    from ..model.text.terminal_text import visible_line
    from ..model.writing.upgrade import upgrade as upgrade_file

    done = upgrade_file(args.file)
    print(f"{visible_line(str(done.path))}: upgraded to pi's current format; the original is kept as {visible_line(str(done.backup))}")
    return 0


def _load(path: Path) -> Session:
    """The whole session, its problems said on stderr."""
    from ..model.session.session import Session
    from ..model.text.terminal_text import visible_line

    session = Session.load(path, lazy=False)
    for problem in session.problems:
        print(visible_line(str(problem)), file=sys.stderr)
    return session


def _load_skimmed(path: Path) -> Session:
    """_load's session, its entries left unparsed when nothing in the file is to be reported:
    a pass over every entry (the tree's titles) then parses each for one use and holds a
    fraction of the file, not all of it parsed. Any other file is loaded whole as _load loads
    it, so what is said and shown is the same."""
    from ..model.session.session import Session

    session = Session.load(path)
    if not session.problems and session.validate() == ([], []):
        return session
    return _load(path)


def _print_contexts(session: Session | PathIndex, args: argparse.Namespace) -> int:
    # --all: every entry in file order, a duplicate id once per line as pi's getEntries() lists it.
    leaves = (
        [entry.id for entry in session.file_order] if args.all and not isinstance(session, PathIndex) else (args.leaf or [session.leaf_id])
    )
    check_known(session, leaves)
    context_of = _context_reader(session)
    for leaf in leaves:
        found = context_of(leaf)
        if args.format == "json":
            write(dump_json({"leaf": leaf, **found.to_pi()}) + b"\n")
        else:
            from ..model.text.transcript import render

            write(text(render(found, markdown=args.format == "markdown") + "\n"))
    return 0


def _context_reader(session: Session | PathIndex) -> Callable[[str | None], Context]:
    """How contexts are read: along the one path of an index, or from the fold of a session."""
    if isinstance(session, PathIndex):

        def along(leaf: str | None) -> Context:
            if not leaf or leaf not in session:
                return resolve(session, leaf)  # pi's default leaf, or the error it gives
            path = session.path_entries(leaf)
            return context_of_path(leaf, path, path.kind_codes())

        return along
    from ..model.fold.path_fold import PathFold

    return PathFold(session).context
