"""Qt's messages on the terminal, less the ones it prints on every run that mean nothing to a user.

The offscreen and some Wayland platform plugins say on each window they show that they
do not support a window manager hint ("This plugin does not support propagateSizeHints()");
nothing is wrong and nothing can be done about it. Those go to the log; every other message
is printed as Qt's own handler prints it (its category first, when it has one).
"""

from __future__ import annotations

import logging
import sys

from PySide6.QtCore import QMessageLogContext, QtMsgType, qInstallMessageHandler

log = logging.getLogger(__name__)

HARMLESS = (
    "This plugin does not support propagateSizeHints()",
    "This plugin does not support raise()",
    "This plugin does not support grabbing the keyboard",
    "This plugin does not support setting window opacity",
)


def keep_harmless_messages_quiet() -> None:
    qInstallMessageHandler(_handle)


def _handle(kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
    if message.startswith(HARMLESS):
        log.debug("Qt: %s", message)
        return
    category = context.category if context is not None else None
    prefix = f"{category}: " if category and category != "default" else ""
    try:
        sys.stderr.write(f"{prefix}{message}\n")
    except (OSError, ValueError) as error:  # no terminal left to tell (closed stderr)
        log.warning("Qt: %s (not printed: %s)", message, error)
