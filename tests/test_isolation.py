"""The suite never touches the user's own files: every folder pibrowser writes to resolves under the test HOME."""

import os
import pwd
from pathlib import Path

from pibrowser.cli.desktop_entry import data_home
from pibrowser.model.library.discovery import agent_dir, cache_dir


def test_home_and_every_xdg_folder_are_the_suites_own():
    home = Path(os.environ["HOME"])
    real = Path(pwd.getpwuid(os.getuid()).pw_dir)
    assert home != real
    for name in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
        assert Path(os.environ[name]).is_relative_to(home), name
    runtime = Path(os.environ["XDG_RUNTIME_DIR"])
    assert not runtime.is_relative_to(real) and runtime.stat().st_mode & 0o777 == 0o700


def test_what_pibrowser_writes_resolves_under_the_test_home():
    home = Path(os.environ["HOME"])
    assert cache_dir().is_relative_to(home)
    assert agent_dir().is_relative_to(home)
    assert data_home().is_relative_to(home)


def test_qt_settings_go_to_the_test_home(qapp, own_home):
    from PySide6.QtCore import QSettings

    settings = QSettings("pibrowser", "pibrowser")
    assert Path(settings.fileName()).is_relative_to(own_home)


def test_each_test_has_a_home_of_its_own(own_home, tmp_path_factory):
    assert Path(os.environ["HOME"]) == own_home
    assert own_home.is_relative_to(tmp_path_factory.getbasetemp())
