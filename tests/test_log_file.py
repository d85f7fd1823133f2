"""The log: a rotating file under $XDG_STATE_HOME/pibrowser/, errors of ours in it with their tracebacks, nothing printed."""

import logging
import os
import subprocess
import sys

import orjson

from pibrowser import log_file
from pibrowser.log_file import log_path, read_log, start_logging
from pibrowser.model.library.context_window import context_window
from pibrowser.model.library.session_list import SummaryCache

from .sessions import chain, write


def test_the_log_lives_under_xdg_state_home_or_the_local_state_folder(tmp_path):
    assert log_path({"XDG_STATE_HOME": str(tmp_path)}) == tmp_path / "pibrowser" / "pibrowser.log"
    assert log_path({}) == log_path({"XDG_STATE_HOME": "relative/ignored"})
    assert str(log_path({})).endswith(os.path.join(".local", "state", "pibrowser", "pibrowser.log"))


def test_a_bug_in_a_command_is_one_line_on_stderr_and_a_traceback_in_the_log(tmp_path):
    session = write(tmp_path / "some.jsonl", *chain(2))  # the graph reads the whole session: Session.load
    code = (
        "import pibrowser.cli.main as m\n"
        "from pibrowser.model.session.session import Session\n"
        "def broken(*args, **kwargs): raise KeyError('boom')\n"
        "Session.load = broken\n"
        f"raise SystemExit(m.main(['graph', {str(session)!r}]))\n"
    )
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path)}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60, env=env)
    assert result.returncode == 1
    assert result.stderr.decode().splitlines() == [f"pibrowser: {session}: cannot be processed (KeyError: 'boom')"]
    text = (tmp_path / "pibrowser" / "pibrowser.log").read_text()
    assert "WARNING pibrowser.cli.main" in text and "Traceback" in text and "KeyError: 'boom'" in text


def test_a_log_that_cannot_be_written_prints_nothing_and_the_run_goes_on(tmp_path):
    blocked = tmp_path / "state"
    blocked.write_text("a file where the folder should be")
    code = (
        "import logging, pibrowser.log_file as f\nprint(f.start_logging())\nlogging.getLogger('pibrowser.x').error('nobody reads this')\n"
    )
    env = {**os.environ, "XDG_STATE_HOME": str(blocked)}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60, env=env)
    assert result.returncode == 0 and result.stdout == b"None\n" and result.stderr == b""


def test_the_log_rotates_and_reads_back_its_last_whole_lines(tmp_path, monkeypatch):
    logger = logging.getLogger("pibrowser")
    monkeypatch.setattr(logger, "handlers", [])  # this process's own log, if any, stays as it is
    monkeypatch.setattr(log_file, "MAX_BYTES", 2000)
    path = start_logging(tmp_path / "state" / "pibrowser.log")
    try:
        assert path == tmp_path / "state" / "pibrowser.log" and start_logging() == path  # once per process
        for number in range(100):
            logging.getLogger("pibrowser.test").warning("line %d <b>not markup</b>", number)
    finally:
        for handler in logger.handlers:
            handler.close()
    assert sorted(name.name for name in path.parent.iterdir()) == ["pibrowser.log", *(f"pibrowser.log.{n}" for n in (1, 2, 3))]
    assert path.stat().st_size <= 2000
    text = read_log(path, limit=300)
    assert text.endswith("line 99 <b>not markup</b>\n") and len(text) <= 300
    assert text.splitlines()[0].split()[2] == "WARNING"  # starts on a whole line


def test_a_damaged_models_file_is_logged_and_its_windows_are_unknown(tmp_path, caplog):
    models = tmp_path / "models.json"
    models.write_text('{"providers": {"p": {"models": [{"id": "m", "contextWindow": 5}]}}} // a comment')
    with caplog.at_level(logging.INFO, logger="pibrowser"):
        assert context_window({"provider": "p", "modelId": "m"}, models) is None
        assert context_window({"provider": "p", "modelId": "m"}, tmp_path / "none.json") is None
    assert [record.getMessage().split(" cannot be read")[0] for record in caplog.records] == [str(models)]


def test_a_session_list_cache_that_cannot_be_read_or_written_is_logged(tmp_path, caplog):
    cache_file = tmp_path / "sessions.json"
    cache_file.write_bytes(b"{damaged")
    with caplog.at_level(logging.INFO, logger="pibrowser"):
        cache = SummaryCache(cache_file)
    assert any("cannot be read" in record.getMessage() for record in caplog.records)
    caplog.clear()
    blocked = tmp_path / "blocked"
    blocked.write_text("")
    cache = SummaryCache(blocked / "sessions.json")
    session = tmp_path / "s.jsonl"
    session.write_bytes(
        orjson.dumps({"type": "session", "version": 3, "id": "x", "timestamp": "2026-01-01T00:00:00.000Z", "cwd": "/"}) + b"\n"
    )
    assert cache.summary(session) is not None
    with caplog.at_level(logging.INFO, logger="pibrowser"):
        cache.save()
    warnings = [record.getMessage() for record in caplog.records if record.levelno == logging.WARNING]
    assert len(warnings) == 1 and "cannot be written" in warnings[0]


def _log_in_a_child(tmp_path, body: str, log: str | None = None) -> subprocess.CompletedProcess:
    code = "import logging, pibrowser.log_file as f\nprint(f.start_logging())\nlogger = logging.getLogger('pibrowser.x')\n" + body
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60, env=env)


def test_session_text_cannot_forge_a_log_line_or_swell_the_file(tmp_path):
    forged = "m1\n2026-01-01 00:00:00,000 CRITICAL pibrowser.x [MainThread] FORGED\r\x1b[2J"
    body = (
        f"logger.warning('no entry %s', {forged!r})\n"
        "logger.warning('huge id %s', 'x' * 10_000_000)\n"
        "logger.warning('still %s', '\\u00e9' * 5_000_000)\n"
        "try:\n    raise KeyError('k\\n2026-01-01 00:00:00,000 CRITICAL pibrowser.x [MainThread] FORGED AGAIN')\n"
        "except KeyError:\n    logger.exception('failed')\n"
    )
    result = _log_in_a_child(tmp_path, body)
    assert result.returncode == 0 and result.stderr == b"", result.stderr.decode()
    folder = tmp_path / "state" / "pibrowser"
    sizes = {path.name: path.stat().st_size for path in folder.iterdir()}
    assert all(size <= log_file.MAX_BYTES for size in sizes.values()) and sum(sizes.values()) < 400_000, sizes
    text = (folder / "pibrowser.log").read_text()
    records = [line for line in text.splitlines() if not line.startswith("    ")]
    assert [line.split()[2] for line in records] == ["WARNING", "WARNING", "WARNING", "ERROR"], records
    assert "FORGED" in records[0] and "\u240a" in records[0] and "\x1b" not in text and "\r" not in text
    assert "FORGED AGAIN" in text and "Traceback" in text


def test_a_full_disk_under_the_log_prints_nothing_and_is_noted_once(tmp_path):
    folder = tmp_path / "state" / "pibrowser"
    folder.mkdir(parents=True)
    (folder / "pibrowser.log").symlink_to("/dev/full")  # every write: no space left on the device
    body = "for n in range(3):\n    logger.error('record %d', n)\nprint(f.trouble())\n"
    result = _log_in_a_child(tmp_path, body)
    assert result.returncode == 0 and result.stderr == b"", result.stderr.decode()
    assert result.stdout.decode().splitlines()[1].endswith("pibrowser.log: No space left on device")
