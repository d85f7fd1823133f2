"""The command line as a newcomer meets it (issue 25, items 6-9): one line and the right exit code."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from pibrowser.model.library.launch import launch_problem
from pibrowser.ui.window.x11_check import NO_DISPLAY, x11_problem

from .conftest import FIXTURES
from .sessions import linked, write


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
    assert len(lines) == 1 and "'serach' is neither a file or folder nor a command" in lines[0]
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


def test_without_a_display_the_window_says_so_in_one_line():
    assert x11_problem({}, "linux", lambda name: True) == NO_DISPLAY
    result = run(FIXTURES / "blog-example.jsonl", env={"DISPLAY": "", "WAYLAND_DISPLAY": "", "QT_QPA_PLATFORM": ""})
    assert result.returncode == 1 and result.stderr == NO_DISPLAY + "\n"


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
