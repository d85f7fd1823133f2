"""File ▸ Share as HTML…: the open session as one offline page, its secrets found and reviewed first.

Where to write is asked first; the secrets are looked for off the GUI thread, with
progress in the status bar; the findings are shown (ShareDialog), each one can be
kept; only then is the page written, off the GUI thread too, from the file as it is
on disk (model/share/share.py), and recorded. The page follows the selection (its
path's trace and files) and the pair being compared, when there is one.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt, QThreadPool
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMessageBox

from ...model.session.problems import SessionLoadError
from ...model.share.page_data import ShareRequest
from ...model.share.redaction import Findings
from ...model.share.share import ShareOptions, Shared, find_for_share, write_share
from ..control.job import Job
from .file_dialog import ask_for_path
from .share_dialog import ShareDialog

if TYPE_CHECKING:
    from ..control.controller import SessionController


class _Find(Job):
    failure_text = "looking for secrets failed"
    expected = (OSError,)

    def __init__(self, path: Path, options: ShareOptions) -> None:
        super().__init__()
        self.path, self.options = path, options

    def work(self) -> Findings:
        return find_for_share(self.path, self.options, self.report_progress)


class _Write(Job):
    failure_text = "the page was not written"
    expected = (OSError, ValueError, SessionLoadError)

    def __init__(self, path: Path, out: Path, options: ShareOptions, findings: Findings) -> None:
        super().__init__()
        self.path, self.out, self.options, self.findings = path, out, options, findings

    def work(self) -> Shared:
        return write_share(self.path, self.out, self.options, self.findings, self.report_progress)


class ShareAction(QObject):
    """Public for callers and tests: `action`, `dialog` (the review shown), `last_message`, and
    `share_to(out)`, which starts a share to `out` without asking where."""

    def __init__(self, window: QMainWindow, controller: SessionController, interactive: bool = True) -> None:
        super().__init__(window)
        self.window, self.controller, self.interactive = window, controller, interactive
        self.action = QAction("S&hare as HTML…", window)
        self.action.setStatusTip("Write this session as one HTML page that opens offline, with secrets found and removed first")
        self.action.triggered.connect(lambda: self.ask())
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self.dialog: ShareDialog | None = None
        self.file_dialog: QFileDialog | None = None  # where to write, while it is asked
        self.last_message = ""
        self._job: tuple[Path, Path, ShareOptions] | None = None

    def ask(self) -> None:
        session = self.controller.session
        if session is None:
            self._tell("Open a session to share it")
            return
        start = str(session.path.with_suffix(".html"))
        mode = QFileDialog.FileMode.AnyFile
        self.file_dialog = ask_for_path(self.window, "Share as HTML", start, mode, self._chosen, "HTML page (*.html)", save=True)

    def _chosen(self, _dialog: QFileDialog, name: str) -> None:
        self.file_dialog = None
        self.share_to(Path(name))

    def share_to(self, out: Path) -> None:
        session = self.controller.session
        if session is None or self._job is not None:
            return
        if out.resolve() == Path(session.path).resolve():
            self._tell("The page would overwrite the session itself; choose another name", warning=True)
            return
        options = ShareOptions(ShareRequest(self.controller.selected, self.controller.compared))
        self._job = (Path(session.path), out, options)
        self.dialog = None
        job = _Find(Path(session.path), options)
        # Bound methods of this QObject, so that each answer is queued to the GUI thread.
        job.signals.progress.connect(self._progress)
        job.signals.done.connect(self._review)
        job.signals.failed.connect(self._failed)
        self._tell("Looking for secrets…")
        self.pool.start(job)

    def _review(self, findings: Findings, tag: object = None) -> None:
        assert self._job is not None, "a review follows a search"
        dialog = ShareDialog(findings, self._job[1].name, self.window)
        dialog.accepted.connect(lambda: self._write(findings, dialog.home.isChecked()))
        dialog.rejected.connect(self._cancelled)
        dialog.finished.connect(dialog.deleteLater)
        self.dialog = dialog
        if self.interactive:
            dialog.open()

    def _write(self, findings: Findings, home: bool) -> None:
        assert self._job is not None, "a write follows a review"
        path, out, options = self._job
        options = ShareOptions(options.request, options.redact, options.patterns, options.listed, home)
        job = _Write(path, out, options, findings)
        job.signals.progress.connect(self._progress)
        job.signals.done.connect(self._written)
        job.signals.failed.connect(self._failed)
        self.pool.start(job)

    def _written(self, shared: Shared, tag: object = None) -> None:
        self._job = None
        removed = sum(shared.removed.values())
        self._tell(f"Shared as {shared.out} ({shared.size:,} bytes; {removed} secret{'s' if removed != 1 else ''} removed)")

    def _cancelled(self) -> None:
        self._job = None
        self._tell("Share cancelled: nothing written")

    def _failed(self, message: str, tag: object = None) -> None:
        self._job = None
        self._tell(f"Not shared: {message}", warning=True)

    def _progress(self, done: int, total: int, tag: object = None) -> None:
        what = "Looking for secrets" if self.dialog is None else "Writing the page"
        self.window.statusBar().showMessage(f"{what}… {100 * done // max(total, 1)}%")

    def _tell(self, message: str, warning: bool = False) -> None:
        self.last_message = message
        self.window.statusBar().showMessage(message, 10_000)
        if warning and self.interactive:
            box = QMessageBox(QMessageBox.Icon.Warning, "Not shared", message, QMessageBox.StandardButton.Ok, self.window)
            box.setTextFormat(Qt.TextFormat.PlainText)
            box.finished.connect(box.deleteLater)
            box.open()

    def wait(self, msecs: int = -1) -> Any:
        return self.pool.waitForDone(msecs)
