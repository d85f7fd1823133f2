"""Broken and hostile files: the CLI loads what it can and names file and line, or refuses
with one clear line; never a traceback, a hang, or a changed byte."""

import subprocess

import orjson
import pytest

from pibrowser.cli.main import main
from pibrowser.model import Session, SessionLoadError, resolve

from .cli_run import run_process
from .consistency import check_session
from .hostile import CORPUS, LOADABLE, REFUSED, capped_memory, digest, make, refuse_to_read, special_file
from .sessions import chain, write


def cli(*args, timeout=60):
    return run_process(*args, timeout=timeout, preexec_fn=capped_memory)


def test_corpus_is_classified():
    assert set(CORPUS) == LOADABLE | REFUSED


@pytest.mark.parametrize("name", sorted(LOADABLE))
def test_loadable_files_resolve_every_node_in_every_form(tmp_path, name):
    path = make(tmp_path, name)
    before = digest(path)
    for lazy in (True, False):
        check_session(Session.load(path, lazy=lazy), strict=not lazy)
    assert digest(path) == before


CLI_FORMS = (
    ("context", "--all"),
    ("context", "--all", "--format", "markdown"),
    ("tree",),
    ("tree", "--format", "json"),
)


@pytest.mark.parametrize("name", sorted(LOADABLE - {"huge_line"}))
def test_cli_reports_problems_with_file_and_line_and_exits_0(tmp_path, name, capsys):
    # In this process (a process per command cost the suite a minute): an exception that escaped
    # would fail the test itself; the process as a whole is run below.
    path = make(tmp_path, name)
    before = digest(path)
    problems = bool(Session.load(path, lazy=False).problems)
    for command, *rest in CLI_FORMS:
        code = main([command, str(path), *rest])
        err = capsys.readouterr().err
        assert code == 0, err
        assert bool(err) == problems, err  # each problem is reported, and nothing when there is none
        for line in err.splitlines():
            assert line.startswith(f"{path}:"), line
    assert digest(path) == before


@pytest.mark.parametrize("name", ["invalid_utf8", "cycle", "orphans"])
def test_the_cli_process_reports_problems_in_lines_naming_the_file(tmp_path, name):
    path = make(tmp_path, name)
    for command, *rest in (CLI_FORMS[0], CLI_FORMS[3]):
        result = cli(command, path, *rest)
        err = result.stderr.decode()
        assert result.returncode == 0 and err and "Traceback" not in err, err
        assert all(line.startswith(f"{path}:") for line in err.splitlines()), err


def test_cli_handles_a_50_mb_line_quickly(tmp_path):
    path = make(tmp_path, "huge_line")
    result = cli("context", path, "--leaf", "after", timeout=60)
    assert result.returncode == 0
    assert len(orjson.loads(result.stdout)["messages"]) == 4


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_unloadable_files_are_refused_with_one_line(tmp_path, name):
    path = make(tmp_path, name)
    with pytest.raises(SessionLoadError) as error:
        Session.load(path)
    assert str(path) in str(error.value)
    result = cli("context", path)
    err = result.stderr.decode()
    assert result.returncode == 1
    assert err.count("\n") == 1 and err.startswith(f"pibrowser: {path}: ") and "Traceback" not in err


@pytest.mark.parametrize("kind, named", [("fifo", "a FIFO"), ("device", "a device")])
def test_a_file_that_is_not_regular_is_refused_at_once_in_one_line(tmp_path, kind, named):
    # A FIFO made `open` wait for a writer forever; /dev/zero was read until memory ran out.
    path = special_file(tmp_path, kind)
    for args in (("context", path), ("context", path, "--all"), ("tree", path), ("label", path, "m1", "x"), ("extract", path, "m1")):
        try:
            result = cli(*args, timeout=60)
        except subprocess.TimeoutExpired:
            pytest.fail(f"pibrowser {args[0]} waited on {kind}")
        assert result.returncode == 1, result.stderr.decode()
        assert result.stderr.decode() == f"pibrowser: {path}: is {named}, not a session file\n"
        assert result.stdout == b""


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_listed_folder_that_is_not_one_is_refused_in_one_line(tmp_path, kind):
    path = special_file(tmp_path, kind)
    for args in (("sessions", path), ("search", "word", path)):
        result = cli(*args, timeout=60)
        assert result.returncode == 1 and result.stderr.decode().startswith(f"pibrowser: {path}: ")
        assert result.stderr.decode().count("\n") == 1


def test_cli_refuses_an_unreadable_file_in_one_line(tmp_path, monkeypatch, capsys):
    path = write(tmp_path / "locked.jsonl", *chain(2))
    refuse_to_read(monkeypatch, path)
    assert main(["context", str(path)]) == 1
    err = capsys.readouterr().err
    assert err == f"pibrowser: {path}: cannot be read: permission denied\n"


def test_specific_problems_are_named(tmp_path):
    def reasons(name):
        session = Session.load(make(tmp_path, name), lazy=False)
        return {p.line: p.reason for p in session.problems}

    assert "incomplete last line" in reasons("truncated_last_line")[6]
    assert "cycle" in reasons("cycle")[3]
    assert "its own parent" in reasons("own_parent")[2]
    assert "names no entry" in reasons("orphans")[4]
    assert "duplicate id" in reasons("duplicate_ids")[5]
    assert "invalid UTF-8" in reasons("invalid_utf8")[4]
    assert "names no entry" in reasons("labels_missing_targets")[4]
    assert "is a number, not a string" in reasons("wrong_types")[15]


def test_wrong_types_are_passed_through_as_pi_would(tmp_path):
    session = Session.load(make(tmp_path, "wrong_types"))
    context = resolve(session, "e")
    # Stored messages are sent as stored, whatever their shape; a null message gives nothing.
    assert context.messages[:3] == [{"role": "user", "content": 42}, {"role": "wizard", "content": {"odd": True}}, "just a string"]
    assert len(context.messages) == 4 and context.model == {"provider": 3}
    context = resolve(session, "m")
    # The compaction's firstKeptEntryId names nothing: checkpoint, summary, then what follows.
    assert context.messages[0] == "sys"
    assert context.messages[1] == {"role": "compactionSummary", "summary": None, "timestamp": 1767225600000}
    assert context.thinking_level == {"deep": 1}
    assert context.model == {}


PATH_COMMANDS = [
    ("timeline",),
    ("timeline", "--format", "csv"),
    ("trace",),
    ("trace", "--format", "text"),
    ("composition",),
    ("files",),
    ("graph",),
    ("graph", "--format", "json"),
    ("graph", "--format", "gexf"),
    ("graph", "--format", "gml"),
]


@pytest.mark.parametrize("name", sorted(LOADABLE - {"huge_line"}))
def test_every_command_answers_for_a_file_that_loads(tmp_path, name, capsys):
    # An object for a role or a type made timeline, composition and graph fail ("cannot be processed").
    path = make(tmp_path, name)
    for command in PATH_COMMANDS:
        assert main([command[0], str(path), *command[1:]]) == 0, capsys.readouterr().err
        err = capsys.readouterr().err
        assert "cannot be processed" not in err and "Traceback" not in err
