"""File ▸ Share as HTML…: the findings are shown before anything is written, one can be kept, and the page
is written from the file as it is on disk, following the selection and the pair compared."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from pibrowser.model.writing.share_record import read_shares
from pibrowser.ui.window.share_dialog import KEEP, KIND

from ..planted import AWS_KEY, GITHUB, SLACK, write_planted
from .conftest import load

pytestmark = pytest.mark.usefixtures("isolated_settings")


def test_the_findings_are_reviewed_and_one_kept(qtbot, window, tmp_path):
    path = write_planted(tmp_path / "planted.jsonl")
    before = path.read_bytes()
    load(qtbot, window, path)
    assert window.share.action in window.menuBar().actions()[0].menu().actions()
    window.controller.select("u3")
    out = tmp_path / "shared.html"
    window.share.share_to(out)
    qtbot.waitUntil(lambda: window.share.dialog is not None and window.share.dialog.isVisible(), timeout=30_000)
    dialog = window.share.dialog
    assert not out.exists()  # nothing written before the review
    kinds = [dialog.table.item(row, KIND).text() for row in range(dialog.table.rowCount())]
    assert "GitHub Token" in kinds and "Slack Token" in kinds
    snippets = " ".join(dialog.table.item(row, 3).text() for row in range(dialog.table.rowCount()))
    assert GITHUB not in snippets and SLACK not in snippets  # masked
    dialog.table.item(kinds.index("Slack Token"), KEEP).setCheckState(Qt.CheckState.Checked)
    dialog.write_button.click()
    qtbot.waitUntil(lambda: window.share.last_message.startswith("Shared"), timeout=60_000)
    page = out.read_text(encoding="utf-8")
    assert SLACK in page and GITHUB not in page and AWS_KEY not in page
    assert path.read_bytes() == before
    record = read_shares()[-1]
    assert record["leaf"] == "u3" and record["output"] == str(out.resolve()) and "Slack Token" not in record["removed"]


def test_cancel_writes_nothing(qtbot, window, tmp_path):
    path = write_planted(tmp_path / "planted.jsonl")
    load(qtbot, window, path)
    out = tmp_path / "shared.html"
    window.share.share_to(out)
    qtbot.waitUntil(lambda: window.share.dialog is not None and window.share.dialog.isVisible(), timeout=30_000)
    window.share.dialog.reject()
    assert window.share.last_message == "Share cancelled: nothing written"
    assert not out.exists() and not read_shares()
