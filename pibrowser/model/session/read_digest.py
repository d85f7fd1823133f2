"""A digest of every byte a session has read, to tell before a write that none of them changed.

Following appends compares only the last bytes before the read position (enough to know
pi appended); a rewrite in place that keeps the size and those bytes would go unseen,
and a label written then would name entries that are gone. So loading hashes what it
reads, appends add to the hash, and a write first hashes the file's bytes again
(follow.check_unchanged).

Loading a 160 MB session reads it in 8 MB chunks; hashing them as they come would add a
fifth to the load. hashlib lets go of the GIL on large buffers, so `ChunkDigest` hashes each
chunk on a thread of its own while the next one is skimmed.
"""

from __future__ import annotations

import hashlib
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any


def read_digest(data: bytes | memoryview = b"") -> Any:
    """The running hash of bytes read (hashlib's: update, digest, copy)."""
    return hashlib.sha256(data)


class ChunkDigest:
    """read_digest fed chunk by chunk, in order, hashed in the background; `result()` waits for it."""

    def __init__(self) -> None:
        self._digest = read_digest()
        self._worker: ThreadPoolExecutor | None = None
        self._pending: Future[None] | None = None

    def feed(self, chunk: bytes | memoryview) -> None:
        if self._worker is None:
            self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="read-digest")
        self._pending = self._worker.submit(self._digest.update, chunk)  # one worker: taken in order

    def result(self, last: bytes | memoryview = b"") -> Any:
        """The digest of everything fed, and `last` after it."""
        if self._worker is not None:
            self._worker.shutdown(wait=True)
            self._worker = None
            if self._pending is not None:
                self._pending.result()  # a failure in the worker is raised here
        self._digest.update(last)
        return self._digest
