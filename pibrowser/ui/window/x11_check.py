"""Before Qt starts on X11: name the system packages whose libraries are missing, in one line.

Qt's own message blames libxcb-cursor0 whatever is missing; trying each library
the xcb platform plugin loads tells the user exactly what to install.
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Callable, Sequence

# The libraries Qt's xcb plugin needs beyond a desktop's usual ones, and the Debian/Ubuntu
# packages that hold them (the README's list).
XCB_LIBRARIES = (
    ("libxcb-cursor.so.0", "libxcb-cursor0"),
    ("libxcb-icccm.so.4", "libxcb-icccm4"),
    ("libxcb-keysyms.so.1", "libxcb-keysyms1"),
    ("libxcb-image.so.0", "libxcb-image0"),
    ("libxcb-render-util.so.0", "libxcb-render-util0"),
    ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"),
    ("libxcb-shape.so.0", "libxcb-shape0"),
    ("libxcb-xkb.so.1", "libxcb-xkb1"),
)


def uses_xcb(environ=os.environ, platform: str = sys.platform) -> bool:
    """Whether Qt will pick its X11 plugin: on Linux, asked for, or with no Wayland session to prefer."""
    if not platform.startswith("linux"):
        return False
    chosen = environ.get("QT_QPA_PLATFORM", "")
    if chosen:
        return chosen.split(":", 1)[0].split(";", 1)[0] == "xcb"
    return not environ.get("WAYLAND_DISPLAY")


def _loads(name: str) -> bool:
    try:
        ctypes.CDLL(name)
    except OSError:
        return False
    return True


def missing_packages(loads: Callable[[str], bool] = _loads) -> list[str]:
    return [package for library, package in XCB_LIBRARIES if not loads(library)]


def no_display(environ=os.environ, platform: str = sys.platform) -> bool:
    """Qt would look for an X server and there is none to ask (a terminal over ssh, a container)."""
    return uses_xcb(environ, platform) and not environ.get("DISPLAY")


def no_display_message(commands: Sequence[str]) -> str:
    """The line for a window with no display, naming the `commands` that need none (the command table's)."""
    return (
        "pibrowser: no display to open a window on (DISPLAY is not set); the commands need none: "
        f"pibrowser {'|'.join(commands)} (pibrowser COMMAND --help), "
        "and FILE --screenshot OUT.png renders the window without one"
    )


def x11_problem(
    environ=os.environ, platform: str = sys.platform, loads: Callable[[str], bool] = _loads, commands: Sequence[str] = ()
) -> str | None:
    """The one line to print instead of starting Qt, or None when the window can start; `commands`
    are those the line names as needing no display."""
    if not uses_xcb(environ, platform):
        return None
    if no_display(environ, platform):
        return no_display_message(commands)  # Qt would abort naming a library (xcb-cursor0) that is not the matter
    missing = missing_packages(loads)
    if not missing:
        return None
    return f"pibrowser: cannot open a window: Qt's X11 support needs {', '.join(missing)} (install with: sudo apt-get install {' '.join(missing)})"
