"""What the window tests share: settings of their own, a window that is shown but not on screen, a big image."""

import base64
import os

import pytest
import shiboken6
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QSettings, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from pibrowser.ui.control.controller import SessionController
from pibrowser.ui.window.main_window import MainWindow
from ..changes import replaced


@pytest.fixture
def isolated_settings(qapp, tmp_path, monkeypatch):
    # Recent files, layout and theme go to a throwaway settings file, the app's files to a
    # throwaway data folder, and no real sessions are found.
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    palette = QApplication.palette()
    yield
    QApplication.setPalette(palette)  # the theme is the application's: leave the next test the palette it had


@pytest.fixture
def window(qtbot, isolated_settings):
    window = MainWindow(restore_layout=False)
    window.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)
    qtbot.addWidget(window)
    window.show()
    return window


def window_of(qtbot, size: tuple[int, int]) -> MainWindow:
    """A fresh window of this size as the first run lays it out, shown but not on screen."""
    window = MainWindow(restore_layout=False)
    window.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)
    qtbot.addWidget(window)
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    return window


@pytest.fixture
def controller(qtbot):
    controller = SessionController()
    yield controller
    # Deleted here, on the GUI thread, once its jobs are done: a test that keeps an exception keeps
    # this controller in a reference cycle, which must not be freed anywhere else.
    assert controller.wait_for_jobs(60_000)
    shiboken6.delete(controller)


def load(qtbot, window, path):
    """Open `path` in the window and wait until it shows."""
    with qtbot.waitSignal(window.controller.changed, check_params_cb=replaced, timeout=20000):
        window.open_path(path)
    return window.controller.session


@pytest.fixture(scope="session")
def big_png_base64():
    """A real PNG whose base64 is about 20 MB (noise does not compress)."""
    side = 2260
    pixels = os.urandom(side * side * 4)
    image = QImage(pixels, side, side, QImage.Format.Format_RGB32).copy()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    assert image.save(buffer, "PNG", 100)
    buffer.close()
    encoded = base64.b64encode(bytes(data)).decode("ascii")
    assert len(encoded) > 19_000_000
    return side, encoded
