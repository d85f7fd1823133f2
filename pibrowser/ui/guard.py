"""No exception leaves a Qt handler: the one guard at the boundary where Qt calls our code.

Qt calls Python overrides from C++ (paintEvent, an item's or a delegate's paint, mouse
and key events, sizeHint…). An exception raised there has nowhere to go: PySide 6.11
prints it and may crash on the painter it left open, taking the window down for one
odd value in one session. So every such override is wrapped here:

- `guarded_paint` for anything that paints (a widget's paintEvent, a graphics item's,
  a delegate's or a card piece's paint): the failure is logged once and, in place of
  what it would have drawn, a visible "could not draw this: …" is; the rest of the
  window draws as before;
- `guarded` for every other handler: logged once, and the handler gives `fallback`
  (an event not handled).

`report` is the one logger of such failures, for code that catches one itself (a row
that cannot be built shows the same line as its card). "Once": the same error at the
same place is logged the first time only, as a paint fails again at every frame.
"""

from __future__ import annotations

import functools
import logging
import traceback
from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtCore import QRect, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QAbstractScrollArea, QGraphicsItem, QStyleOptionViewItem, QWidget

log = logging.getLogger(__name__)

F = TypeVar("F", bound=Callable[..., Any])

_SEEN: set[tuple[str, str, str]] = set()
_SEEN_LIMIT = 1000  # a session failing in a thousand ways has said enough for one run
_SHOWN_CHARS = 160  # of the error's own words, in the line drawn
GUARDED = "__pibrowser_guarded__"  # set on a wrapped handler: tests find every override that lacks it
FAILURE_COLOR = QColor("#c0392b")


def report(error: BaseException, where: str) -> str:
    """Log `error` (once per place and error) and say it in one line for the user."""
    words = " ".join(str(error).split())[:_SHOWN_CHARS]
    key = (where, type(error).__name__, words)
    if key not in _SEEN:
        if len(_SEEN) < _SEEN_LIMIT:
            _SEEN.add(key)
        log.error("%s failed; shown as “could not draw this”", where, exc_info=error)
    return f"could not draw this: {type(error).__name__}: {words}" if words else f"could not draw this: {type(error).__name__}"


def guarded(handler: F | None = None, *, fallback: Any = None) -> Any:
    """For an event handler or another override Qt calls: on an error, log it once and give `fallback`
    (None; False for `event` and filters: not handled). As `@guarded` or `@guarded(fallback=…)`."""

    def wrap(function: F) -> F:
        where = function.__qualname__

        @functools.wraps(function)
        def safe(*args: Any, **kwargs: Any) -> Any:
            try:
                return function(*args, **kwargs)
            except Exception as error:  # noqa: BLE001 (logged by report; Qt must get an answer)
                report(error, where)
                _release(error)
                return fallback

        setattr(safe, GUARDED, True)
        return safe  # type: ignore[return-value]

    return wrap(handler) if handler is not None else wrap


def guarded_paint(paint: F) -> F:
    """For anything that paints: paintEvent(event), an item's paint(painter, option, widget), a
    delegate's paint(painter, option, index), a piece's paint(painter, rect, …). On an error, logged
    once, and "could not draw this: …" drawn where it would have painted."""
    where = paint.__qualname__

    @functools.wraps(paint)
    def safe(self: Any, *args: Any, **kwargs: Any) -> None:
        try:
            paint(self, *args, **kwargs)
        except Exception as error:  # noqa: BLE001 (logged by report, and said where the drawing was)
            text = report(error, where)
            _release(error)
            _draw_instead(self, args, text)

    setattr(safe, GUARDED, True)
    return safe  # type: ignore[return-value]


def paint_guarded(painter: QPainter, rect: QRect | QRectF, paint: Callable[..., None], *args: Any) -> None:
    """`paint(*args)`, which draws into `rect` with `painter`; on an error, said in `rect` instead."""
    try:
        paint(*args)
    except Exception as error:  # noqa: BLE001 (logged by report, and said where the drawing was)
        text = report(error, paint.__qualname__)
        _release(error)
        draw_failure(painter, rect, text)


def draw_failure(painter: QPainter, rect: QRect | QRectF, text: str) -> None:
    """The line that stands for what could not be drawn: red on a pale red band, inside `rect`."""
    if not painter.isActive():
        return
    area = QRectF(rect)
    painter.save()
    try:
        painter.setClipRect(area, Qt.ClipOperation.IntersectClip)
        tint = QColor(FAILURE_COLOR)
        tint.setAlpha(28)
        painter.fillRect(area, tint)
        painter.setPen(QPen(FAILURE_COLOR, 1))
        flags = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap
        painter.drawText(area.adjusted(6, 3, -6, -3), int(flags), text)
    finally:
        painter.restore()


def _draw_instead(owner: Any, args: tuple[Any, ...], text: str) -> None:
    if args and isinstance(args[0], QPaintEvent):
        device = owner.viewport() if isinstance(owner, QAbstractScrollArea) else owner
        if not isinstance(device, QWidget) or device.paintingActive():
            return  # a painter the handler opened is still alive somewhere: a second one would crash
        painter = QPainter(device)
        try:
            draw_failure(painter, device.rect(), text)
        finally:
            painter.end()
        return
    given = args[0] if args and isinstance(args[0], QPainter) else None
    if given is None:
        return
    rect = _rect_of(owner, args)
    if rect is not None:
        draw_failure(given, rect, text)


def _rect_of(owner: Any, args: tuple[Any, ...]) -> QRect | QRectF | None:
    """Where a painter-given paint was to draw: its rect argument, the option's rect, or the item's bounds."""
    second = args[1] if len(args) > 1 else None
    if isinstance(second, (QRect, QRectF)):
        return second
    if isinstance(second, QStyleOptionViewItem):
        return second.rect
    if isinstance(owner, QGraphicsItem):
        return owner.boundingRect()
    return None


def _release(error: BaseException) -> None:
    """Drop what the failed handler's frames hold. A QPainter left open there is ended first: its
    device (a pixmap of the same frame, say) must not go while it is painted on, and nothing else
    may paint on that device while it is."""
    first = error.__traceback__.tb_next if error.__traceback__ is not None else None
    at = first
    while at is not None:
        for value in at.tb_frame.f_locals.values():
            if isinstance(value, QPainter) and value.isActive():
                value.end()
        at = at.tb_next
    traceback.clear_frames(first)
