"""Whether some process holds a file open for writing: on Linux, /proc tells.

pi appends each entry with one appendFileSync (open, write, close), so a half line that
stays half while a process still has the file open for writing is a writer that stalled,
not one that died: a newline of ours would split its line when it goes on.
"""

from __future__ import annotations

import logging
import os

log = logging.getLogger(__name__)

PROC = "/proc"


def held_for_writing(fd: int) -> bool | None:
    """True when a descriptor other than `fd` (ours, in this process) has the file behind `fd`
    open for writing, in any process we may look at; None when the system cannot tell."""
    if not os.path.isdir(os.path.join(PROC, "self", "fdinfo")):
        return None
    stats = os.fstat(fd)
    wanted, me = (stats.st_dev, stats.st_ino), os.getpid()
    for pid in os.listdir(PROC):
        if not pid.isdigit():
            continue
        for name in _descriptors(pid):
            if int(pid) == me and int(name) == fd:
                continue
            if _names(pid, name) == wanted and _writable(pid, name):
                return True
    return False


def _descriptors(pid: str) -> list[str]:
    try:
        return os.listdir(os.path.join(PROC, pid, "fd"))
    except OSError:
        return []  # gone since listed, or another user's: not ours to see


def _names(pid: str, name: str) -> tuple[int, int] | None:
    try:
        stats = os.stat(os.path.join(PROC, pid, "fd", name))
    except OSError:
        return None  # closed since listed
    return stats.st_dev, stats.st_ino


def _writable(pid: str, name: str) -> bool:
    try:
        with open(os.path.join(PROC, pid, "fdinfo", name), encoding="ascii") as info:
            for line in info:
                if line.startswith("flags:"):
                    return int(line.split()[1], 8) & os.O_ACCMODE in (os.O_WRONLY, os.O_RDWR)
    except OSError:
        return False  # closed since listed
    except ValueError:
        log.warning("unexpected %s/%s/fdinfo/%s: not counted as a writer", PROC, pid, name)
    return False
