"""Every node's context as a step from its parent's: what the shared page replays on a click.

The page shows, for any node, the text `pibrowser context FILE --leaf ID --format text`
prints. Each distinct message, as that text shows it (with the entry it came from), is one
block; a node's context is the first `keep` blocks of its parent's context followed by the
node's own `added` blocks. The contexts come from the fold, visited depth first so that
each is one step from the last one built; the page only replays the steps.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from itertools import compress
from operator import is_not
from typing import Any, TypeVar

from ..context.resolve import Context, ProjectedEntry, sets_model, sets_thinking_level
from ..fold.path_fold import PathFold
from ..session.entry import Entry
from ..session.session import Session
from ..text.terminal_text import visible, visible_line
from ..text.transcript import render_message, settings_line
from .fork import forked
from .images import message_images

_Carried = tuple[Mapping[Any, Entry], int]  # down a walk: the edits in force at a node, and its settings' index
Here = TypeVar("Here")
There = TypeVar("There")

ALL = -1  # a step that keeps the whole of the parent's context
PARALLEL_FROM = 20_000  # nodes from which a parallel walk is worth a second process


@dataclass(slots=True)
class ContextSteps:
    """`blocks`: each distinct message as the text shows it; `block_owner`: the node whose entry
    gave it; `block_role`: its role; `block_tail`: where it ends when it comes last and the text's
    trailing blanks are cut (only where that differs from dropping its newline). Per node, in
    `order`: `keep` (ALL, or how many of the parent's blocks) and `added` (block numbers);
    `setting` (into `settings`: the header's "thinking …, model …")."""

    order: list[str]
    parent: list[int]
    blocks: list[str] = field(default_factory=list)
    block_owner: list[int] = field(default_factory=list)
    block_role: list[str] = field(default_factory=list)
    block_tail: dict[int, int] = field(default_factory=dict)
    images: dict[int, list[str]] = field(default_factory=dict)  # a block's images, as data: URIs
    edits: dict[int, str] = field(default_factory=dict)  # a block a context_edit replaced: the edit's id
    keep: list[int] = field(default_factory=list)
    added: list[list[int]] = field(default_factory=list)
    settings: list[str] = field(default_factory=list)
    setting: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """What another process's walk needs to take these steps in (_Walk.merge); not the order."""
        return {
            "blocks": self.blocks,
            "block_owner": self.block_owner,
            "block_role": self.block_role,
            "block_tail": {str(block): tail for block, tail in self.block_tail.items()},
            "images": {str(block): found for block, found in self.images.items()},
            "edits": {str(block): edit for block, edit in self.edits.items()},
            "keep": self.keep,
            "added": self.added,
            "settings": self.settings,
            "setting": self.setting,
        }


def depth_first(session: Session) -> tuple[list[str], list[int]]:
    """Every entry once, depth first in the tree's child order, and each one's parent (-1: a root)."""
    order: list[str] = []
    parent: list[int] = []
    children = session.children_by_parent
    stack = [(key, -1) for key in reversed(session.display_roots())]
    while stack:
        key, above = stack.pop()
        while True:  # down a chain without the stack
            order.append(key)
            parent.append(above)
            above = len(order) - 1
            kids = children.get(key)
            if not kids:
                break
            if len(kids) > 1:
                stack.extend((kid, above) for kid in reversed(kids[1:]))
            key = kids[0]
    return order, parent


def context_steps(
    session: Session,
    progress: Callable[[int, int], None] = lambda done, total: None,
    walk: tuple[list[str], list[int]] | None = None,
    parallel: bool = False,
) -> ContextSteps:
    """Each node's context from the fold, as a step from its parent's (`walk`: depth_first's answer,
    when known; `parallel`: see walk_halves)."""
    return walk_halves(session, walk if walk is not None else depth_first(session), progress, parallel, _nothing, _then_nothing)[0]


def _nothing(nodes: range) -> None:
    return None


def _then_nothing(nodes: range) -> Callable[[], None]:
    return lambda: None


def walk_halves(
    session: Session,
    walk: tuple[list[str], list[int]],
    progress: Callable[[int, int], None],
    parallel: bool,
    here: Callable[[range], Here],
    there: Callable[[range], Callable[[], There]],
) -> tuple[ContextSteps, Here, There]:
    """Every node's step (context_steps), and what `here` and `there` answer beside the walk. With
    `parallel` and PARALLEL_FROM nodes or more, the second half of the nodes is walked in a forked
    process (see fork.py), which also runs `there` (its answer comes back as JSON), while this one
    walks the first half and runs `here`; the other half's blocks are then merged into this one's
    by their text. Otherwise all of it runs here, one after the other. Each is given the nodes its
    process walks. `here` runs after its half of the walk (the entries the walk parsed are read
    again at no cost); `there` runs before it (what reads entries the walk has not parsed yet is
    quicker so: see is_textless_reply) and returns what runs after it, whose answer is returned."""
    order, parent = walk
    half = len(order) // 2 if parallel and len(order) >= PARALLEL_FROM else len(order)
    mine, theirs = range(half), range(half, len(order))

    def second() -> dict[str, Any]:
        after = there(theirs)
        steps = _Walk(session, ContextSteps(order, parent)).run(progress, half, len(order))
        return {"steps": steps.to_json(), "beside": after()}

    pending = forked(second) if half < len(order) else None
    after = there(theirs) if pending is None else None
    walker = _Walk(session, ContextSteps(order, parent))
    walker.run(progress, 0, half)
    answer_here = here(mine)
    if after is not None:
        return walker.steps, answer_here, after()
    assert pending is not None
    answer = pending()
    walker.merge(answer["steps"])
    return walker.steps, answer_here, answer["beside"]


class _Walk:
    def __init__(self, session: Session, steps: ContextSteps) -> None:
        self.session, self.steps = session, steps
        self.fold = PathFold(session)
        self.by_text: dict[str, int] = {}
        self.by_object: dict[int, tuple[Any, int]] = {}  # id(message) → (message, block): the message kept alive
        self.settings: dict[str, int] = {}
        self.last_settings: tuple[object, int] = (None, -1)  # the settings the last node had, and their index

    def run(self, progress: Callable[[int, int], None], start: int, end: int) -> ContextSteps:
        """Walk the nodes start … end - 1. A node whose parent lies before `start` adds its whole
        context (keeps none of its parent's): the walk knows no context before it. A node whose
        entry is neither a compaction nor an edit adds its own part to its parent's context
        (PathFold.own_part): no context is built for it, only the edits in force and the settings
        are carried down."""
        steps, fold, session = self.steps, self.fold, self.session
        order, parent = steps.order, steps.parent
        children = session.children_by_parent
        kept: dict[int, _Carried] = {}  # branch points whose children are still to come
        left: dict[int, int] = {}
        carried: _Carried = ({}, -1)  # the node walked last
        for node in range(start, end):
            key = order[node]
            if not node % 4096:
                progress(node, len(order))
            above = parent[node]
            if above < start:
                base = None
            elif above == node - 1:
                base = carried
            else:
                base = kept.get(above)
                if above in left:
                    left[above] -= 1
                    if not left[above]:
                        del kept[above], left[above]
            part = fold.own_part(key, base[0]) if base is not None else None
            if base is not None and part is not None:
                carried = (base[0], self._own_step(key, part, base[1]))  # the node is no edit: the parent's stay in force
            else:
                # The parent's context first: the fold builds the node's own from the one it built last.
                known = fold.context(order[above]) if base is not None else None
                context = fold.context(key)
                carried = (fold.edits_in(context), self._step(known, context))
            kids = children.get(key)
            if kids is not None and len(kids) > 1:
                kept[node], left[node] = carried, len(kids) - 1
        progress(end, len(order))
        return steps

    def merge(self, other: dict[str, Any]) -> None:
        """Take in the steps another walk made of the nodes after this one's (ContextSteps.to_json),
        its blocks and settings renumbered as this walk's (a text known here keeps its number)."""
        steps = self.steps
        blocks = []
        tails = other["block_tail"]
        for at, text in enumerate(other["blocks"]):
            block = self.by_text.get(text)
            if block is None:
                block = self.by_text[text] = len(steps.blocks)
                steps.blocks.append(text)
                steps.block_owner.append(other["block_owner"][at])
                steps.block_role.append(other["block_role"][at])
                if str(at) in tails:
                    steps.block_tail[block] = tails[str(at)]
                if str(at) in other["images"]:
                    steps.images[block] = other["images"][str(at)]
                if str(at) in other["edits"]:
                    steps.edits[block] = other["edits"][str(at)]
            blocks.append(block)
        settings = []
        for header in other["settings"]:
            index = self.settings.get(header)
            if index is None:
                index = self.settings[header] = len(steps.settings)
                steps.settings.append(header)
            settings.append(index)
        steps.keep.extend(other["keep"])
        steps.added.extend([blocks[block] for block in added] for added in other["added"])
        steps.setting.extend(settings[index] for index in other["setting"])

    def _own_step(self, key: str, part: ProjectedEntry, setting: int) -> int:
        """A node whose context is its parent's whole, then `part` (`setting`: the parent's settings'
        index, the node's own unless its entry sets the thinking level or the model); its settings' index."""
        steps = self.steps
        steps.keep.append(ALL)
        steps.added.append([self._block(message, part) for message in part.messages])
        entry = part.entry
        if sets_thinking_level(entry.type, entry.role) or sets_model(entry.type, entry.role):
            setting = self._setting(self.fold.settings(key))
        steps.setting.append(setting)
        return setting

    def _step(self, base: Context | None, context: Context) -> int:
        """A node whose context is built whole (`base`: its parent's, None when not known): it keeps
        the blocks its parent's context begins with, and adds the rest. Its settings' index."""
        steps = self.steps
        messages = context.messages
        known = base.messages if base is not None else []
        keep = self._common(base, context) if base is not None else 0
        added = [self._block(message, source) for message, source in zip(messages[keep:], _tail_sources(context, len(messages) - keep))]
        steps.keep.append(ALL if base is not None and keep == len(known) else keep)
        steps.added.append(added)
        setting = self._setting((context.thinking_level, context.model))
        steps.setting.append(setting)
        return setting

    def _setting(self, settings: tuple[Any, Any]) -> int:
        """The index of the settings' header text (the fold hands the same settings on while no entry sets new ones)."""
        last, index = self.last_settings
        if settings is not last:
            header = settings_line(*settings)
            index = self.settings.get(header, -1)
            if index < 0:
                index = self.settings[header] = len(self.steps.settings)
                self.steps.settings.append(header)
            self.last_settings = (settings, index)
        return index

    def _common(self, base: Context, context: Context) -> int:
        """How many leading blocks two contexts share: the same message is the same block, and from
        the first that differs, their blocks are compared until they differ."""
        left, right = base.messages, context.messages
        count = min(len(left), len(right))
        same = next(compress(range(count), map(is_not, left, right)), count)
        if same == count:
            return count
        ours, theirs = _tail_sources(base, len(left) - same), _tail_sources(context, len(right) - same)
        for at in range(same, count):
            message, other = left[at], right[at]
            if message is not other and self._block(message, ours[at - same]) != self._block(other, theirs[at - same]):
                return at
        return count

    def _block(self, message: Any, projected: ProjectedEntry) -> int:
        known = self.by_object.get(id(message))
        if known is not None and known[0] is message:
            return known[1]
        source = projected.entry
        raw = render_message(message, source.id)
        text = visible(raw)
        block = self.by_text.get(text)
        if block is None:
            steps = self.steps
            block = self.by_text[text] = len(steps.blocks)
            steps.blocks.append(text)
            steps.block_owner.append(self._node_of(source.id))
            steps.block_role.append(str(message.get("role")) if isinstance(message, dict) else "value")
            found = message_images(message)
            if found:
                steps.images[block] = found
            if projected.edit is not None and not any(message is original for original in projected.original):
                steps.edits[block] = visible_line(projected.edit.id)  # what pi sends here is a context_edit's replacement
            cut = len(text) - len(visible(_blank_tail(raw)))  # the trailing blanks' stand-ins, not the whole text again
            if cut != len(text) - 1:
                steps.block_tail[block] = cut
        self.by_object[id(message)] = (message, block)
        return block

    def _node_of(self, key: str) -> int:
        index = getattr(self, "_index", None)
        if index is None:
            index = self._index = {key: node for node, key in enumerate(self.steps.order)}
        return index.get(key, -1)


def _tail_sources(context: Context, count: int) -> list[ProjectedEntry]:
    """The context entries the last `count` messages of a context came from (without listing them all)."""
    found: list[ProjectedEntry] = []
    for projected in reversed(context.entries):
        if len(found) >= count:
            break
        found.extend([projected] * len(projected.messages))
    found = found[:count]
    found.reverse()
    return found


def _blank_tail(text: str) -> str:
    """The blanks at the end of `text` (what rstrip cuts), found without copying the rest of it."""
    tail = text[-64:]
    kept = tail.rstrip()
    if kept or len(tail) == len(text):
        return tail[len(kept) :]
    return text[len(text.rstrip()) :]
