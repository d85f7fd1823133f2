"""Loading a session off the GUI thread, with progress."""

from __future__ import annotations

import logging

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QRunnable, Signal

from ...model import Session, SessionLoadError
from .job_signals import tell


class LoadSignals(QObject):
    progress = Signal(int, int, int)  # lines (or bytes) read, in all, generation
    loaded = Signal(object, int)  # Session, generation
    failed = Signal(str, int)  # one clear line, generation


class LoadJob(QRunnable):
    """Reads and indexes one file in the thread pool; the GUI thread only receives results."""

    def __init__(self, path: Path, generation: int, strict: bool = False) -> None:
        super().__init__()
        self.path = path
        self.generation = generation
        self.strict = strict
        self.signals = LoadSignals()
        self.setAutoDelete(True)

    def run(self) -> None:
        try:
            session = Session.load(self.path, lazy=not self.strict, progress=self._progress)
        except SessionLoadError as error:
            tell(self.signals.failed, str(error), self.generation)
        except Exception as error:  # a bug of ours must not take the window down
            tell(self.signals.failed, f"{self.path}: could not be loaded ({type(error).__name__}: {error})", self.generation)
        else:
            tell(self.signals.loaded, session, self.generation)

    def _progress(self, done: int, total: int) -> None:
        tell(self.signals.progress, done, total, self.generation)


class ValidateSignals(QObject):
    done = Signal(object, list, list)  # Session, problems, lines that do not parse


class ValidateJob(QRunnable):
    """Parses, in the background, every line that a lazy load only skimmed."""

    def __init__(self, session: Session, pace: Callable[[], None] | None = None) -> None:
        super().__init__()
        self.session, self.pace = session, pace
        self.signals = ValidateSignals()
        self.setAutoDelete(True)

    def run(self) -> None:
        try:
            problems, invalid = self.session.validate(pace=self.pace)
        except Exception:  # a bug of ours must not leave the session half-checked
            problems, invalid = [], []
        tell(self.signals.done, self.session, problems, invalid)


class FoldSignals(QObject):
    done = Signal(object, bool)  # the session, and whether its fold finished (not stopped)


class FoldJob(QRunnable):
    """pi's rules folded along a session's path (Workspace.fold), in the thread pool."""

    def __init__(self, fold: Callable[[], bool], session: Session) -> None:
        super().__init__()
        self.fold, self.session = fold, session
        self.signals = FoldSignals()
        self.setAutoDelete(True)

    def run(self) -> None:
        try:
            finished = self.fold()
        except Exception:  # a bug of ours: the window shows no figures, the rest works
            logging.getLogger(__name__).exception("folding %s failed", self.session.path)
            finished = False
        tell(self.signals.done, self.session, finished)
