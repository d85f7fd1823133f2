"""Continue in pi: the terminal command for each terminal, built with a fake `pi` on PATH."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from pibrowser.model.library.launch import LaunchError, find_terminal, launch_command, start_detached

SESSION = '/home/me/.pi/agent/sessions/--x--/2026-12-03T09-00-00-000Z_it\'s a "file".jsonl'


def fake(folder: Path, name: str, python: str | None = None) -> Path:
    """An executable that does nothing, or runs the given Python."""
    path = folder / name
    path.write_text(f"#!{sys.executable}\n{python}" if python else "#!/bin/sh\nexit 0\n")
    path.chmod(0o755)
    return path


@pytest.fixture
def bin_dir(tmp_path):
    folder = tmp_path / "bin"
    folder.mkdir()
    fake(folder, "pi")
    return folder


def env_with(bin_dir: Path, **extra: str) -> dict[str, str]:
    return {"PATH": str(bin_dir), **extra}


@pytest.mark.parametrize(
    ("terminal", "expected"),
    [
        ("x-terminal-emulator", ["-e", "PI", "--session", SESSION]),
        ("gnome-terminal", ["--working-directory=CWD", "--", "PI", "--session", SESSION]),
        ("konsole", ["--workdir", "CWD", "-e", "PI", "--session", SESSION]),
        ("xterm", ["-e", "PI", "--session", SESSION]),
    ],
)
def test_each_fallback_terminal(bin_dir, tmp_path, terminal, expected):
    fake(bin_dir, terminal)
    launch = launch_command(SESSION, str(tmp_path), env=env_with(bin_dir), platform="linux")
    pi = str(bin_dir / "pi")
    assert launch.argv == [str(bin_dir / terminal), *[pi if part == "PI" else part.replace("CWD", str(tmp_path)) for part in expected]]
    assert launch.cwd == str(tmp_path)


def test_fallback_order_and_terminal_variable(bin_dir):
    for name in ("xterm", "konsole", "gnome-terminal", "x-terminal-emulator"):
        fake(bin_dir, name)
        assert find_terminal(None, env_with(bin_dir), "linux") == [str(bin_dir / name)]
    fake(bin_dir, "kitty")
    assert find_terminal(None, env_with(bin_dir, TERMINAL="kitty"), "linux") == [str(bin_dir / "kitty")]
    # The configured one wins over $TERMINAL; its own arguments are kept.
    fake(bin_dir, "alacritty")
    assert find_terminal("alacritty -e", env_with(bin_dir, TERMINAL="kitty"), "linux") == [str(bin_dir / "alacritty"), "-e"]
    # A configured terminal that is not installed falls back to the next choice.
    assert find_terminal("nonesuch", env_with(bin_dir, TERMINAL="kitty"), "linux") == [str(bin_dir / "kitty")]


def test_terminal_variable_and_configured_commands(bin_dir, tmp_path):
    fake(bin_dir, "kitty")
    fake(bin_dir, "alacritty")
    pi = str(bin_dir / "pi")
    launch = launch_command(SESSION, str(tmp_path), env=env_with(bin_dir, TERMINAL="kitty"), platform="linux")
    assert launch.argv == [str(bin_dir / "kitty"), "--directory", str(tmp_path), pi, "--session", SESSION]
    launch = launch_command(SESSION, None, configured="alacritty -e", env=env_with(bin_dir), platform="linux")
    assert launch.argv == [str(bin_dir / "alacritty"), "-e", pi, "--session", SESSION]
    assert launch.cwd is None


def test_macos_opens_terminal_app_with_a_launcher(bin_dir, tmp_path):
    launch = launch_command(SESSION, str(tmp_path), env=env_with(bin_dir), platform="darwin")
    assert launch.argv[:3] == ["open", "-a", "Terminal"] and len(launch.argv) == 4
    launcher = Path(launch.argv[3])
    try:
        assert launcher.suffix == ".command" and os.access(launcher, os.X_OK)
        script = launcher.read_text()
        # Run it with the shell it names: pi receives the file name as one argument, quotes and all.
        fake(bin_dir, "pi", f"import json, os, sys\njson.dump([os.getcwd(), sys.argv[1:]], open({str(tmp_path / 'got.json')!r}, 'w'))\n")
        os.spawnv(os.P_WAIT, "/bin/sh", ["/bin/sh", str(launcher)])
        assert json.loads((tmp_path / "got.json").read_text()) == [str(tmp_path), ["--session", SESSION]]
        assert script.startswith("#!/bin/sh\n")
    finally:
        launcher.unlink()


def test_missing_cwd_is_not_used(bin_dir, tmp_path):
    fake(bin_dir, "gnome-terminal")
    launch = launch_command(SESSION, str(tmp_path / "gone"), env=env_with(bin_dir), platform="linux")
    assert launch.cwd is None and launch.argv[1] == "--"


def test_missing_pi_or_terminal_is_one_line(bin_dir, tmp_path):
    with pytest.raises(LaunchError, match="^no terminal found .*the new session is at /x.jsonl$"):
        launch_command("/x.jsonl", None, env=env_with(bin_dir), platform="linux")
    (bin_dir / "pi").unlink()
    fake(bin_dir, "xterm")
    with pytest.raises(LaunchError, match="^pi is not on PATH; the new session is at /x.jsonl$") as error:
        launch_command("/x.jsonl", None, env=env_with(bin_dir), platform="linux")
    assert "\n" not in str(error.value)


def test_started_detached_with_every_argument_intact(bin_dir, tmp_path):
    record = tmp_path / "terminal.json"
    fake(
        bin_dir,
        "xterm",
        f"import json, os, sys\njson.dump([os.getcwd(), sys.argv[1:], os.getsid(0) == os.getpid()], open({str(record)!r}, 'w'))\n",
    )
    launch = launch_command(SESSION, str(tmp_path), env=env_with(bin_dir), platform="linux")
    process = start_detached(launch)
    assert process.wait(timeout=60) == 0
    cwd, argv, leads_its_session = json.loads(record.read_text())
    assert cwd == str(tmp_path) and argv == ["-e", str(bin_dir / "pi"), "--session", SESSION]
    assert leads_its_session  # a session of its own: closing pibrowser does not take it down


def test_continue_leaves_the_file_and_says_why_when_pi_is_missing(tmp_path):
    from pibrowser.model.library.launch import continue_in_pi

    written = tmp_path / "new.jsonl"
    written.write_text("{}\n")
    result = continue_in_pi(written, None, env={"PATH": str(tmp_path)}, platform="linux")
    assert result.launch is None and result.problem == f"pi is not on PATH; the new session is at {written}"
    assert written.read_text() == "{}\n"


def test_x_terminal_emulator_link_runs_the_terminal_it_names(bin_dir, tmp_path):
    real = fake(tmp_path, "konsole")
    (bin_dir / "x-terminal-emulator").symlink_to(real)
    launch = launch_command(SESSION, str(tmp_path), env=env_with(bin_dir), platform="linux")
    assert launch.argv == [str(real), "--workdir", str(tmp_path), "-e", str(bin_dir / "pi"), "--session", SESSION]
