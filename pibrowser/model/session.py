"""An open session: the entry index, the tree as a networkx DiGraph, labels, name, leaf."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import networkx as nx

from .entry import Entry
from .jsdate import js_time
from .jssort import sort_by_js_time
from .jsvalue import MISSING, js_trim, js_truthy
from .migration import migrate, needs_migration
from .problems import Problem
from .reader import ProgressCallback, RawSession, entry_from_record, read_session


class Session:
    """Everything pibrowser knows about one session file, without Qt.

    `graph` has an edge parent → child for every entry whose parent exists;
    successors come in pi's child order (timestamp, then file order). Entries on
    a parentId cycle are unreachable in pi's tree; we cut each cycle at its
    first entry in file order (`cycle_roots`) so the graph stays a forest.
    """

    def __init__(self, raw: RawSession) -> None:
        self.path = raw.path
        self.header = raw.header
        self.size = raw.size
        self.problems: list[Problem] = list(raw.problems)
        self.entries: dict[str, Entry] = {}
        self.file_order: list[Entry] = []
        self._index(raw)
        self.leaf_id: str | None = self.file_order[-1].id if self.file_order else None
        self.labels = self._read_labels()
        self.name = self._read_name()
        self.roots: list[str] = []
        self.cycle_roots: list[str] = []
        self.graph = self._build_graph()

    @classmethod
    def load(cls, path: str | Path, *, lazy: bool = True, progress: ProgressCallback | None = None) -> Session:
        return cls(read_session(Path(path), lazy=lazy, progress=progress))

    # ---- building -------------------------------------------------------

    def _index(self, raw: RawSession) -> None:
        if needs_migration(raw.header):
            migrate(raw.header, [record[2] for record in raw.records])
        for record in raw.records:
            entry = entry_from_record(self.path, record, self.problems)
            if entry is None:
                continue
            if entry.type == "session":
                self.problems.append(Problem(self.path, entry.line, "skipped: a second session header"))
                continue
            earlier = self.entries.get(entry.id)
            if earlier is not None:
                self.problems.append(
                    Problem(self.path, entry.line, f"duplicate id {entry.id!r} replaces the entry on line {earlier.line}")
                )
            # Like pi's Map: a later duplicate keeps the first one's place in the order.
            self.entries[entry.id] = entry
            self.file_order.append(entry)

    def _read_labels(self) -> dict[str, Any]:
        labels: dict[str, Any] = {}
        for entry in self.file_order:
            if entry.type != "label":
                continue
            target, label = entry.get("targetId"), entry.get("label")
            if not isinstance(target, str):
                self.problems.append(Problem(self.path, entry.line, "label entry without a string targetId"))
                continue
            if target not in self.entries:
                self.problems.append(Problem(self.path, entry.line, f"label for {target!r}, which names no entry"))
            if js_truthy(label):
                labels[target] = label
            else:
                labels.pop(target, None)
        return labels

    def _read_name(self) -> str | None:
        for entry in reversed(self.file_order):
            if entry.type == "session_info":
                name = entry.get("name")
                return (js_trim(name) or None) if isinstance(name, str) else None
        return None

    def _build_graph(self) -> nx.DiGraph:
        children: dict[str, list[str]] = {}
        for key, entry in self.entries.items():
            parent = entry.parent_id
            if parent is None or parent is MISSING or parent == key or parent not in self.entries:
                self._note_root(entry, parent)
                self.roots.append(key)
            else:
                children.setdefault(parent, []).append(key)
        self._cut_cycles(children)
        for parent, kids in children.items():
            if len(kids) > 1:
                children[parent] = sort_by_js_time(kids, lambda key: js_time(self.entries[key].timestamp))
        graph = nx.DiGraph()
        graph.add_nodes_from(self.entries)
        graph.add_edges_from((parent, kid) for parent, kids in children.items() for kid in kids)
        return graph

    def _note_root(self, entry: Entry, parent: Any) -> None:
        if parent == entry.id:
            self.problems.append(Problem(self.path, entry.line, f"entry {entry.id!r} is its own parent; shown as a root"))
        elif parent is not None and parent is not MISSING:
            self.problems.append(
                Problem(self.path, entry.line, f"parent {parent!r} of {entry.id!r} names no entry; shown as a root")
            )

    def _cut_cycles(self, children: dict[str, list[str]]) -> None:
        reached = self._reach(self.roots, children, set())
        for key in self.entries:
            if key in reached:
                continue
            cycle = self._cycle_from(key)
            cut = min(cycle, key=lambda member: self.entries[member].line)
            children[self.entries[cut].parent_id].remove(cut)
            self.cycle_roots.append(cut)
            chain = " → ".join(cycle + [cycle[0]])
            self.problems.append(
                Problem(self.path, self.entries[cut].line, f"parentId cycle {chain} (each names the next as parent); cut at {cut!r}, shown as a root")
            )
            self._reach([cut], children, reached)

    def _cycle_from(self, key: str) -> list[str]:
        seen: dict[str, int] = {}
        walk: list[str] = []
        while key not in seen:
            seen[key] = len(walk)
            walk.append(key)
            key = self.entries[key].parent_id
        return walk[seen[key]:]

    @staticmethod
    def _reach(starts: list[str], children: dict[str, list[str]], reached: set[str]) -> set[str]:
        stack = list(starts)
        while stack:
            key = stack.pop()
            reached.add(key)
            stack.extend(children.get(key, ()))
        return reached

    # ---- reading ----------------------------------------------------------

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, key: object) -> bool:
        return key in self.entries

    def entry(self, key: str) -> Entry:
        return self.entries[key]

    def parent(self, key: str) -> str | None:
        return next(iter(self.graph.pred[key]), None)

    def children(self, key: str) -> list[str]:
        return list(self.graph.succ[key])

    def display_roots(self) -> list[str]:
        """pi's roots, then the entries where a parentId cycle was cut."""
        return self.roots + self.cycle_roots

    def leaves(self) -> list[str]:
        return [key for key in self.entries if not self.graph.succ[key]]

    def path_to(self, key: str) -> list[str]:
        """Entry ids from the root down to `key` (pi's buildSessionPath)."""
        pred = self.graph.pred
        path = [key]
        while pred[key]:
            key = next(iter(pred[key]))
            path.append(key)
        path.reverse()
        return path

    def walk(self) -> Iterator[tuple[str, int]]:
        """Every entry reachable in the displayed forest, depth first in child order, with depth."""
        succ = self.graph.succ
        stack = [(root, 0) for root in reversed(self.display_roots())]
        while stack:
            key, depth = stack.pop()
            yield key, depth
            stack.extend((kid, depth + 1) for kid in reversed(list(succ[key])))
