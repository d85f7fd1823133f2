"""Where the card list scrolls to when it shows new rows: one of a few kinds of target."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ToEnd:
    """The last card's bottom at the bottom of the view: the selected entry's message."""


@dataclass(frozen=True)
class ToStart:
    """The first card at the top."""


@dataclass(frozen=True)
class ToRow:
    """A row's card with its top `offset` below the view's top (None: a fifth of the way down);
    `flash`: its border lights up a moment, so the eye finds it."""

    row: int
    offset: int | None = None
    flash: bool = False


@dataclass(frozen=True)
class ToAnchor:
    """The card of message `index` (None: any) of entry `entry_id` with its top `offset` below the
    view's top: a clicked card stays where it was on screen."""

    index: int | None
    entry_id: str
    offset: int


@dataclass(frozen=True)
class Stay:
    """What shows stays where it is (rows that came or went below it move the rest)."""


ScrollTarget = ToEnd | ToStart | ToRow | ToAnchor | Stay
