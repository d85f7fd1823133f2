"""Every node's answers in one session, from one fold along its spine.

The spine is the default leaf's path (pi's leaf: the last entry of the file), usually
most of a long session. Its structure is read off the entries' types when first asked;
its content is folded once (`fold_spine`, in the background after a load) into its
columns (spine.py). A node on the spine is answered from its depth there. A node off it
lies on a branch, which folds from where it leaves the spine: the branch is kept (a few
thousand entries of branches at most) so the next node on it folds from its end, or
is found on it.

Until the spine is folded, a node's context is answered (it needs the structure alone)
but its figures are not (`figures` answers None): views say they are being worked out.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..context.provenance import PathProvenance, Provenance, path_provenance
from ..context.resolve import Context, ProjectedEntry, edits_by_target, empty_context, path_leaf, project, resolve
from ..js.map_key import key_truthy
from ..session.entry import Entry, entry_id
from ..session.sequences import paths_shared
from ..session.session import Session
from ..tokens.context_estimate import ContextEstimate, projected_context_tokens
from ..tokens.message_tokens import Tokens, estimate_tokens
from ..tokens.stats import ContextStats
from ..tokens.timeline import TimelineRow
from ..tokens.usage import UsageTotals
from .spine import ODD_OWN, Spine


@dataclass(frozen=True, slots=True)
class Figures:
    """What the fold says of one node: pi's estimate, and the usage recorded on its path."""

    estimate: ContextEstimate
    usage: UsageTotals


class PathFold:
    """pi's answers for the nodes of one session (Qt-free; the Workspace owns one per session)."""

    BRANCH_BUDGET = 200_000  # entries the kept branches may hold together

    def __init__(self, session: Session) -> None:
        self.session = session
        self._spine: Spine | None = None
        self._branches: OrderedDict[Spine, None] = OrderedDict()  # least recently used first
        self._branch_of: dict[str, Spine] = {}
        self._weight = 0
        self._folding = threading.Lock()  # one fold of the spine at a time (the background's, or an append's)
        self._making = threading.Lock()  # the spine is made once, whichever thread asks first
        self._last: tuple[Spine, int, Context] | None = None  # the last context built: the next step builds on it
        self._edits: tuple[Context, dict[Any, Entry]] | None = None  # the edits among a context's entries: a step down keeps them
        self._last_provenance: tuple[Spine, int, PathProvenance] | None = None  # a step up cuts it

    @property
    def spine(self) -> Spine:
        """The default leaf's path: made when first asked (by the window's first question, or the fold)."""
        made = self._spine
        if made is not None:
            return made  # made once and never replaced: asked for every node of a walk, without the lock
        with self._making:
            if self._spine is None:
                leaf = self.session.leaf_id
                spine = Spine(self.session.path_entries(leaf) if leaf is not None else [])
                spine.keep_states_at(self.session.branch_points())  # where branches fold from
                self._spine = spine
        return self._spine

    # ---- the spine's fold ---------------------------------------------------------------

    def fold_spine(self, stop: Callable[[], bool] = lambda: False, pace: Callable[[], None] = lambda: None) -> bool:
        """Fold the spine's content (for the thread pool, after a load); False when stopped first."""
        spine = self.spine
        with self._folding:
            return spine.fold(stop=stop, pace=pace)

    def appended(self, entries: list[Entry]) -> None:
        """Entries linked into the session: those under the spine's tip extend it (folded at once
        unless the background fold is still at work: it folds them too)."""
        spine = self._spine
        if spine is None:
            return
        tip = spine.entries[-1].id if spine.entries else None
        run = []
        for entry in entries:
            if entry.parent_id == tip and self.session.path_parent(entry.id) == tip:
                run.append(entry)
                tip = entry.id
        if not run:
            return
        spine.extend(run)
        if spine.folded == spine.start + len(spine.entries) - len(run) and self._folding.acquire(blocking=False):
            try:
                spine.fold()
            finally:
                self._folding.release()

    # ---- where a node is ----------------------------------------------------------------

    def locate(self, key: str) -> tuple[Spine, int]:
        """The spine (the main one, or a branch) `key` lies on, and its depth there."""
        spine = self.spine
        depth = spine.places.get(key)
        if depth is not None:
            return spine, depth
        branch = self._branch_of.get(key)
        if branch is not None:
            self._branches.move_to_end(branch)
            return branch, branch.places[key]
        return self._branch_to(key)

    def _branch_to(self, key: str) -> tuple[Spine, int]:
        """Walk up from `key` to a spine, and hang the entries walked under it."""
        session, spine = self.session, self.spine
        chain: list[str] = []
        node: str | None = key
        base, at = None, -1
        while node is not None:
            at = spine.places.get(node, -1)
            if at >= 0:
                base = spine
                break
            branch = self._branch_of.get(node)
            if branch is not None:
                base, at = branch, branch.places[node]
                break
            chain.append(node)
            node = session.path_parent(node)  # up the path pi walks, not the tree (they part at a falsy parentId)
        entries = [session.entries[node] for node in reversed(chain)]
        if base is not None and base is not spine and at == base.end - 1:
            base.extend(entries)  # one step further down a branch kept before
            self._keep(base, entries)
            return base, base.end - 1
        branch = Spine(entries, base, at + 1)
        self._keep(branch, entries)
        return branch, branch.end - 1

    def _keep(self, branch: Spine, entries: list[Entry]) -> None:
        self._branches[branch] = None
        self._branches.move_to_end(branch)
        self._branch_of.update((entry.id, branch) for entry in entries)
        self._weight += len(entries)
        while self._weight > self.BRANCH_BUDGET and len(self._branches) > 1:
            dropped, _ = self._branches.popitem(last=False)
            self._weight -= len(dropped.entries)
            for entry in dropped.entries:
                if self._branch_of.get(entry.id) is dropped:
                    del self._branch_of[entry.id]

    # ---- answers ---------------------------------------------------------------------------

    def context(self, key: str | None) -> Context:
        """The context pi resolves at `key` (resolve.resolve's answer)."""
        session = self.session
        if key is None:
            return empty_context()
        if not key or key not in session.entries or not session.plain_keys:
            # pi's default leaf, an error as resolve gives it, or a session whose paths stop at
            # a parentId "" or 0 or follow ids that are not strings (path_to knows those rules;
            # the walk up here does not).
            return resolve(session, key)
        spine, depth = self.locate(key)
        last = self._last
        context = self._from_near(spine, depth, key, *last[1:]) if last is not None and last[0] is spine and last[1] != depth else None
        if context is None:
            context = spine.context(key, depth)
        self._last = (spine, depth, context)
        return context

    def _from_near(self, spine: Spine, depth: int, key: str, near: int, known: Context) -> Context | None:
        """The context at `depth` from the one at `near` on the same path, when no compaction or
        edit lies between: the entries after the last of those come last in the context, one
        projected entry each, in path order (resolve.context_entries). A step ↑ or ↓ then costs
        one entry, not the context."""
        low, high = min(depth, near), max(depth, near)
        if spine.barrier_after(low, high):
            return None
        settings = spine.settings(depth)
        if depth < near:
            kept = known.entries[: len(known.entries) - (near - depth)]
            count = len(known.messages) - sum(len(item.messages) for item in known.entries[len(kept) :])
            return Context(key, spine.path_view(depth), known.compaction, kept, known.messages[:count], *settings)
        tail = [spine.entry(at) for at in range(near + 1, depth + 1)]
        # No edit lies between (see above), so the edits in force stay those of the known context:
        # found once, not per step (a walk over every node would find them 100,000 times).
        edits = self.edits_in(known)
        start = len(known.entries)
        added = [project(entry, start + offset, edits.get(entry.id)) for offset, entry in enumerate(tail)]
        messages = known.messages + [message for item in added for message in item.messages]
        context = Context(key, spine.path_view(depth), known.compaction, known.entries + added, messages, *settings)
        self._edits = (context, edits)
        return context

    def edits_in(self, context: Context) -> dict[Any, Entry]:
        """The edits in force in `context` (the latest per target among its entries): what a step
        down from it applies to the entries it adds (found once per context, not per step)."""
        cached = self._edits
        if cached is not None and cached[0] is context:
            return cached[1]
        edits = edits_by_target([item.entry for item in context.entries])
        self._edits = (context, edits)
        return edits

    def own_part(self, key: str, edits: Mapping[Any, Entry]) -> ProjectedEntry | None:
        """What the context at `key` adds to its parent's, when `key`'s entry is neither a compaction
        nor a context edit: the parent's context whole, then this entry projected as its newest, with
        `edits` (the parent context's, edits_in) in force (_from_near's step of one entry down). None
        when the entry is one of those, or the session's keys are not plain: ask `context`. A walk
        over every node then builds no context for the nodes of a chain (see model/share/contexts)."""
        session = self.session
        if not session.plain_keys or key not in session.entries:
            return None
        spine, depth = self.locate(key)
        if spine.barrier_after(depth - 1, depth):
            return None
        entry = spine.entry(depth)
        # Its place in the context only matters to a compaction (project), which this is not.
        return project(entry, depth, edits.get(entry.id))

    def settings(self, key: str) -> tuple[Any, Any]:
        """thinkingLevel and model in force at `key` (own_part's nodes: their context's settings)."""
        spine, depth = self.locate(key)
        return spine.settings(depth)

    def provenance(self, key: str | None, context: Context) -> Mapping[str, Provenance]:
        """path_provenance of `context` (the context at `key`), its summarized prefix found by position."""
        session = self.session
        if not key or key not in session.entries or not session.plain_keys:
            return path_provenance(context)
        spine, depth = self.locate(key)
        last = self._last_provenance
        if last is not None and last[0] is spine and depth < last[1] and not spine.barrier_after(depth, last[1]):
            cut = last[2].cut(context.path, depth)  # a step up the path: the same parts, fewer entries
            if cut is not None:
                return cut
        found = path_provenance(context, spine.position)
        if isinstance(found, PathProvenance):
            self._last_provenance = (spine, depth, found)
        return found

    def same_parts(self, before: str | None, after: str | None) -> bool:
        """The entries the two nodes' paths share (from the root to where they fork) play the same
        part in both contexts: no compaction or edit lies on either path below the fork (see
        _from_near). On one path, that is none between the two nodes."""
        entries = self.session.entries
        if not before or not after or before not in entries or after not in entries or not self.session.plain_keys:
            return False
        spine, depth = self.locate(before)
        other, other_depth = self.locate(after)
        if spine is other:
            return not spine.barrier_after(min(depth, other_depth), max(depth, other_depth))
        fork = paths_shared(min(depth, other_depth) + 1, lambda at: spine.entry(at) is other.entry(at)) - 1  # the last shared depth
        return not spine.barrier_after(fork, depth) and not other.barrier_after(fork, other_depth)

    def path(self, key: str) -> list[Entry]:
        spine, depth = self.locate(key)
        return spine.path(depth)

    def _answering(self, key: str) -> str:
        """The entry whose path answers for `key`: itself, or for an entry without an id (or with an
        empty one, or 0) pi's default leaf, the last entry of the file (resolve.path_leaf)."""
        leaf = path_leaf(self.session, key)
        return leaf if leaf is not None else key

    def figures(self, key: str) -> Figures | None:
        """pi's estimate and the usage at `key`; None until the spine is folded."""
        spine, depth = self.locate(self._answering(key))
        if not self._fold_to(spine, depth):
            return None
        return Figures(self._estimate(key, spine, depth), spine.usage(depth))

    def _estimate(self, key: str, spine: Spine, depth: int) -> ContextEstimate:
        """pi's estimate at `key`, at `depth` of `spine`. For a key that is not truthy pi projects its
        default leaf's path but finds no usage (getBranch() is empty): the fold's figure, which counts
        the usage on that path, is not pi's answer there."""
        if key_truthy(key):
            return spine.estimate(depth)
        return projected_context_tokens(self.context(key))

    def _fold_to(self, spine: Spine, depth: int) -> bool:
        """Fold a branch up to `depth` when what it hangs under is folded; whether `depth` is."""
        if spine.ready(depth):
            return True
        if spine is self._spine or (spine.base is not None and not spine.base.ready(spine.start - 1)):
            return False
        if spine.base is not None and spine.base is not self._spine and not self._fold_to(spine.base, spine.start - 1):
            return False
        spine.fold(until=depth)
        return True

    def stats(self, key: str, context: Context, tokens: list[Tokens] | None = None) -> ContextStats:
        """The context header's figures at `key` (`context`: its context; `tokens`: each message's
        estimate_tokens, when they are at hand). Before the spine is folded, pi's estimate is worked
        out from the context and the usage is not known (None)."""
        figures = self.figures(key) if context.path and key in self.session.entries and "" not in self.session.entries else None
        if figures is None:
            tokens = list(map(estimate_tokens, context.messages)) if tokens is None else tokens
            return ContextStats(len(context.messages), sum(tokens), projected_context_tokens(context, tokens), None, tokens)
        tokens = self._message_tokens(self._answering(key), context)
        return ContextStats(len(context.messages), sum(tokens), figures.estimate, figures.usage, tokens)

    def _message_tokens(self, key: str, context: Context) -> list[Tokens]:
        """Each message's chars/4: an unedited entry's from the fold, the rest worked out. The entries
        after the compaction (most of a context) are the last of the context, one per depth."""
        spine, depth = self.locate(key)
        entries = context.entries
        after = depth - spine.compaction_at(depth) if context.compaction is not None else depth + 1
        head, tail = entries[: len(entries) - after], entries[len(entries) - after :]
        tokens: list[Tokens] = []
        for projected in head:
            tokens.extend(self._own_tokens(spine, projected))
        edited = any(projected.edit is not None for projected in tail)
        own = [] if edited else spine.column_range("own_tokens", depth - after + 1, depth + 1)
        if edited or ODD_OWN in own:
            for projected in tail:
                tokens.extend(self._own_tokens(spine, projected))
        else:
            tokens += [cost for cost in own if cost >= 0]
        return tokens

    @staticmethod
    def _own_tokens(spine: Spine, projected: ProjectedEntry) -> list[Tokens]:
        messages = projected.messages
        if projected.edit is None and len(messages) == 1:
            own = spine.own_tokens(spine.position(projected.entry.id, spine.end))
            if own >= 0:
                return [own]
        return list(map(estimate_tokens, messages))

    def row(self, key: str) -> TimelineRow | None:
        """The timeline's row of `key`: pi's estimate were it the leaf; None until folded."""
        spine, depth = self.locate(self._answering(key))
        if not self._fold_to(spine, depth):
            return None
        row = spine.row(depth)
        return row if key_truthy(key) else replace(row, tokens_estimate=self._estimate(key, spine, depth).tokens)

    def rows(self, key: str) -> list[TimelineRow] | None:
        """One row per entry from the root to `key`; None until folded."""
        spine, depth = self.locate(self._answering(key))
        if not self._fold_to(spine, depth):
            return None
        return [_spine_at(spine, at).row(at) for at in range(depth + 1)]

    def along(self, key: str, end: str | None = None) -> Along | None:
        """The figures the timeline draws for `key`: the path from the root to the tip of the spine
        it lies on (or to `end`, `key` itself or an entry below it), and `key`'s depth on it; None
        until folded."""
        spine, depth = self.locate(end if end is not None else key)
        tip = depth if end is not None else spine.end - 1
        if not self._fold_to(spine, tip):
            return None
        return Along(spine, tip, spine.position(key, tip + 1))


@dataclass(frozen=True, slots=True)
class Along:
    """A path's figures as the timeline draws them, root to `tip` (depths), and the depth of the node shown."""

    spine: Spine
    tip: int
    cursor: int

    def keys(self) -> list[str]:
        return list(map(entry_id, self.spine.path(self.tip)))  # in C: a path runs to a million entries

    def estimates(self) -> list[float]:
        """pi's estimate at every depth, as numbers to draw (row() gives the exact figures)."""
        return self.spine.column("tokens", self.tip)

    def inputs(self) -> list[tuple[int, float]]:
        """(depth, input tokens) where a reply recorded them."""
        return self.spine.recorded_column("inputs", "input", self.tip)

    def compactions(self) -> list[int]:
        return self.spine.structure_column("compactions", self.tip)

    def row(self, depth: int) -> TimelineRow:
        return self.spine.row(depth)

    def composition(self, depth: int) -> list[int]:
        """What the context at `depth` is made of: characters by group (composition.GROUPS)."""
        return self.spine.composition(depth)

    def rows(self) -> list[TimelineRow]:
        return [self.spine.row(depth) for depth in range(self.tip + 1)]

    def depth_of(self, key: str) -> int | None:
        at = self.spine.position(key, self.tip + 1)
        return at if at <= self.tip else None

    def model(self) -> Any:
        """The model in force at the tip, as pi holds it (any JSON value)."""
        return self.spine.settings(self.tip)[1]


def _spine_at(spine: Spine, depth: int) -> Spine:
    while depth < spine.start:
        spine = spine.under
    return spine


def path_rows(session: Session, leaf: str) -> list[TimelineRow]:
    """The timeline's rows from the root to `leaf`, folded along that path alone (the command line)."""
    spine = Spine(session.path_entries(leaf))
    spine.fold()
    return [spine.row(depth) for depth in range(spine.end)]
