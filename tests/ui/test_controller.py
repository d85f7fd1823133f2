"""The controller: loads off the GUI thread, follows appends, announces every change, reports failures."""

import orjson
import pytest

from pibrowser.model.tokens.usage import path_usage
from pibrowser.model.workspace import APPEND_IN_PLACE_LIMIT

from ..conftest import FIXTURES, open_session
from ..sessions import append, chain, message, write
from ..changes import appended, replaced


def test_open_selects_the_current_leaf_and_resolves(qtbot, controller):
    session = open_session(qtbot, controller, FIXTURES / "generated-s2.jsonl", timeout=20_000)
    assert controller.selected == session.leaf_id
    assert controller.context(session.leaf_id).messages
    assert set(controller.provenance(session.leaf_id)) == set(session.path_to(session.leaf_id))


def test_the_figures_are_folded_once_the_session_shows_and_then_the_lines_are_checked(qtbot, controller, tmp_path):
    items, parent = chain(40), "m5"
    for index in range(30):  # a second branch, written last: the current leaf is on it
        items.append(message(f"b{index}", parent, "user", f"again {index}", second=100 + index))
        parent = f"b{index}"
    changes = []
    controller.changed.connect(changes.append)
    with qtbot.waitSignal(controller.changed, check_params_cb=lambda change: change.figures, timeout=20_000):
        session = open_session(qtbot, controller, write(tmp_path / "deep.jsonl", *items))
    assert not controller.working_ahead and session.leaf_id == "b29"
    assert [change for change in changes if change.figures] == [changes[-1]]
    deep = "m37"  # on the first branch: folded from where it leaves the spine
    controller.select(deep)
    stats = controller.stats(deep)
    assert stats.usage == path_usage(session.path_entries(deep)).total and stats.usage is not None
    assert controller.wait_for_jobs(20_000)  # the check of every line ran after the fold


def test_before_the_fold_the_header_has_no_usage_and_gets_it_when_folded(qtbot, controller, monkeypatch):
    from pibrowser.model.workspace import Workspace

    started = []
    monkeypatch.setattr(Workspace, "fold", lambda self, session, pace=None: started.append(session) or False)
    session = open_session(qtbot, controller, FIXTURES / "generated-s5.jsonl", timeout=20_000)
    qtbot.waitUntil(lambda: not controller.working_ahead, timeout=20_000)
    assert started == [session] and controller.stats(session.leaf_id).usage is None
    assert controller.stats(session.leaf_id).messages == len(controller.context(session.leaf_id).messages)


def test_load_failure_is_one_message_naming_the_file(qtbot, controller, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type":"message","id":"x"}\n')
    with qtbot.waitSignal(controller.loadFailed, timeout=10000) as blocker:
        controller.open(bad)
    assert blocker.args[0].startswith(str(bad)) and "not a pi session" in blocker.args[0]


def test_progress_is_reported_while_loading(qtbot, controller, tmp_path):
    path = write(tmp_path / "big.jsonl", *chain(20000))
    seen = []
    controller.progress.connect(lambda done, total: seen.append(total))
    open_session(qtbot, controller, path, timeout=20_000)
    assert seen and seen[-1] > 20000


def test_appended_entries_are_linked_and_selection_follows_the_leaf(qtbot, controller, tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(3))
    session = open_session(qtbot, controller, path, timeout=20_000)
    append(path, message("m3", "m2", "assistant", [{"type": "text", "text": "new"}], second=9))
    with qtbot.waitSignal(controller.changed, check_params_cb=appended, timeout=10000) as blocker:
        pass
    assert blocker.args[0].appended == ("m3",)
    assert controller.session is session and "m3" in session.entries
    assert controller.selected == "m3"


def test_a_single_append_is_read_on_the_first_change_not_after_the_quiet_time(qtbot, controller, tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(3))
    open_session(qtbot, controller, path, timeout=20_000)
    quiet_time_running = []
    controller.changed.connect(lambda change: quiet_time_running.append(controller._follow_timer.isActive()))
    with qtbot.waitSignal(controller.changed, check_params_cb=appended, timeout=10000):
        with open(path, "ab") as handle:
            handle.write(orjson.dumps(message("m3", "m2", "assistant", [{"type": "text", "text": "new"}], second=9)) + b"\n")
    # Read while the burst's quiet time was still running: the debounce did not delay it.
    assert quiet_time_running == [True]


def test_an_append_soon_after_another_is_read_at_once_not_after_the_quiet_time(qtbot, controller, tmp_path):
    # pi writes a tool call, then its result a moment later: the second line must not wait
    # for the burst to go quiet.
    path = write(tmp_path / "s.jsonl", *chain(3))
    open_session(qtbot, controller, path, timeout=20_000)
    quiet_time_running = []
    controller.changed.connect(lambda change: quiet_time_running.append(controller._follow_timer.isActive()))
    for index, parent in ((3, "m2"), (4, "m3")):
        with qtbot.waitSignal(controller.changed, check_params_cb=appended, timeout=10000):
            append(path, message(f"m{index}", parent, "user", f"line {index}", second=9 + index))
    assert quiet_time_running == [True, True]
    assert controller.session.leaf_id == "m4"


def test_a_rewritten_file_is_reloaded(qtbot, controller, tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(3))
    open_session(qtbot, controller, path, timeout=20_000)
    with qtbot.waitSignal(controller.changed, check_params_cb=replaced, timeout=10000):
        write(path, *chain(2))
    assert list(controller.session.entries) == ["m0", "m1"]


def test_a_file_deleted_and_written_again_is_followed_again(qtbot, controller, tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(3))
    open_session(qtbot, controller, path, timeout=20_000)
    with qtbot.waitSignal(controller.loadFailed, timeout=10000):
        path.unlink()  # the reload the change asks for finds no file
    assert controller.failure_is_background()
    with qtbot.waitSignal(controller.changed, check_params_cb=replaced, timeout=10000):
        write(path, *chain(4))
    assert list(controller.session.entries) == ["m0", "m1", "m2", "m3"]
    with qtbot.waitSignal(controller.changed, check_params_cb=appended, timeout=10000) as blocker:
        append(path, message("m4", "m3", "user", "and on", second=9))
    assert blocker.args[0].appended == ("m4",)


@pytest.mark.parametrize("size", [10, APPEND_IN_PLACE_LIMIT + 1024])
def test_following_a_small_or_a_big_append_ends_on_the_new_leaf(qtbot, controller, tmp_path, size):
    """A big append is read by a full reload in the background; the selection follows the head all the same."""
    path = write(tmp_path / "s.jsonl", *chain(3))
    session = open_session(qtbot, controller, path, timeout=20_000)
    controller.set_compare("m0", "m2")
    wanted = appended if size < APPEND_IN_PLACE_LIMIT else replaced
    with qtbot.waitSignal(controller.changed, check_params_cb=wanted, timeout=20000):
        with open(path, "ab") as handle:
            handle.write(orjson.dumps(message("m3", "m2", "assistant", [{"type": "text", "text": "x" * size}], second=9)) + b"\n")
            handle.write(orjson.dumps(message("m4", "m3", "user", second=10)) + b"\n")
    assert (controller.session is session) == (size < APPEND_IN_PLACE_LIMIT)
    assert controller.session.leaf_id == controller.selected == "m4"
    assert controller.compared == ("m0", "m2")


def test_a_failed_open_keeps_the_shown_session(qtbot, controller, tmp_path):
    good = write(tmp_path / "good.jsonl", *chain(2))
    shown = open_session(qtbot, controller, good, timeout=20_000)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("nonsense\n")
    with qtbot.waitSignal(controller.loadFailed, timeout=10000):
        controller.open(bad)
    assert controller.session is shown and not controller.failure_is_background()
    with qtbot.waitSignal(controller.changed, check_params_cb=replaced, timeout=10000):
        controller.reload()
    assert controller.session.path == good


def test_a_line_that_only_looked_whole_triggers_a_strict_reload(qtbot, controller, tmp_path):
    cut = b'{"type":"message","id":"x","parentId":"m1","timestamp":"2026-10-30T09:00:09.000Z","message":{"role":"user","content":{"a":1}'
    path = write(tmp_path / "s.jsonl", *chain(2), cut, message("m2", "m1", "user", second=5))
    first = open_session(qtbot, controller, path, timeout=20_000)
    assert "x" in first.entries
    with qtbot.waitSignal(controller.changed, check_params_cb=replaced, timeout=10000):
        pass
    assert "x" not in controller.session.entries
    assert any(p.line == 4 for p in controller.session.problems)
