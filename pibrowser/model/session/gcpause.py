"""Holding the cycle collector while a pass builds a large, garbage-free structure."""

from __future__ import annotations

import gc
from contextlib import contextmanager
from collections.abc import Iterator


@contextmanager
def gc_paused() -> Iterator[None]:
    """Loading a session creates hundreds of thousands of objects and frees none;
    the collector would rescan them all again and again (half the load time)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
