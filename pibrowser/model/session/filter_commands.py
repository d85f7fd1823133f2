"""pi's /tree filter commands: which filter each one leaves the tree under.

pi 1.6.0's tree selector (handleInput in tree-selector.js, its keys in keybindings.js)
has seven of them, named as pi names its key bindings (app.tree.filter.*):

  default        the default filter, whatever was on
  noTools        no-tools, or back to default when no-tools was on (likewise
  userOnly       user-only,      the three below: each toggles its mode
  labeledOnly    labeled-only,   with default)
  all            all
  cycleForward   the next mode in pi's order: default → no-tools → user-only →
                 labeled-only → all → default
  cycleBackward  the previous one

`EVERY_ENTRY` is not one of pi's modes, so pi's rules say nothing of it; here it counts
as lying past `all` (it shows a little more than `all`): forward from it comes round to
default, backward goes to all. No Qt here.
"""

from __future__ import annotations

from .tree_filter import PI_MODES, FilterMode

TOGGLES = {
    "noTools": FilterMode.NO_TOOLS,
    "userOnly": FilterMode.USER_ONLY,
    "labeledOnly": FilterMode.LABELED_ONLY,
    "all": FilterMode.ALL,
}
COMMANDS = ("default", *TOGGLES, "cycleForward", "cycleBackward")

# pi's default key for each command (keybindings.js): Ctrl with the letter, Shift too where said.
KEYS = {
    "d": "default",
    "t": "noTools",
    "u": "userOnly",
    "l": "labeledOnly",
    "a": "all",
    "o": "cycleForward",
    "shift+o": "cycleBackward",
}


def filter_after(mode: FilterMode, command: str) -> FilterMode:
    """The filter `command` leaves the tree under when `mode` is on."""
    if command == "default":
        return FilterMode.DEFAULT
    if command in TOGGLES:
        toggled = TOGGLES[command]
        return FilterMode.DEFAULT if mode is toggled else toggled
    if command not in ("cycleForward", "cycleBackward"):
        raise ValueError(f"not one of pi's /tree filter commands: {command!r}")
    step = 1 if command == "cycleForward" else -1
    if mode not in PI_MODES:  # EVERY_ENTRY, just past all
        return PI_MODES[0] if step > 0 else PI_MODES[-1]
    return PI_MODES[(PI_MODES.index(mode) + step) % len(PI_MODES)]
