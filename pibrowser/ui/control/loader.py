"""The controller's jobs: loading a session, folding pi's rules along its path, checking every line it
skimmed, and working out what the window asks about a node of a long path."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...model import Session, SessionLoadError
from ...model.fold.path_fold import PathFold
from ...model.workspace import Answers
from .job import Job


class LoadJob(Job):
    """Reads and indexes one file in the thread pool, and makes its fold's spine (the default leaf's
    path: seconds for a million entries); the GUI thread only receives (Session, PathFold). Tagged
    with the load's generation (a newer load supersedes it)."""

    expected = (SessionLoadError,)

    def __init__(self, path: Path, generation: int, strict: bool = False) -> None:
        super().__init__(generation)
        self.path, self.strict = path, strict
        self.failure_text = f"{path}: could not be loaded"

    def work(self) -> tuple[Session, PathFold]:
        session = Session.load(self.path, lazy=not self.strict, progress=self.report_progress)
        fold = PathFold(session)
        fold.spine  # noqa: B018 (made here, not at the window's first question)
        return session, fold


class ValidateJob(Job):
    """Parses, in the background, every line that a lazy load only skimmed: (problems, lines that
    do not parse). Tagged with the session it checks."""

    def __init__(self, session: Session, pace: Callable[[], None] | None = None) -> None:
        super().__init__(session)
        self.session, self.pace = session, pace
        self.failure_text = "The check of every line stopped; problems after it are not listed"

    def work(self) -> tuple[list, list]:
        return self.session.validate(pace=self.pace)


class FoldJob(Job):
    """pi's rules folded along a session's path (Workspace.fold), in the thread pool: whether the
    fold finished (False: stopped, as a session no longer shown asks). Tagged with the session."""

    failure_text = "The figures along the path could not be worked out; contexts are still shown"

    def __init__(self, fold: Callable[[], bool], session: Session) -> None:
        super().__init__(session)
        self._fold = fold

    def work(self) -> bool:
        return self._fold()


class AnswersJob(Job):
    """The context, provenance, figures and composition of one node of a long session
    (Workspace.work_out), in the thread pool. Tagged with (node, the session's version)."""

    failure_text = "The context of this entry could not be worked out"

    def __init__(
        self, work_out: Callable[[], Answers | None], preparers: dict[str, Callable[[Answers], Any]], key: str, version: int
    ) -> None:
        super().__init__((key, version))
        self._work_out = work_out
        self._preparers = dict(preparers)

    def work(self) -> Answers | None:
        answers = self._work_out()
        if answers is not None:
            for name, prepare in self._preparers.items():
                answers.prepared[name] = prepare(answers)
        return answers
