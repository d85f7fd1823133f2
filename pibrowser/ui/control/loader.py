"""The controller's jobs: loading a session, checking every line it skimmed, working ahead."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ...model import Session, SessionLoadError
from .job import Job


class LoadJob(Job):
    """Reads and indexes one file in the thread pool; the GUI thread only receives the Session.
    Tagged with the load's generation (a newer load supersedes it)."""

    expected = (SessionLoadError,)

    def __init__(self, path: Path, generation: int, strict: bool = False) -> None:
        super().__init__(generation)
        self.path, self.strict = path, strict
        self.failure_text = f"{path}: could not be loaded"

    def work(self) -> Session:
        return Session.load(self.path, lazy=not self.strict, progress=self.report_progress)


class ValidateJob(Job):
    """Parses, in the background, every line that a lazy load only skimmed: (problems, lines that
    do not parse). Tagged with the session it checks."""

    def __init__(self, session: Session, pace: Callable[[], None] | None = None) -> None:
        super().__init__(session)
        self.session, self.pace = session, pace
        self.failure_text = "The check of every line stopped; problems after it are not listed"

    def work(self) -> tuple[list, list]:
        return self.session.validate(pace=self.pace)


class AheadJob(Job):
    """Work done ahead for later selections (`work`), in the background. Tagged with the session."""

    failure_text = "Working ahead stopped; answers are worked out when asked for"

    def __init__(self, work: Callable[[], None], session: Session) -> None:
        super().__init__(session)
        self._work = work

    def work(self) -> None:
        self._work()
