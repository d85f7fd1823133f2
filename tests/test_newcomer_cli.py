"""The command line as a newcomer meets it (issue 25, items 6-9): one line and the right exit code."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from pibrowser.model.library.launch import launch_problem
from pibrowser.cli.commands import COMMANDS
from pibrowser.cli.main import main
from pibrowser.ui.window.x11_check import no_display_message, x11_problem

from .conftest import FIXTURES
from .sessions import linked, message, write


def run(*args, env=None, **more):
    return subprocess.run(
        [sys.executable, "-m", "pibrowser", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
        **more,
    )


def test_a_mistyped_command_names_the_commands_and_exits_2():
    result = run("serach", "prettier")
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "'serach' is neither a file nor a folder nor a command" in lines[0]
    assert "did you mean `pibrowser search`" in lines[0] and "context, tree, diff" in lines[0]


def test_a_missing_file_exits_2_without_opening_a_window(tmp_path):
    result = run(tmp_path / "gone.jsonl", env={"QT_QPA_PLATFORM": "offscreen"})
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1 and "gone.jsonl" in result.stderr


@pytest.fixture
def sessions(tmp_path):
    folder = tmp_path / "sessions"
    folder.mkdir()
    write(folder / "s.jsonl", *linked([{"role": "user", "content": "run prettier", "timestamp": 1}]))
    return folder


@pytest.mark.parametrize(
    "options, message",
    [
        (["--role", "wizard"], "--role: 'wizard' is not a role"),
        (["--since", "yesterday-ish"], "--since: 'yesterday-ish' is not a date"),
        (["--until", "soon"], "--until: 'soon' is not a date"),
        (["--limit", "-3"], "--limit: -3 is not a number of hits"),
        (["--tool", " "], "--tool: give a name"),
        (["--project", ""], "--project: give a name"),
    ],
)
def test_every_search_option_value_is_checked(sessions, tmp_path, options, message):
    result = run("search", "prettier", sessions, *options, env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and message in result.stderr


def test_known_roles_and_aliases_still_search(sessions, tmp_path):
    for role in ("user", "tool", "label"):
        result = run("search", "prettier", sessions, "--role", role, env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
        assert result.returncode == 0, result.stderr


def test_without_a_display_the_window_says_so_in_one_line_naming_every_command():
    message = no_display_message(list(COMMANDS))
    assert x11_problem({}, "linux", lambda name: True, commands=list(COMMANDS)) == message
    result = run(FIXTURES / "blog-example.jsonl", env={"DISPLAY": "", "WAYLAND_DISPLAY": "", "QT_QPA_PLATFORM": ""})
    assert result.returncode == 1 and result.stderr == message + "\n"
    named = result.stderr.split("none: pibrowser ", 1)[1].split(" ", 1)[0].split("|")
    assert named == list(COMMANDS) and {"trace", "composition", "files", "usage", "share", "shares"} <= set(named)


def test_a_screenshot_needs_no_display(tmp_path):
    out = tmp_path / "x.png"
    result = run(FIXTURES / "blog-example.jsonl", "--screenshot", out, env={"DISPLAY": "", "WAYLAND_DISPLAY": "", "QT_QPA_PLATFORM": ""})
    assert result.returncode == 0, result.stderr
    assert out.exists()
    assert "propagateSizeHints" not in result.stderr  # Qt's harmless chatter stays off the terminal


def test_continue_in_pi_is_checked_before_anything_is_written(tmp_path):
    assert launch_problem(env={"PATH": str(tmp_path)}) == "pi is not on PATH"
    (tmp_path / "pi").write_text("#!/bin/sh\n")
    (tmp_path / "pi").chmod(0o755)
    assert launch_problem(env={"PATH": str(tmp_path)}, platform="linux") == "no terminal found (set one in Preferences, or $TERMINAL)"


def test_a_mistyped_option_prints_the_commands_own_usage(capsys):
    with pytest.raises(SystemExit) as ended:
        main(["context", str(FIXTURES / "blog-example.jsonl"), "--formt", "json"])
    assert ended.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: pibrowser context ") and "--leaf ID" in err
    assert "pibrowser context: error: unrecognized arguments: --formt json" in err


@pytest.mark.parametrize(
    "command, words",
    [
        ("label", ["TARGET", "the id of the entry to label", "TEXT", "leave it out", "clear the entry's label"]),
        ("diff", ["LEFT", "RIGHT", "the id of one entry"]),
        ("composition", ["file", "a pi session file", "--leaf ID"]),
        ("extract", ["--leaf ID", "the last entry of the branch to write"]),
    ],
)
def test_every_positional_argument_has_help(capsys, command, words):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = capsys.readouterr().out
    for word in words:
        assert word in out
    section = out.split("positional arguments:\n", 1)[1].split("\n\n", 1)[0]
    assert all(len(line.split(None, 1)) == 2 for line in section.splitlines()), section  # a name, then its help


def test_search_without_pis_folder_names_the_folder(tmp_path):
    missing = tmp_path / "agent"
    result = run("search", "prettier", env={"PI_CODING_AGENT_DIR": str(missing), "XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert result.returncode == 1 and result.stdout == ""
    assert str(missing / "sessions") in result.stderr and "does not exist" in result.stderr and "no hits" not in result.stderr


@pytest.mark.parametrize("command", ["trace", "composition", "files", "timeline"])
def test_every_path_command_takes_leaf_and_still_the_bare_node(capsys, command):
    file = str(FIXTURES / "blog-example.jsonl")
    assert main([command, file, "--leaf", "e5"]) == 0
    by_option = capsys.readouterr().out
    assert main([command, file, "e5"]) == 0  # the form `composition FILE ID` scripts were written for
    assert capsys.readouterr().out == by_option
    assert main([command, file, "--leaf", "e13"]) == 0
    assert (capsys.readouterr().out != by_option) == (command != "files")  # no tool call touched a file on either path
    with pytest.raises(SystemExit) as ended:
        main([command, file, "e5", "--leaf", "e5"])
    assert ended.value.code == 2 and "give it once" in capsys.readouterr().err


def test_extract_takes_leaf_as_the_other_path_commands(tmp_path, capsys):
    file = str(FIXTURES / "blog-example.jsonl")
    assert main(["extract", file, "--leaf", "e5", "--output", str(tmp_path / "a")]) == 0
    (tmp_path / "b").mkdir()
    assert main(["extract", file, "e5", "--output", str(tmp_path / "b")]) == 0
    written = capsys.readouterr().out.splitlines()
    assert len(written) == 2 and all(line.endswith(".jsonl") for line in written)
    with pytest.raises(SystemExit) as ended:
        main(["extract", file])
    assert ended.value.code == 2 and "--leaf ID" in capsys.readouterr().err


def test_composition_text_total_lines_up_with_the_rows(capsys):
    assert main(["composition", str(FIXTURES / "blog-example.jsonl"), "--format", "text"]) == 0
    header, *rows = capsys.readouterr().out.splitlines()
    assert rows[-1].startswith("total")
    chars_end, tokens_end = header.index("chars") + len("chars"), header.index("tokens") + len("tokens")
    for row in rows:
        # Every number ends under its heading, the tokens' decimal point in one column.
        assert row[chars_end - 1].isdigit() and row[chars_end] == " ", row
        assert row[tokens_end - 1].isdigit() and row[tokens_end - 3] == ".", row


def test_one_of_a_thing_is_counted_in_the_singular(tmp_path):
    folder = tmp_path / "sessions"
    folder.mkdir()
    file = folder / "s.jsonl"
    write(file, *linked([{"role": "user", "content": "run prettier", "timestamp": 1}]))
    with file.open("a") as out:
        out.write("not json\n")  # one line pi skips
    listed = run("sessions", folder, env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert listed.returncode == 0, listed.stderr
    assert "1 warning " in listed.stdout and "1 msg " in listed.stdout and "1 leaf " in listed.stdout and "1 session," in listed.stdout
    assert "warnings" not in listed.stdout and "msgs" not in listed.stdout
    context = run("context", file, "--format", "text")
    assert ": 1 message, " in context.stdout.splitlines()[0]


def _deep_branches(path, forks: int):
    """A session where every reply forks: a retry beside it, the conversation going on under it (rails pile up)."""
    items = [message("m0", None, "user", "start", 0)]
    parent = "m0"
    for at in range(1, forks + 1):
        items.append(message(f"r{at}", parent, "assistant", [{"type": "text", "text": f"retry {at}"}], 2 * at))
        items.append(message(f"m{at}", parent, "assistant", [{"type": "text", "text": f"reply {at}"}], 2 * at + 1))
        parent = f"m{at}"
    return write(path, *items)


def test_tree_text_of_a_deep_branching_session_keeps_its_lines_short(tmp_path, capsys):
    from pibrowser.model.text.tree_text import RAIL_LEVELS

    file = _deep_branches(tmp_path / "deep.jsonl", 80)
    assert main(["tree", str(file)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 161
    # The rails take at most RAIL_LEVELS levels of three columns, after a marker of the levels left out.
    rails = [len(line) - len(line.split(" ", 1)[1].lstrip("│├└─ ")) for line in lines if line.startswith("⋯")]
    assert rails and max(rails) <= 3 * RAIL_LEVELS + len("⋯160 ") and max(len(line) for line in lines) < 200
    marked = [line for line in lines if line.startswith("⋯")]
    assert len(marked) > 60 and all(line.split(" ", 1)[0][1:].isdigit() for line in marked)
    # Every entry still on its own line, in pi's order, the deepest reply last before its retries unwind.
    shown = [re.sub(r"^⋯\d+ ", "", line).lstrip("│├└─ ").split(" ", 1)[0] for line in lines]
    assert sorted(shown) == sorted(["m0", *(f"m{at}" for at in range(1, 81)), *(f"r{at}" for at in range(1, 81))])
