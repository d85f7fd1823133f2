"""File ▸ Upgrade to pi's Current Format, and a label refused on an old-format file (issue 25, item 2)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMessageBox

from ..old_files import OLD_FILES
from .conftest import load
from ..changes import replaced

pytestmark = pytest.mark.usefixtures("isolated_settings")


def test_a_label_on_a_version_1_file_offers_the_upgrade_which_keeps_the_ids(qtbot, window, tmp_path):
    path = tmp_path / "old.jsonl"
    path.write_bytes(OLD_FILES["v1-every-case"])
    session = load(qtbot, window, path)
    assert window.upgrade.action.isEnabled()
    assert window.upgrade.action in window.menuBar().actions()[0].menu().actions()
    key = session.leaf_id
    window.controller.select(key)
    window.labels.set(key, "mine")
    assert path.read_bytes() == OLD_FILES["v1-every-case"]  # refused: nothing written
    box = window.upgrade.message_box
    assert box.isVisible() and box.text().startswith("The label was not written.")
    assert "version 1" in box.text() and "new ids" in box.text() and "old.jsonl.v1.bak" in box.text()
    upgrade_button = next(button for button in box.buttons() if box.buttonRole(button) == QMessageBox.ButtonRole.AcceptRole)
    with qtbot.waitSignal(window.controller.changed, check_params_cb=replaced, timeout=20_000):
        upgrade_button.click()
    assert (tmp_path / "old.jsonl.v1.bak").read_bytes() == OLD_FILES["v1-every-case"]
    upgraded = window.controller.session
    assert upgraded.migrated_from is None and upgraded.leaf_id == key
    assert not window.upgrade.action.isEnabled()
    window.labels.set(key, "mine")
    qtbot.waitUntil(lambda: window.controller.session.labels.get(key) == "mine", timeout=20_000)


def test_the_upgrade_is_not_offered_for_a_current_file(qtbot, window, fixture_copy):
    load(qtbot, window, fixture_copy("generated-s1"))
    assert not window.upgrade.action.isEnabled()
