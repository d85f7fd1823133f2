"""The strip's background walk: the figures of paths not seen before, worked out in the thread pool."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model.tokens.timeline import Timeline, WalkStopped
from ..control.job import Job
from .series import Series, build_series

if TYPE_CHECKING:
    from ...model.courtesy import Courtesy
    from ...model.session.session import Session


class WalkToken:
    """Tells a walk in the thread pool that its answer is no longer wanted."""

    __slots__ = ("stopped",)

    def __init__(self) -> None:
        self.stopped = False


class TimelineJob(Job):
    """Walks the paths to `leaves` (a long one takes a second or two): a list of Series, or None
    when the walk was stopped. Tagged with the strip's generation."""

    failure_text = "The context over time could not be worked out"

    def __init__(self, session: Session, timeline: Timeline, courtesy: Courtesy, leaves: list[str], generation: int, token: WalkToken) -> None:
        super().__init__(generation)
        self.session, self.timeline, self.courtesy = session, timeline, courtesy
        self.leaves, self.token = leaves, token

    def work(self) -> list[Series] | None:
        token, courtesy = self.token, self.courtesy

        def stop() -> bool:
            courtesy.step()  # while the user is busy, the walk waits
            return token.stopped

        try:
            return [build_series(self.session, self.timeline, leaf, stop=stop) for leaf in self.leaves]
        except WalkStopped:
            return None
