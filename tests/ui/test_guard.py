"""No exception leaves a Qt handler: every override Qt calls is guarded, and a guarded paint that
fails says so in place, logged once, while the rest of the window goes on."""

import importlib
import inspect
import logging
import pkgutil

import pytest
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QGraphicsItem, QStyledItemDelegate, QWidget

import pibrowser.ui
from pibrowser.ui import guard
from pibrowser.ui.guard import GUARDED, guarded, guarded_paint

# Overrides Qt calls from C++ while it paints or delivers events; `paint` only on the Qt classes
# that have one (card pieces paint through `paint_placed`, which guards each of them).
_PAINTERS = (QGraphicsItem, QStyledItemDelegate)
_HANDLERS = {"event", "viewportEvent", "eventFilter", "drawForeground", "drawBackground", "drawComplexControl"}


def _qt_handlers():
    for info in pkgutil.walk_packages(pibrowser.ui.__path__, "pibrowser.ui."):
        module = importlib.import_module(info.name)
        for cls in vars(module).values():
            if not inspect.isclass(cls) or cls.__module__ != module.__name__:
                continue
            qt = [base for base in cls.__mro__ if base.__module__.startswith("PySide6")]
            if not qt:
                continue
            for name, function in vars(cls).items():
                if not inspect.isfunction(function) or not any(hasattr(base, name) for base in qt):
                    continue
                if name.endswith("Event") or name in _HANDLERS or (name == "paint" and issubclass(cls, _PAINTERS)):
                    yield f"{module.__name__}.{cls.__qualname__}.{name}", function


def test_every_paint_and_event_handler_in_the_window_is_guarded():
    handlers = dict(_qt_handlers())
    assert len(handlers) > 80  # the walk found the window's handlers (paintEvent, paint, mouse, keys…)
    unguarded = [name for name, function in handlers.items() if not getattr(function, GUARDED, False)]
    assert unguarded == []


class Failing(QWidget):
    def __init__(self):
        super().__init__()
        self.calls = 0

    @guarded_paint
    def paintEvent(self, event):
        self.calls += 1
        painter = QPainter(self)  # left open by the error, as a real handler would leave it
        painter.drawLine(0, 0, 10, 10)
        raise OverflowError("cannot convert float infinity to integer")

    @guarded(fallback=False)
    def event(self, event):
        if event.type() == event.Type.MouseButtonPress:
            raise KeyError("x")
        return super().event(event)


def test_a_failing_paint_draws_could_not_draw_this_in_place_and_is_logged_once(qtbot, caplog, monkeypatch):
    drawn = []
    real = guard.draw_failure
    monkeypatch.setattr(guard, "draw_failure", lambda painter, rect, text: drawn.append(text) or real(painter, rect, text))
    widget = Failing()
    qtbot.addWidget(widget)
    widget.resize(300, 80)
    with caplog.at_level(logging.ERROR, logger="pibrowser.ui.guard"):
        for _ in range(3):
            widget.grab()
    assert widget.calls == 3
    assert drawn == ["could not draw this: OverflowError: cannot convert float infinity to integer"] * 3
    assert len([record for record in caplog.records if record.exc_info]) == 1
    assert not widget.paintingActive()


def test_a_failing_event_handler_answers_not_handled(qtbot):
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    widget = Failing()
    qtbot.addWidget(widget)
    widget.show()
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton)  # raised inside; Qt got False and goes on
    assert widget.isVisible()


@pytest.mark.parametrize("text", ["x" * 5000, "line\nbreaks\tand\x1b[2J escapes"])
def test_the_failure_line_is_one_short_line(text):
    line = guard.report(ValueError(text), "test.where")
    assert line.startswith("could not draw this: ValueError: ") and len(line) < 220 and "\n" not in line
