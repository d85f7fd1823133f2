"""Help ▸ Show Log: the log's text, read-only and never read as markup; errors of ours that views survive are in it."""

import logging

import pytest

from pibrowser.log_file import current_log
from pibrowser.model import Session
from pibrowser.ui.tree.marks import PathCache

from ..conftest import DEMO

pytestmark = pytest.mark.usefixtures("isolated_settings")


def test_show_log_shows_the_log_file_as_plain_text(qtbot, window):
    path = current_log()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("2026-12-03 10:00:00,000 ERROR pibrowser.x [MainThread] <b>not bold</b> &amp; <img src=x>\n")
    help_menu = next(action.menu() for action in window.menuBar().actions() if action.text() == "&Help")
    assert window.log_action in help_menu.actions()
    window.log_action.trigger()
    viewer = window.log_viewer
    qtbot.waitExposed(viewer)
    assert viewer.text.isReadOnly()
    assert viewer.text.toPlainText().endswith("<b>not bold</b> &amp; <img src=x>\n")
    with open(path, "a", encoding="utf-8") as handle:
        handle.write("a later line\n")
    viewer.reload()
    assert viewer.text.toPlainText().endswith("a later line\n")
    path.unlink()
    viewer.reload()
    assert viewer.text.toPlainText() == "Nothing is logged yet."
    viewer.close()


def test_a_path_whose_provenance_fails_is_drawn_without_it_and_logged(caplog):
    session = Session.load(DEMO)

    def broken(key):
        raise KeyError(key)

    with caplog.at_level(logging.ERROR, logger="pibrowser"):
        assert PathCache().get(session, session.leaf_id, broken) == {}
    record = next(record for record in caplog.records if record.name == "pibrowser.ui.tree.marks")
    assert session.leaf_id in record.getMessage() and record.exc_info is not None
