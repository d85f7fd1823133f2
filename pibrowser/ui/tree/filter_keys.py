"""pi's /tree filter keys on the tree view: which key gives which of pi's filter commands.

The keys are pi 1.6.0's defaults (keybindings.js, app.tree.filter.*); what each command
does to the filter is model/session/filter_commands.py. They act only while the tree
has focus, and only when they change the filter: the view claims them then, ahead of the
window's shortcuts (TreeView.event), and leaves them to the window otherwise. So Ctrl+D
sets pi's default filter when another is on, but with the default already on (where pi's
Ctrl+D changes nothing) it stays Compare With…, which acts on the entry selected in this
tree. pi's cycling keys, Ctrl+O and Shift+Ctrl+O, are File ▸ Open and Open Folder in
every desktop app, and the tree has the focus most of the time: in the window they stay
Open and Open Folder (WINDOW_FIRST), and cycle the filter only in a tree pane without them.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence

from ...model.session.filter_commands import KEYS, TOGGLES
from ...model.session.tree_filter import FilterMode

_CTRL = Qt.KeyboardModifier.ControlModifier
_SHIFT = Qt.KeyboardModifier.ShiftModifier
_MODIFIERS = _CTRL | _SHIFT | Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.MetaModifier

FILTER_KEYS = {
    (Qt.Key(ord(key[-1].upper())), _CTRL | _SHIFT if key.startswith("shift+") else _CTRL): command for key, command in KEYS.items()
}


# Commands whose keys the window keeps for its own shortcuts (see above).
WINDOW_FIRST = frozenset({"cycleForward", "cycleBackward"})


def filter_command(key: int, modifiers) -> str | None:
    """pi's filter command for a key pressed with `modifiers`, or None."""
    held = modifiers & _MODIFIERS  # the keypad's flag is no modifier
    return next((command for (k, m), command in FILTER_KEYS.items() if k == key and m == held), None)


def shortcut_rows() -> list[tuple[str, str]]:
    """(keys, what they do) for each filter key, as the Keyboard Shortcuts dialog lists them."""
    default = FilterMode.DEFAULT.title
    does = {
        "default": f"{default} filter (with it already on: Compare With…)",
        "cycleForward": "Next filter (in the window: Open, as everywhere)",
        "cycleBackward": "Previous filter (in the window: Open Folder)",
        **{command: f"{mode.title} ↔ {default}" for command, mode in TOGGLES.items()},
    }
    return [(_native(key, held), does[command]) for (key, held), command in FILTER_KEYS.items()]


def _native(key: Qt.Key, held) -> str:
    return QKeySequence(key | held).toString(QKeySequence.SequenceFormat.NativeText)
