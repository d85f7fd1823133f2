"""What a test waits for on the controller's one signal, `changed(change)`: which kind of Change.

with qtbot.waitSignal(controller.changed, check_params_cb=appended) as blocker:
    ...
blocker.args[0].appended   # the Change itself
"""


def replaced(change) -> bool:
    """A session (new or read again) took the place of the one shown."""
    return change.replaced


def appended(change) -> bool:
    """Entries were linked into the open session."""
    return bool(change.appended)


def compared(change) -> bool:
    """The compared pair changed."""
    return change.compare


def selected(change) -> bool:
    """The selection may be another entry (every replacement selects afresh)."""
    return change.replaced or change.selection
