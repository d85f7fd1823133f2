"""An open session: the entry index, the tree (parent and children of each entry), labels, name, leaf.

(Over 400 lines as one file: Session is the one object every reader of a session asks; its
tree walks, appends and lookups share the same few indexes and keep them consistent.)
"""

from __future__ import annotations

from bisect import bisect_left
from pathlib import Path
from typing import Any, cast
from collections.abc import Callable, Iterator, Mapping, Sequence, Set as AbstractSet

from .entry import Entry
from .gcpause import gc_paused
from ..js.date import js_time
from ..js.map_key import JsKey, js_key, key_truthy
from ..js.value import MISSING
from .migration import has_no_ids, migrate, needs_migration
from .pi_tree import children_in_pi_order, label_change, labels_json, session_name
from .problems import NeedsReload, Problem
from .reader import FINGERPRINT_SIZE, ProgressCallback, RawSession, entry_from_data, read_session


class Session:
    """Everything pibrowser knows about one session file, without Qt.

    The tree links every entry whose parent exists to it; each entry's children
    are kept as a list in pi's child order (timestamp, then file order), read
    with `children`. Entries on a parentId cycle are unreachable in pi's tree;
    we cut each cycle at its first entry in file order (`cycle_roots`) so the
    tree stays a forest.

    The same forest as a networkx DiGraph, with what each entry is, comes from
    model/graph.py, for notebooks and graph files; the window's questions of the
    tree (paths, a common ancestor) are walks here, never a graph built on a click.
    """

    def __init__(self, raw: RawSession) -> None:
        self.path = raw.path
        self.header = raw.header
        self.size = raw.size
        self.problems: list[Problem] = list(raw.problems)
        self.consumed = raw.consumed
        self.next_line = raw.next_line
        self.fingerprint = raw.fingerprint
        self.digest = raw.digest  # of every byte read: see reader.read_digest
        self.identity = raw.identity
        self.entries: dict[str, Entry] = {}
        self.file_order: list[Entry] = []
        # The file's format when older than pi's current one (1 or 2): migrated in memory only.
        self.migrated_from: int | None = None
        # Some id is not a string (JsKey) or is "": parents are then looked up and paths walked as pi's
        # Map and its truthiness test do, which the quick walks below leave out.
        self._odd_keys = False
        self._index(raw)
        self.leaf_id: str | None = self.file_order[-1].id if self.file_order else None
        self.labels = self._read_labels()
        self.name = self._read_name()
        self.roots: list[str] = []
        self.cycle_roots: list[str] = []
        # Only entries with children have a list. A linked entry's parent is its parentId
        # (the parent's own string); no map of them is kept (tens of MB for a million
        # entries): the roots whose parentId is still a string are the exceptions.
        self._children: dict[str, list[str]] = {}
        self._unlinked: set[str] = set()
        # Parent → whether a child's time does not parse in JS (then its children's order is
        # V8's sort, replayed); learned on a parent's first append, so loading pays nothing.
        self._untimed_children: dict[str, bool] = {}
        # The entries with more than one child, found on the first question and kept up as entries
        # are appended: the strip and the fold ask at every selection, and a walk of every entry's
        # children cost a 100,000-entry session tens of milliseconds each time.
        self._branch_points: set[str] | None = None
        self._link_tree()

    @classmethod
    def load(cls, path: str | Path, *, lazy: bool = True, progress: ProgressCallback | None = None) -> Session:
        with gc_paused():
            return cls(read_session(Path(path), lazy=lazy, progress=progress))

    # ---- building -------------------------------------------------------

    def _index(self, raw: RawSession) -> None:
        if needs_migration(raw.header):
            self.migrated_from = 1 if has_no_ids(raw.header) else 2
            migrate(raw.header, cast("list[tuple[int, Any]]", raw.records))  # an old file is read whole: every record is (line, object)
        for record in raw.records:
            if isinstance(record, Entry):
                entry = record  # a line in pi's layout: its id is a string that is not empty
            else:
                entry = entry_from_data(self.path, *record, self.problems)
                self._odd_keys = self._odd_keys or not key_truthy(entry.id) or entry.id.__class__ is JsKey
            if entry.type == "session":
                self.problems.append(Problem(self.path, entry.line, "skipped: a second session header"))
                continue
            earlier = self.entries.get(entry.id)
            if earlier is not None:
                self.problems.append(
                    Problem(self.path, entry.line, f"duplicate id {_shown(entry.id)} replaces the entry on line {earlier.line}")
                )
            # Like pi's Map: a later duplicate keeps the first one's place in the order.
            self.entries[entry.id] = entry
            self.file_order.append(entry)

    def _read_labels(self) -> dict[str, Any]:
        self.labels = {}
        # pi's label map in its order, keyed like a JS Map: a targetId that is not
        # a string is a key of its own, which no entry's id ever matches.
        self.label_map: dict[Any, Any] = {}
        # The timestamp of the label entry that set each label (pi copies it when branching).
        self.label_times: dict[Any, Any] = {}
        for entry in self.file_order:
            if entry.type == "label":
                self._apply_label(entry)
        return self.labels

    def _apply_label(self, entry: Entry) -> None:
        key, label = label_change(entry)
        if key not in self.entries:
            self.problems.append(Problem(self.path, entry.line, f"label for {_shown(key)}, which names no entry"))
        if label is not None:
            self.label_map[key] = label
            self.label_times[key] = entry.timestamp
            self.labels[key] = label
        else:
            self.label_map.pop(key, None)
            self.label_times.pop(key, None)
            self.labels.pop(key, None)

    def labels_json(self) -> dict[str, Any]:
        """Each entry's label in file order, keyed as JSON keys it (pi_tree.labels_json). Every line
        counts, as in pi's getEntries: where an id repeats after another that reads the same (123 after
        "123"), the later line's label is the one its key keeps."""
        label_map = self.label_map
        if not label_map:
            return {}
        lines = (entry.id for entry in self.file_order) if self.repeats_ids else self.entries
        return labels_json((key, label_map[key]) for key in lines if key in label_map)

    def _read_name(self) -> str | None:
        for entry in reversed(self.file_order):
            if entry.type == "session_info":
                return session_name(entry)
        return None

    def _link_tree(self) -> None:
        children = self._children
        entries = self.entries
        # pi writes a parent before its children. Along a chain of parents on earlier lines
        # no cycle can close, so the full check is needed only when some parent's line comes
        # later (a duplicate id's entry has the later line; no set of the entries seen so far,
        # 30 MB on a million, is needed to tell).
        parent_after_child = False
        owner_of = self._owner
        for key, entry in entries.items():
            parent = entry.parent_id
            owner = entries.get(parent) if parent.__class__ is str else owner_of(parent)
            if owner is None or owner.id == key:
                self._note_root(entry, parent)
                self.roots.append(key)
                continue
            # The parent's own id string, not a copy read from each child's line: a million
            # children of one entry would hold its id a million times.
            entry.parent_id = parent = owner.id
            parent_after_child = parent_after_child or owner.line > entry.line
            if parent in children:
                children[parent].append(key)
            else:
                children[parent] = [key]
        if parent_after_child:
            self._cut_cycles(children)
        for parent, kids in children.items():
            if len(kids) > 1:
                children[parent] = children_in_pi_order(kids, lambda key: entries[key].timestamp)
        self._unlinked.update(key for key in self.display_roots() if isinstance(entries[key].parent_id, str))

    def _owner(self, parent: Any) -> Entry | None:
        """The entry pi's tree (getTree) hangs an entry with this parentId under, when it is not a
        string: null is a root; any other value is looked up as pi's Map keys it (a missing one as
        undefined, the key of an entry without an id; a linked entry's parentId, already its
        parent's key, as it is)."""
        if parent is None or not self._odd_keys:
            return None  # every id is a string: no other value finds one
        return self.entries.get(js_key(parent))

    def _note_root(self, entry: Entry, parent: Any) -> None:
        if parent is None or parent is MISSING:
            return
        key = js_key(parent)
        if key == entry.id:
            self.problems.append(Problem(self.path, entry.line, f"entry {_shown(entry.id)} is its own parent; shown as a root"))
        else:
            self.problems.append(
                Problem(self.path, entry.line, f"parent {_shown(key)} of {_shown(entry.id)} names no entry; shown as a root")
            )

    def _cut_cycles(self, children: dict[str, list[str]]) -> None:
        reached = self._reach(self.roots, children, set())
        for key in self.entries:
            if key in reached:
                continue
            cycle = self._cycle_from(key)
            cut = min(cycle, key=lambda member: self.entries[member].line)
            siblings = children[self.entries[cut].parent_id]
            siblings.remove(cut)
            if not siblings:
                del children[self.entries[cut].parent_id]
            self.cycle_roots.append(cut)
            chain = " → ".join(cycle + [cycle[0]])
            self.problems.append(
                Problem(
                    self.path,
                    self.entries[cut].line,
                    f"parentId cycle {chain} (each names the next as parent); cut at {cut!r}, shown as a root",
                )
            )
            self._reach([cut], children, reached)

    def _cycle_from(self, key: str) -> list[str]:
        seen: dict[str, int] = {}
        walk: list[str] = []
        while key not in seen:
            seen[key] = len(walk)
            walk.append(key)
            key = self.entries[key].parent_id
        return walk[seen[key] :]

    @staticmethod
    def _reach(starts: list[str], children: dict[str, list[str]], reached: set[str]) -> set[str]:
        stack = list(starts)
        while stack:
            key = stack.pop()
            reached.add(key)
            stack.extend(children.get(key, ()))
        return reached

    def validate(self, progress: ProgressCallback | None = None, pace: Callable[[], None] | None = None) -> tuple[list[Problem], list[int]]:
        """Parse every line that loading only skimmed; report what pi skips or repairs.

        Returns the problems found and the lines that do not parse at all: pi
        leaves those out, so a session containing them must be loaded again
        strictly to match pi. Nothing is changed here (it may run in a thread;
        `pace` is called between lines there, see pacer.py).
        """
        found: list[Problem] = []
        invalid: list[int] = []
        total = len(self.file_order)
        for index, entry in enumerate(self.file_order):
            if progress is not None and not index & 4095:
                progress(index, total)
            if pace is not None and not index & 255:
                pace()
            try:
                note = entry.check()
            except ValueError as error:
                invalid.append(entry.line)
                found.append(Problem(self.path, entry.line, f"skipped: {error}"))
                continue
            if note:
                found.append(Problem(self.path, entry.line, note))
        return found, invalid

    def extend(self, entries: list[Entry], problems: list[Problem], *, read: bytes, next_line: int) -> None:
        """Link entries appended to the file (see follow.py), from the whole lines `read` after `consumed`;
        raises NeedsReload when they rewire the tree."""
        if self.file_order and self.file_order[-1].line >= self.next_line:
            raise NeedsReload("the last line had no newline and was read as an entry")
        # The keys roots name as parents without finding them (pi's tree looks a missing parentId up as undefined).
        missing_parents = {js_key(parent) for root in self.roots if (parent := self.entries[root].parent_id) is not None}
        new_ids = [entry.id for entry in entries]
        if len(set(new_ids)) != len(new_ids):
            raise NeedsReload("an appended id repeats")
        for entry in entries:
            if entry.type == "session" or entry.id in self.entries or entry.id in missing_parents:
                raise NeedsReload(f"line {entry.line} changes entries read before")
        later = set(new_ids)
        for entry in entries:
            later.discard(entry.id)
            if entry.parent_id is not None and js_key(entry.parent_id) in later:
                raise NeedsReload(f"line {entry.line} names a parent that comes after it")
        self.problems = [p for p in self.problems if p.line is None or p.line < self.next_line] + problems
        for entry in entries:
            self._link(entry)
        self.consumed, self.next_line = self.consumed + len(read), next_line
        self.fingerprint = (self.fingerprint + read)[-FINGERPRINT_SIZE:]
        self.digest.update(read)
        self.size = self.consumed

    def _link(self, entry: Entry) -> None:
        self._odd_keys = self._odd_keys or not key_truthy(entry.id) or entry.id.__class__ is JsKey
        self.entries[entry.id] = entry
        self.file_order.append(entry)
        self.leaf_id = entry.id
        parent = entry.parent_id
        owner = self.entries.get(parent) if parent.__class__ is str else self._owner(parent)
        if owner is None or owner.id == entry.id:
            self._note_root(entry, parent)
            self.roots.append(entry.id)
            if isinstance(parent, str):
                self._unlinked.add(entry.id)
        else:
            entry.parent_id = parent = owner.id
            self._insert_child(parent, entry)
        if entry.type == "label":
            self._apply_label(entry)
        elif entry.type == "session_info":
            self.name = self._read_name()

    def _insert_child(self, parent: str, entry: Entry) -> None:
        kids = self._children.setdefault(parent, [])
        time = js_time(entry.timestamp)
        untimed = self._untimed_children.get(parent)
        if untimed is None:
            untimed = any(js_time(self.entries[kid].timestamp) is None for kid in kids)
        self._untimed_children[parent] = untimed = untimed or time is None
        if untimed:
            # An unparseable time makes V8's comparisons inconsistent: replay its sort.
            in_file_order = sorted(kids, key=lambda key: self.entries[key].line) + [entry.id]
            kids[:] = children_in_pi_order(in_file_order, lambda key: self.entries[key].timestamp)
        else:
            # Stable by timestamp: after every sibling that is not later than it. pi appends
            # the newest entry, so this scan almost always stops at once, however many siblings.
            at = len(kids)
            # Here every sibling's time parses, the new entry's too (else `untimed`).
            while at > 0 and cast(int, js_time(self.entries[kids[at - 1]].timestamp)) > cast(int, time):
                at -= 1
            kids.insert(at, entry.id)
        if self._branch_points is not None and len(kids) == 2:
            self._branch_points.add(parent)

    def add_problems(self, problems: list[Problem]) -> None:
        self.problems = sorted([*self.problems, *problems], key=lambda problem: problem.line or 0)

    # ---- reading ----------------------------------------------------------

    @property
    def plain_keys(self) -> bool:
        """Every id is a string that is not empty: no parent is found but by a string, no path stops
        at a falsy parentId, and quicker walks than pi's own rules give the same answers."""
        return not self._odd_keys

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, key: object) -> bool:
        return key in self.entries

    def entry(self, key: str) -> Entry:
        return self.entries[key]

    def entry_at_line(self, line: int | None) -> Entry | None:
        """The entry read from line number `line` of the file; None when no entry was.

        Found by bisection (the entries are in file order), not through a map of every
        line: a million-entry session would pay tens of megabytes for one."""
        order = self.file_order
        at = bisect_left(order, line, key=_line_of) if line is not None else len(order)
        return order[at] if at < len(order) and order[at].line == line else None

    def parent(self, key: str) -> str | None:
        """The entry `key` hangs under in the tree; None for a root."""
        entry = self.entries.get(key)
        parent = entry.parent_id if entry is not None else None
        return parent if (parent.__class__ is str or parent.__class__ is JsKey) and key not in self._unlinked else None

    @property
    def repeats_ids(self) -> bool:
        """Some id is on more than one line (the later entry replaced the earlier in `entries`)."""
        return len(self.file_order) > len(self.entries)

    def tree_with_repeats(self) -> tuple[list[Any], dict[Any, list[Any]]]:
        """pi's getTree() where ids repeat: (roots, children). pi makes a node per entry but keys
        them by id, so the last entry of an id stands for it, once under each of its lines' parents
        (an exact copy of a line shows its subtree twice). The window shows each id once; this is
        for the tree as pi gives it. Where the repeats close a loop pi recurses until its stack
        runs out; here the edge that closes it is left out."""
        entries = self.entries
        roots: list[Any] = []
        kids: dict[Any, list[Any]] = {}
        for entry in self.file_order:
            key, parent = entry.id, entry.parent_id
            owner = entries.get(parent) if parent.__class__ is str else self._owner(parent)
            if owner is None or owner.id == key:
                roots.append(key)
            else:
                kids.setdefault(owner.id, []).append(key)
        _cut_loops(roots, kids)
        for parent, children in kids.items():
            kids[parent] = children_in_pi_order(children, lambda key: entries[key].timestamp)
        return roots, kids

    def children(self, key: str) -> Sequence[str]:
        """`key`'s children in pi's order. The session's own list: read it, do not change it."""
        return self._children.get(key, _NO_CHILDREN)

    @property
    def children_by_parent(self) -> Mapping[str, Sequence[str]]:
        """Every entry that has children → its children in pi's order, for walks over the
        whole tree (a method call per entry costs more than the walk). Read it, do not change it."""
        return self._children

    def display_roots(self) -> list[str]:
        """pi's roots, then the entries where a parentId cycle was cut."""
        return self.roots + self.cycle_roots

    def leaves(self) -> list[str]:
        children = self._children
        return [key for key in self.entries if key not in children]

    def newest_leaf_below(self, key: str) -> str:
        """The newest leaf under `key` (or `key`, a leaf): pi's children are in time order, the last is the newest."""
        children = self._children
        while key in children:
            key = children[key][-1]
        return key

    def leaf_count(self) -> int:
        """How many leaves, without listing them: every entry that is no entry's parent."""
        return len(self.entries) - len(self._children)

    def branch_points(self) -> AbstractSet[str]:
        """Entries with more than one child: where the conversation forks. The session's own set,
        kept up as entries are appended: read it, do not change it."""
        if self._branch_points is None:
            self._branch_points = {key for key, kids in self._children.items() if len(kids) > 1}
        return self._branch_points

    def path_to(self, key: str) -> list[str]:
        """Entry ids from the root down to `key` (pi's buildSessionPath).

        path_below's walk, written for ids alone: a third quicker than listing the
        entries and taking their ids, on paths 100,000 entries deep."""
        if self._odd_keys:
            return self._path_to_checking_parents(key)
        entries, unlinked = self.entries, self._unlinked
        path = [key]
        append = path.append
        entry = entries.get(key)
        if unlinked:
            while entry is not None:
                parent = entry.parent_id
                if parent.__class__ is not str or key in unlinked:
                    break
                append(parent)
                key, entry = parent, entries[parent]
        else:  # no root has a string parentId: every one on the way is linked (the usual file)
            while entry is not None and (parent := entry.parent_id).__class__ is str:
                append(parent)
                entry = entries[parent]
        path.reverse()
        return path

    def path_below(self, key: str, known: Mapping[str, int]) -> tuple[int, list[Entry]]:
        """Walk up from `key` (pi's buildSessionPath) to the first entry `known` holds: (its value,
        the entries walked below it, top first); (-1, the whole path) when none is on the way."""
        entries, unlinked = self.entries, self._unlinked
        if self._odd_keys:
            return -1, [entries[above] for above in self._path_to_checking_parents(key)]
        below: list[Entry] = []
        append = below.append
        entry = entries.get(key)
        while entry is not None:
            place = known.get(key)
            if place is not None:
                below.reverse()
                return place, below
            append(entry)
            parent = entry.parent_id
            if parent.__class__ is not str or (unlinked and key in unlinked):
                break
            key, entry = parent, entries[parent]
        below.reverse()
        return -1, below

    def path_entries(self, key: str) -> list[Entry]:
        """The entries from the root down to `key`."""
        if key not in self.entries:
            raise KeyError(key)
        return self.path_below(key, _NOTHING_KNOWN)[1]

    def path_parent(self, key: str) -> str | None:
        """The entry above `key` on its path (pi's getBranch walk); None at the top.

        pi's tree links a parentId "", 0, false or a missing one to the entry with that id (the
        last one without an id, for a missing one), but its path walk tests the parentId for
        truthiness and so stops there: `parent` is the tree's answer, this the path's."""
        above = self.parent(key)
        if above is None or not self._odd_keys or key_truthy(self.entries[key].parent_id):
            return above
        return None

    def _path_to_checking_parents(self, key: str) -> list[str]:
        path_parent = self.path_parent
        path = [key]
        while (above := path_parent(key)) is not None:
            key = above
            path.append(key)
        path.reverse()
        return path

    def common_ancestor(self, left: str, right: str) -> str | None:
        """The lowest entry both are descended from (or equal to) in the tree; None across separate roots.

        Two walks up the tree, as long as the two paths: what a compare waits for."""
        parent = self.parent
        above_left: set[str] = set()
        key: str | None = left
        while key is not None:
            above_left.add(key)
            key = parent(key)
        key = right
        while key is not None and key not in above_left:
            key = parent(key)
        return key

    def walk(self) -> Iterator[tuple[str, int]]:
        """Every entry reachable in the displayed forest, depth first in child order, with depth."""
        children = self._children
        stack = [(root, 0) for root in reversed(self.display_roots())]
        while stack:
            key, depth = stack.pop()
            yield key, depth
            kids = children.get(key)
            if kids:
                stack.extend((kid, depth + 1) for kid in reversed(kids))


_NO_CHILDREN: tuple[str, ...] = ()
_NOTHING_KNOWN: Mapping[str, int] = {}


def _line_of(entry: Entry) -> int:
    return entry.line


def _shown(key: str) -> str:
    """An id in a problem's words: a string quoted, another value as its JSON text; clipped."""
    text = repr(key) if key.__class__ is str else str(key)
    return text if len(text) <= 60 else text[:59] + "…"


def _cut_loops(roots: list[Any], kids: dict[Any, list[Any]]) -> None:
    """Leave out each edge to a node on the way down to it (walked without recursion)."""
    done: set[Any] = set()
    for root in roots:
        if root in done:
            continue
        on_way, stack = {root}, [(root, iter(list(kids.get(root, ()))))]
        while stack:
            node, rest = stack[-1]
            child = next(rest, _END)
            if child is _END:
                stack.pop()
                on_way.discard(node)
                done.add(node)
            elif child in on_way:
                kids[node].remove(child)
            elif child not in done:
                on_way.add(child)
                stack.append((child, iter(list(kids.get(child, ())))))


_END: Any = object()
