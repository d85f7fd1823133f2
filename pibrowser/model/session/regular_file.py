"""Opening what a user or a folder names for reading: regular files only, and never a wait.

`open()` on a FIFO waits for a writer (forever, if there is none), and a device such
as /dev/zero never ends. The path is opened without blocking and the descriptor, not
the path, is asked what it is, so nothing swapped in between is read either. A session
file that cannot be opened is a SessionLoadError saying why (`open_session_file`), in the
same words for every reader.
"""

from __future__ import annotations

import errno
import os
import stat
from io import BufferedReader
from pathlib import Path

from .problems import SessionLoadError


class NotRegularFile(OSError):
    """The path names a FIFO, a device or a socket: nothing pibrowser reads."""

    strerror: str  # always given, by __init__

    def __init__(self, path: str | Path, kind: str) -> None:
        super().__init__(errno.EINVAL, f"is {kind}, not a session file", str(path))
        self.kind = kind


def open_regular(path: str | Path) -> BufferedReader:
    """`path` opened for reading if it is a regular file (IsADirectoryError, NotRegularFile otherwise)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(mode):
            raise NotRegularFile(path, kind_of(mode))
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def open_session_file(path: Path) -> BufferedReader:
    """The session file `path` opened for reading; a SessionLoadError that says why it cannot be."""
    try:
        return open_regular(path)
    except NotRegularFile as error:
        raise SessionLoadError(path, error.strerror) from None
    except FileNotFoundError:
        raise SessionLoadError(path, "no such file") from None
    except IsADirectoryError:
        raise SessionLoadError(path, "is a folder, not a session file") from None
    except PermissionError:
        raise SessionLoadError(path, "cannot be read: permission denied") from None
    except OSError as error:
        raise cannot_read(path, error) from None


def cannot_read(path: Path, error: OSError) -> SessionLoadError:
    """What to say of a session file that could not be opened or read."""
    if error.errno == errno.EISDIR:
        return SessionLoadError(path, "is a folder, not a session file")
    return SessionLoadError(path, f"cannot be read: {error.strerror or error}")


def kind_of(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"
