"""What the window says about files it cannot show and about tiny figures (issue 25, item 5)."""

from __future__ import annotations

import pytest

from pibrowser.model.library.session_list import SessionSummary
from pibrowser.ui.sessions.sessions_panel import _session_item
from pibrowser.ui.timeline.plot import axis_label, axis_ticks
from pibrowser.ui.window.problems_panel import reason_first

pytestmark = pytest.mark.usefixtures("isolated_settings")


def test_a_file_that_is_not_a_session_says_so_once():
    summary = SessionSummary("/p/x.jsonl", 3, 0, problem="not a pi session: no line parses as JSON")
    tip = _session_item(summary).toolTip(0)
    assert "Not a pi session: no line parses as JSON" in tip and tip.lower().count("not a pi session") == 1


@pytest.mark.parametrize("top", [0.9, 1, 1.5, 2, 3, 7, 12, 99, 1_050, 10_600, 123_456, 2.5e6])
def test_the_strips_axis_never_repeats_a_label_nor_shows_a_fraction(top):
    ticks = axis_ticks(top)
    labels = [axis_label(value) for value in ticks]
    assert len(labels) == len(set(labels))
    assert all(isinstance(value, int) and 0 < value <= top for value in ticks)
    assert len(ticks) >= min(3, int(top))


@pytest.mark.parametrize("top", [3.3e16, 1e22, 1e300, 1.7e308])
def test_the_strips_axis_on_a_figure_past_what_reads_has_a_few_ticks_in_powers_of_ten(top):
    # A usage of 1e300: the axis stepped through every multiple of a capped step (the window froze).
    labels = [axis_label(value) for value in axis_ticks(top)]
    assert 3 <= len(labels) <= 7 and len(labels) == len(set(labels))
    assert all("e" in label and len(label) <= 6 for label in labels)


@pytest.mark.parametrize("top", [float("inf"), float("-inf"), float("nan")])
def test_the_strips_axis_has_no_ticks_for_what_is_not_a_number(top):
    # 1e400 (Infinity): OverflowError in the strip's paint, then a crash.
    assert axis_ticks(top) == []


def test_the_warnings_list_puts_the_reason_before_a_long_path(tmp_path):
    path = tmp_path / ("deep" * 30) / "s.jsonl"
    assert reason_first(f"{path}: not a pi session: no line parses as JSON", path) == f"not a pi session: no line parses as JSON — {path}"


def test_a_path_of_one_entry_reads_one_entry(qtbot, window, tmp_path):
    from ..sessions import message, write
    from .conftest import load

    path = write(tmp_path / "one.jsonl", message("u1", None, "user", "hello"))
    session = load(qtbot, window, path)
    strip = window.timeline
    qtbot.waitUntil(lambda: bool(strip.series) and strip.series[0].leaf == session.leaf_id, timeout=20_000)
    assert strip.readout().startswith("1 entry · now ")


def test_export_tree_image_proposes_pictures_then_the_last_folder_used(qtbot, window, fixture_copy, tmp_path):
    from pathlib import Path

    from pibrowser.ui.window.main_window import export_folder

    from .conftest import load

    session_file = fixture_copy("generated-s1")
    load(qtbot, window, session_file)
    out = tmp_path / "images"
    out.mkdir()

    def save_as(name: Path) -> Path:
        """File ▸ Export Tree Image…: the dialog shows (and nothing waits on it); what it proposed."""
        window.export_action.trigger()
        dialog = window.file_dialog
        assert dialog.isVisible() and dialog.acceptMode() == dialog.AcceptMode.AcceptSave
        proposed = Path(dialog.directory().absolutePath()) / Path(dialog.selectedFiles()[0]).name
        dialog.selectFile(str(name))
        dialog.accept()
        return proposed

    proposed = Path(export_folder())  # Pictures, or home where there is none
    asked = save_as(out / "tree.png")
    assert asked == proposed / session_file.stem != out / session_file.stem
    assert session_file.parent not in asked.parents  # not beside the session, in pi's folder
    assert (out / "tree.png").exists() and window.status_label.text() == f"Tree image written to {out / 'tree.png'}"
    assert save_as(out / "again.svg") == out / session_file.stem  # the folder used last
    assert (out / "again.svg").read_bytes().startswith(b"<?xml")
