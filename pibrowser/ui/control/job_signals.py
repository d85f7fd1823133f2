"""Telling the GUI thread what a job in the thread pool found."""

from __future__ import annotations

from PySide6.QtCore import SignalInstance


def tell(signal: SignalInstance, *args: object) -> bool:
    """Emit `signal` from a pool thread; False when its signals object is already gone.

    A job keeps its own parentless signals object and receivers are GUI-thread slots, so the result
    is queued to the GUI thread. Only while the application exits (a screenshot run, a window closed
    mid-load) can that object be deleted under a job still running: then nobody is left to tell.
    """
    try:
        signal.emit(*args)
    except RuntimeError:  # "Signal source has been deleted"
        return False
    return True
