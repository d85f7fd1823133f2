"""The open session and what the user looks at in it: one owner, one way in for new lines.

A `Workspace` holds the session shown, the selected entry, the pair of leaves
being compared, and the answers worked out for them (contexts, provenance,
stats), remembered for one version of the session: every append or replacement
is a new version, and answers of older ones are dropped.

Every method that changes something returns a `Change`, a plain value saying
what changed: the session was replaced (and whether it is the file shown before),
entries were appended (every new id, in file order), the selection moved, the
comparison changed, more problems were found, or the file must be read again in
full (`reload`, with the reason), which the caller does wherever loading belongs
(the GUI: off its thread, then `replace`).

New lines reach the session one way only. `follow()` links what pi appended;
`append(write)` lets `write` catch up with pi and add its lines to the file (as
label_writer's LabelWrite does), then links what it wrote; a label is one such
write. Every entry that entered the session during the step, whoever linked it,
is named once in the Change, so nothing read is lost to a view. Whenever new
entries are read, by an append or by a full reload of the same file, a selection
that was on the old leaf follows the head of the conversation to the new one (a
label is no part of the conversation: labelling the selected leaf leaves it selected).

    replace(session)          -> Change   a session loaded from a file takes over
    follow(limit)             -> Change   appended ids, or reload when appending cannot describe it
    append(write)             -> (write's result, Change); raises WriteFailed(error, Change)
    label_write(key, label)   -> a LabelWrite, to pass to append attempt by attempt (see label_writer)
    select(key)               -> Change   empty when nothing moved or `key` is unknown
    set_compare(left, right)  -> Change   (None, None) stops comparing
    validated(session, problems, invalid) -> Change   a background check's findings
    report(session, reason)   -> Change   a background job that failed, listed as a problem of the session
    fold(session, pace)       -> bool     the figures along the session's spine worked out (thread pool) …
    folded(session)           -> Change   … and taken in, or given up: Change(figures=True)
    context(key), provenance(key), stats(key), composition(key), rows(key), comparison()   answers, cached per version
    answers_now(key)          -> bool     whether those answers about `key` may be asked on the owner's thread …
    work_out(key, version)    -> Answers  … else worked out (thread pool) …
    take(key, answers)        -> Change   … and taken in: Change(answered=True)

A node whose context spans hundreds of thousands of entries costs seconds to answer (a million
messages read back, projected and summed): in a session that long, what is not cached yet is
worked out with `work_out` in the thread pool, one node at a time (`_answering_lock`), while the
window says it is being worked out.

Every answer about a node comes from one fold of pi's rules along the session's path
(model/fold/): the Workspace owns it, and its caches of answers, all keyed by `version`.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast
from collections.abc import Callable, Mapping

from .compare.comparison import Comparison, compare
from .context.resolve import Context
from .fold.path_fold import PathFold
from .session.follow import read_appended
from .writing.label_writer import PATIENCE, FileChanged, LabelWrite, Patience
from .session.problems import NeedsReload, Problem, SessionLoadError
from .context.provenance import Provenance
from .session.session import Session
from .tokens.composition import Composition, CompositionMemo, composition_and_tokens
from .tokens.stats import ContextStats
from .tokens.timeline import TimelineRow

# Appends up to this size are read in place (pi appends a few KB at a time); more is read in full.
APPEND_IN_PLACE_LIMIT = 4 * 1024 * 1024
CACHE_LIMIT = 64  # answers kept per kind; a walk down a long path would otherwise keep them all
# Path entries the kept contexts and provenances may span together: on a path 90,000 entries
# deep, each holds its path (a list) and the provenance a map of it, some 5 MB.
PATH_BUDGET = 600_000
# Entries of a session past which an answer not cached is worked out in the thread pool: a path
# can then be long enough (a million entries, no compaction) to take half a minute to answer.
LONG_SESSION = 200_000

T = TypeVar("T")


@dataclass(frozen=True)
class Change:
    """What one step changed. An empty Change (false) means nothing did."""

    replaced: bool = False  # another session object is in place: everything shown must be read again
    same_file: bool = False  # ... and it is the file shown before (a reload): keep folds, zoom and scroll
    appended: tuple[str, ...] = ()  # entries linked into the open session, in file order
    leaf_before: str | None = None  # the leaf before those entries came
    selection: bool = False  # the selected id is another one
    compare: bool = False  # the compared pair changed
    problems: bool = False  # a background check found more problems in the open session
    problems_appended: bool = False  # lines read since brought problems of their own (a broken line pi appended)
    figures: bool = False  # the fold along the session's path ended: its figures (estimates, usage, timeline) are in, as far as it got
    answered: bool = False  # a node's answers (context, provenance, stats, composition) were worked out in the pool
    reload: str | None = None  # why the file must be read again in full; None when it need not
    strict: bool = False  # ... parsing every line as it is read (a skimmed line does not parse)

    def __bool__(self) -> bool:
        return self != Change()

    def then(self, later: Change) -> Change:
        """This change followed by `later`, as one."""
        return Change(
            replaced=self.replaced or later.replaced,
            same_file=later.same_file if later.replaced else self.same_file,
            appended=self.appended + later.appended,
            leaf_before=self.leaf_before if self.appended else later.leaf_before,
            selection=self.selection or later.selection,
            compare=self.compare or later.compare,
            problems=self.problems or later.problems,
            problems_appended=self.problems_appended or later.problems_appended,
            figures=self.figures or later.figures,
            answered=self.answered or later.answered,
            reload=later.reload or self.reload,
            strict=self.strict or later.strict,
        )


@dataclass(frozen=True)
class Answers:
    """Everything the window asks about one node, worked out together (see Workspace.work_out);
    `prepared`: what the views made of them in the same job (a long context's cards), by name."""

    context: Context
    provenance: Mapping[str, Provenance]
    stats: ContextStats
    composition: Composition
    prepared: dict[str, Any] = field(default_factory=dict)


class WriteFailed(Exception):
    """A write through `Workspace.append` failed. `change` is what was read before it: still to be shown."""

    def __init__(self, error: Exception, change: Change) -> None:
        super().__init__(str(error))
        self.error = error
        self.change = change


class _Answers:
    """Answers about entries of one session version; all dropped when the version moves on.

    At most CACHE_LIMIT of them, and (with `weight`) at most PATH_BUDGET path entries together:
    the oldest go first."""

    def __init__(self, weight: Callable[[Any], int] = lambda answer: 0) -> None:
        self._version = -1
        self._items: dict[str, Any] = {}
        self._weight = weight
        self._total = 0

    def get(self, version: int, key: str, make: Callable[[str], Any]) -> Any:
        self._at(version)
        value = self._items.get(key)
        if value is None:
            value = make(key)
            self._keep(key, value)
        return value

    def has(self, version: int, key: str) -> bool:
        return version == self._version and key in self._items

    def peek(self, version: int, key: str) -> Any:
        """The answer kept for `key` at `version`; None when there is none."""
        return self._items.get(key) if version == self._version else None

    def put(self, version: int, key: str, value: Any) -> None:
        self._at(version)
        if key not in self._items:
            self._keep(key, value)

    def _at(self, version: int) -> None:
        if version != self._version:
            self._items.clear()
            self._version, self._total = version, 0

    def _keep(self, key: str, value: Any) -> None:
        items = self._items
        items[key] = value
        self._total += self._weight(value)
        while len(items) > 1 and (len(items) > CACHE_LIMIT or self._total > PATH_BUDGET):
            oldest = next(iter(items))
            self._total -= self._weight(items.pop(oldest))


@dataclass
class Workspace:
    """The session shown and the user's place in it. No Qt: the GUI's controller re-sends its Changes."""

    session: Session | None = None
    selected: str | None = None
    compared: tuple[str, str] | None = None
    version: int = 0  # moves on with every append and replacement; cached answers belong to one
    _fold: PathFold | None = field(default=None, repr=False)  # pi's rules along the session's paths
    _contexts: _Answers = field(default_factory=lambda: _Answers(lambda context: len(context.path)), repr=False)
    _provenance: _Answers = field(default_factory=_Answers, repr=False)
    _stats: _Answers = field(default_factory=_Answers, repr=False)
    _compositions: _Answers = field(default_factory=_Answers, repr=False)
    _composition_memo: CompositionMemo = field(default_factory=CompositionMemo, repr=False)
    # One node's answers are worked out at a time: the fold's state moves on with each (the thread
    # pool's for a long path, or the owner's thread's).
    _answering_lock: threading.RLock = field(default_factory=threading.RLock, repr=False)

    # ---- the session -----------------------------------------------------------------

    def replace(self, session: Session, fold: PathFold | None = None) -> Change:
        """Show `session`, read from a file (`fold`: its fold, made with it off the owner's thread).
        On the file shown before, the selection and comparison stay where they can."""
        old = self.session
        same_file = old is not None and old.path == session.path
        selected = self.selected if same_file and self.selected in session.entries else None
        if same_file and old is not None and selected == old.leaf_id:
            selected = None  # it was on the head: it follows the head
        keep_compare = same_file and self.compared is not None and all(key in session.entries for key in self.compared)
        change = Change(
            replaced=True,
            same_file=same_file,
            selection=(selected or session.leaf_id) != self.selected,
            compare=self.compared is not None and not keep_compare,
        )
        self.session = session
        self.version += 1
        self._fold = fold if fold is not None and fold.session is session else PathFold(session)
        self._composition_memo = CompositionMemo()
        self.compared = self.compared if keep_compare else None
        self.selected = selected if selected is not None else session.leaf_id
        return change

    def fold(self, session: Session, pace: Callable[[], None] = lambda: None) -> bool:
        """Fold pi's rules along the session's spine (for the thread pool, after a load): every figure
        a node's view shows (estimates, usage, the timeline) comes from it. False when another
        session replaced this one first; then `folded(session)` on the owner's thread."""
        fold = self._fold
        if self.session is not session or fold is None:
            return False
        return fold.fold_spine(stop=lambda: self.session is not session, pace=lambda: self._step_aside(pace))

    def _step_aside(self, pace: Callable[[], None]) -> None:
        """The fold's pace: it waits while the user is busy (`pace`) and while a node's answers are
        worked out. The GIL runs one thread at a time, so a fold beside them only slows both (and
        made a million-entry session's first context seconds later); and once the answers are in,
        the lines they parsed are not parsed again by the fold."""
        pace()
        with self._answering_lock:
            pass

    def folded(self, session: Session) -> Change:
        """The fold of `session` ended (Workspace.fold ran in the thread pool, or failed: then the
        figures it did not reach stay unknown): the header's figures given before, without usage,
        are dropped."""
        if session is not self.session:
            return Change()
        self._stats = _Answers()  # (one assignment: a node's answers worked out in the pool meanwhile take no stats from here)
        return Change(figures=True)

    def follow(self, limit: int = APPEND_IN_PLACE_LIMIT) -> Change:
        """Link what pi appended since the last read. More than `limit` new bytes ask for a full reload."""
        session = self.session
        if session is None:
            return Change(reload="no session is shown")
        try:
            if os.stat(session.path).st_size - session.consumed > limit:
                return Change(reload="a large append")
        except OSError as error:
            return Change(reload=str(error))
        return self._read_appended()

    def append(self, write: Callable[[Session], T]) -> tuple[T, Change]:
        """Let `write` append whole lines to the session's file; link and name them, and what pi appended.

        `write(session)` first brings the session up to date with the file (pi may
        have appended: what it writes after pi's last entry, a parent say, must be
        right), then writes, and returns None when it wrote nothing yet (a label
        waiting for pi to finish a line). When `write` raises, WriteFailed carries
        its error and the Change of what was linked before; a FileChanged error
        asks for a reload.
        """
        session = self.session
        if session is None:
            raise SessionLoadError("", "no session is open")
        mark, leaf_before = self._mark()
        try:
            result = write(session)
        except Exception as error:
            change = self._linked_since(mark, leaf_before)
            if isinstance(error, FileChanged):
                change = change.then(Change(reload=error.reason))
            raise WriteFailed(error, change) from error
        change = self._linked_since(mark, leaf_before)
        if result is None:
            return result, change
        return result, change.then(self._read_appended())

    def label_write(self, key: str, label: str | None, patience: Patience = PATIENCE) -> LabelWrite:
        """A label write for the open session, for a caller that waits between attempts its own way:
        `append(lambda session: write.attempt())` until it gives the id. Raises SessionLoadError."""
        if self.session is None:
            raise SessionLoadError("", "no session is open")
        return LabelWrite(self.session, key, label or None, patience)

    def _read_appended(self) -> Change:
        session = self.session
        assert session is not None, "asked only while a session is open"
        mark, leaf_before = self._mark()
        try:
            read_appended(session)
        except (NeedsReload, OSError) as error:
            return Change(reload=str(error))
        return self._linked_since(mark, leaf_before)

    def _mark(self) -> tuple[tuple[int, int, str | None], str | None]:
        """Where the session stands before lines are read: (entries, problems, head), and its leaf."""
        session = self.session
        assert session is not None, "asked only while a session is open"
        return (len(session.file_order), len(session.problems), self._head()), session.leaf_id

    def _linked_since(self, mark: tuple[int, int, str | None], leaf_before: str | None) -> Change:
        """The entries linked into the session since `mark` (see _mark), as a Change; the selection follows the head."""
        session = self.session
        assert session is not None, "asked only while a session is open"
        entries, problems, head_before = mark
        added = session.file_order[entries:]
        # A broken line alone links nothing, yet the problems shown must grow.
        problems_appended = len(session.problems) > problems
        if not added:
            return Change(problems_appended=problems_appended)
        self.version += 1
        assert self._fold is not None, "a session shown has its fold"
        self._fold.appended(added)
        head = self._head()
        follows = self.selected in (leaf_before, head_before) and head != self.selected
        if follows:
            self.selected = head  # keep watching the conversation's head
        return Change(
            appended=tuple(entry.id for entry in added), leaf_before=leaf_before, selection=follows, problems_appended=problems_appended
        )

    def _head(self) -> str | None:
        """The head of the conversation: the leaf, above any labels on it. A label set on the
        selected leaf must leave the selection there, on the entry the user labelled."""
        session = self.session
        assert session is not None, "asked only while a session is open"
        head = session.leaf_id
        while head is not None and session.entries[head].type == "label" and session.parent(head) is not None:
            head = session.parent(head)
        return head

    def validated(self, session: Session, problems: list[Problem], invalid: list[int]) -> Change:
        """Take in what a background check of `session` found (see Session.validate)."""
        if session is not self.session:
            return Change()  # a check of a session no longer shown
        if invalid:
            # A line that looked whole does not parse: pi skips it, so must we.
            return Change(reload=f"{len(invalid):,} lines do not parse", strict=True)
        if not problems:
            return Change()
        session.add_problems(problems)
        return Change(problems=True)

    def report(self, session: Session | None, reason: str) -> Change:
        """A failure of ours in work done for `session` (a background job that stopped): listed with
        its problems, for the user to see, once. Nothing when `session` is no longer shown."""
        if session is None or session is not self.session:
            return Change()  # gone
        problem = Problem(session.path, None, reason)
        if problem in session.problems:
            return Change()  # said already (a walk that fails on every selection)
        session.add_problems([problem])
        return Change(problems=True)

    # ---- where the user is ----------------------------------------------------------------

    def select(self, key: str | None) -> Change:
        if self.session is None or (key is not None and key not in self.session.entries) or key == self.selected:
            return Change()
        self.selected = key
        return Change(selection=True)

    def set_compare(self, left: str | None, right: str | None) -> Change:
        pair = (left, right) if left and right else None
        if pair == self.compared:
            return Change()
        self.compared = pair
        return Change(compare=True)

    # ---- answers -------------------------------------------------------------------------------

    def context(self, key: str) -> Context:
        fold = self._answering()
        with self._answering_lock:
            return self._contexts.get(self.version, key, fold.context)

    def provenance(self, key: str) -> Mapping[str, Provenance]:
        with self._answering_lock:
            return self._provenance.get(self.version, key, lambda key: self._answering().provenance(key, self.context(key)))

    def stats(self, key: str) -> ContextStats:
        """The header's figures; `usage` is None until the fold has worked the figures out."""
        fold = self._answering()
        with self._answering_lock:
            return self._stats.get(self.version, key, lambda key: fold.stats(key, self.context(key)))

    def composition(self, key: str) -> Composition:
        """What the context at `key` is made of, by kind (what tokens/composition.context_composition
        says of it), adding up only what differs from the context asked for before."""
        with self._answering_lock:
            return self._compositions.get(self.version, key, lambda key: self._composition_memo.composition(self.context(key)))

    def answers_now(self, key: str | None) -> bool:
        """Whether the answers about `key` may be asked now on the owner's thread: they are cached, or
        the session is short enough to work them out at once, and no long one is being worked out."""
        if key is None or self.session is None or key not in self.session.entries:
            return True
        cached = all(answers.has(self.version, key) for answers in (self._contexts, self._provenance, self._stats, self._compositions))
        if cached:
            return True
        if len(self.session) > LONG_SESSION or not self._answering_lock.acquire(blocking=False):
            return False
        self._answering_lock.release()
        return True

    def work_out(self, key: str, version: int) -> Answers | None:
        """The answers about `key` for the session at `version` (for the thread pool); None when
        the session moved on first. Nothing is cached here: `take` does it on the owner's thread."""
        fold = self._fold
        if fold is None or version != self.version:
            return None
        with self._answering_lock:
            # What is cached already is taken (the stats alone are dropped when the fold ends: the
            # rest need not be worked out again).
            context = self._contexts.peek(version, key)
            if context is None:
                context = fold.context(key)
            provenance = self._provenance.peek(version, key)
            if provenance is None:
                provenance = fold.provenance(key, context)
            composition = self._compositions.peek(version, key)
            if composition is None:
                composition, tokens = composition_and_tokens(context)  # each message's parts read once for both
                return Answers(context, provenance, fold.stats(key, context, tokens), composition)
            return Answers(context, provenance, fold.stats(key, context), composition)

    def take(self, key: str, version: int, answers: Answers | None) -> Change:
        """Answers worked out in the pool (`work_out`) become the cached ones, for the version they
        are of: Change(answered=True) tells the views waiting for them."""
        if answers is None or version != self.version:
            return Change()
        with self._answering_lock:
            self._contexts.put(version, key, answers.context)
            self._provenance.put(version, key, answers.provenance)
            self._stats.put(version, key, answers.stats)
            self._compositions.put(version, key, answers.composition)
        return Change(answered=True)

    def rows(self, key: str) -> list[TimelineRow] | None:
        """The timeline's rows from the root to `key`; None until the fold has worked them out."""
        return self._answering().rows(key)

    def same_parts(self, before: str | None, after: str | None) -> bool:
        """Every entry on both nodes' paths plays the same part in both contexts (a step along a path
        that crosses no compaction or edit): marks of the shared part of the path stay."""
        if self._fold is None or not self._answering_lock.acquire(blocking=False):
            return False  # (a long path's answers are being worked out: the marks are drawn afresh)
        try:
            return self._fold.same_parts(before, after)
        finally:
            self._answering_lock.release()

    def path_fold(self) -> PathFold:
        """The fold of the open session (the timeline draws its columns)."""
        return self._answering()

    def _answering(self) -> PathFold:
        if self._fold is None:
            raise SessionLoadError("", "no session is open")
        return self._fold

    def comparison(self) -> Comparison | None:
        if self.session is None or self.compared is None:
            return None
        return compare(
            self.session,
            *self.compared,
            resolve_context=self.context,
            provenance_of=lambda context: self.provenance(cast(str, context.leaf)),  # a compared key's: a str
        )


__all__ = ["APPEND_IN_PLACE_LIMIT", "Answers", "Change", "WriteFailed", "Workspace"]
