"""The waterfall's rows: a trace laid out as lanes, runs opening into their turns and calls.

No Qt: which lanes show, in what order, and where an entry's lane is. A run's
lane opens into a lane per turn and per entry between turns, each turn followed
by a lane per tool call. Long traces start with their runs closed (a session of
6,000 runs opened whole is 90,000 lanes: fine to draw, but no overview).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable

from ...model.trace.spans import Event, Run, ToolCall, Trace, Turn

Node = Run | Turn | ToolCall | Event
OPEN_ALL_UP_TO = 3000  # lanes: a trace with fewer opens with every run open


class TraceLanes:
    """`lanes[i]` = (node, depth). `opened` holds the numbers of the runs shown open."""

    def __init__(self, trace: Trace, opened: Iterable[int] | None = None) -> None:
        self.trace = trace
        if opened is None:
            whole = len(trace.before) + sum(1 + len(run.items) + sum(len(item.calls) for item in run.turns) for run in trace.runs)
            opened = range(1, len(trace.runs) + 1) if whole <= OPEN_ALL_UP_TO else ()
        self.opened: set[int] = set(opened)
        self.lanes: list[tuple[Node, int]] = []
        self._index: dict[int, int] | None = None  # id(node) → lane
        self.lay_out()

    def lay_out(self) -> None:
        lanes: list[tuple[Node, int]] = [(event, 0) for event in self.trace.before]
        opened = self.opened
        for run in self.trace.runs:
            lanes.append((run, 0))
            if run.number not in opened:
                continue
            for item in run.items:
                lanes.append((item, 1))
                if item.__class__ is Turn:
                    lanes.extend((call, 2) for call in item.calls)
        self.lanes = lanes
        self._index = None

    def __len__(self) -> int:
        return len(self.lanes)

    def is_open(self, run: Run) -> bool:
        return run.number in self.opened

    def toggle(self, run: Run, open_: bool | None = None) -> None:
        want = not self.is_open(run) if open_ is None else open_
        if want == self.is_open(run):
            return
        (self.opened.add if want else self.opened.discard)(run.number)
        self.lay_out()

    def set_all(self, open_: bool) -> None:
        self.opened = set(range(1, len(self.trace.runs) + 1)) if open_ else set()
        self.lay_out()

    def run_of(self, node: Node) -> Run | None:
        return node if isinstance(node, Run) else self.trace.run_of(run_number(node))

    def lane_of(self, node: Node | None) -> int | None:
        """The lane showing `node`, or its run's lane when the run is closed."""
        if node is None:
            return None
        if self._index is None:
            self._index = {id(shown): at for at, (shown, _) in enumerate(self.lanes)}
        found = self._index.get(id(node))
        if found is None:
            run = self.run_of(node)
            found = self._index.get(id(run)) if run is not None else None
        return found

    def lane_for_entry(self, key: str | None) -> int | None:
        return self.lane_of(self.trace.nodes.get(key)) if key is not None else None

    def reveal(self, node: Node) -> int | None:
        """Open the run holding `node` and give its lane."""
        run = self.run_of(node)
        if run is not None and not isinstance(node, Run):
            self.toggle(run, True)
        return self.lane_of(node)


def run_number(node: Node) -> int:
    """The number of the run a lane belongs to (0: before the first run)."""
    if isinstance(node, Run):
        return node.number
    return node.turn.run if isinstance(node, ToolCall) else node.run


def entry_of(node: Node) -> str:
    """The entry a lane selects: a call its result (or its reply, when it has none)."""
    if isinstance(node, ToolCall):
        return node.result or node.turn.entry
    return node.entry


def span_of(node: Node) -> tuple[float | None, float | None]:
    """(start, end) of a lane's bar; an event has one time."""
    if isinstance(node, Event):
        return node.time, node.time
    if isinstance(node, ToolCall):
        return node.start, node.end if node.end is not None else node.start
    return node.start, node.end


def is_error(node: Node) -> bool:
    if isinstance(node, Run):
        return bool(node.totals and node.totals.errors)
    return node.error_kind is not None


def turn_starts(run: Run) -> tuple[list[float], list[Turn]]:
    """The run's turns in start order with their starts, to find the ones in view by bisection."""
    turns = [turn for turn in run.turns if turn.start is not None]
    return [turn.start for turn in run.turns if turn.start is not None], turns


def turns_between(starts: list[float], turns: list[Turn], low: float, high: float) -> list[Turn]:
    begin = max(0, bisect_left(starts, low) - 1)
    end = bisect_left(starts, high)
    return turns[begin:end]
