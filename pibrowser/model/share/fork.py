"""Work done in a forked child process while this one goes on: for the command line, which has no
thread (the window's process has threads and must not fork). The child's answer comes back as JSON;
its error is raised where the answer is asked for."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from typing import Any

import orjson


def forked(work: Callable[[], Any]) -> Callable[[], Any]:
    """Start `work` in a forked child; the function returned waits for its answer."""
    context = multiprocessing.get_context("fork")
    reading, writing = context.Pipe(duplex=False)

    def child() -> None:
        try:
            writing.send_bytes(b"+" + orjson.dumps(work()))
        except BaseException as error:  # noqa: BLE001 (sent to the parent, which raises it)
            writing.send_bytes(b"-" + f"{type(error).__name__}: {error}".encode("utf-8", "replace"))

    process = context.Process(target=child, daemon=True)
    process.start()
    writing.close()

    def answer() -> Any:
        try:
            sent = reading.recv_bytes()
        except EOFError:
            sent = b"-the helper process ended without an answer"
        finally:
            process.join()
            reading.close()
        if sent[:1] != b"+":
            raise RuntimeError(sent[1:].decode("utf-8", "replace"))
        return orjson.loads(sent[1:])

    return answer
