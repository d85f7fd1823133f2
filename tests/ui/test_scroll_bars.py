"""Flat scroll bars: Fusion's geometry, painted flat in the palette's colours at paint time."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QScrollBar, QStyle, QStyleFactory, QStyleOptionSlider

from pibrowser.ui.style.colors import mix
from pibrowser.ui.style.scroll_bars import FlatScrollBars, use_flat_scroll_bars
from pibrowser.ui.style.theme import dark_palette


def scroll_bar(qtbot, style) -> QScrollBar:
    bar = QScrollBar(Qt.Orientation.Vertical)
    bar.setStyle(style)
    bar.setRange(0, 1000)
    bar.setPageStep(250)
    bar.setValue(400)
    bar.resize(14, 400)
    qtbot.addWidget(bar)
    return bar


def slider_rect(bar: QScrollBar):
    option = QStyleOptionSlider()
    bar.initStyleOption(option)
    return bar.style().subControlRect(QStyle.ComplexControl.CC_ScrollBar, option, QStyle.SubControl.SC_ScrollBarSlider, bar)


def test_the_parts_sit_where_fusion_puts_them(qtbot):
    fusion, flat = QStyleFactory.create("fusion"), FlatScrollBars(QStyleFactory.create("fusion"))
    plain, flat_bar = scroll_bar(qtbot, fusion), scroll_bar(qtbot, flat)
    for part in (QStyle.SubControl.SC_ScrollBarSlider, QStyle.SubControl.SC_ScrollBarAddLine, QStyle.SubControl.SC_ScrollBarSubLine):
        options = []
        for bar in (plain, flat_bar):
            option = QStyleOptionSlider()
            bar.initStyleOption(option)
            options.append(bar.style().subControlRect(QStyle.ComplexControl.CC_ScrollBar, option, part, bar))
        assert options[0] == options[1] and options[0].isValid()


def test_the_slider_is_painted_in_the_palettes_colours_of_the_moment(qtbot):
    bar = scroll_bar(qtbot, FlatScrollBars(QStyleFactory.create("fusion")))
    for palette in (bar.palette(), dark_palette()):
        bar.setPalette(palette)
        image = bar.grab().toImage()
        centre = slider_rect(bar).center()
        base, text = palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.Text)
        assert image.pixelColor(centre) == mix(text, base, 0.68)
        groove = QPoint(centre.x(), 1 + slider_rect(bar).bottom() + 40)
        assert image.pixelColor(groove) == mix(base, palette.color(QPalette.ColorRole.Window), 0.6)


def test_only_fusion_is_made_flat_and_only_once(qapp, monkeypatch):
    installed = []
    monkeypatch.setattr(type(qapp), "setStyle", lambda self, style: installed.append(style))
    flat = FlatScrollBars(QStyleFactory.create("fusion"))
    for running, expected in ((QStyleFactory.create("fusion"), [FlatScrollBars]), (QStyleFactory.create("windows"), []), (flat, [])):
        monkeypatch.setattr(type(qapp), "style", staticmethod(lambda running=running: running))
        installed.clear()
        use_flat_scroll_bars(qapp)
        assert [type(style) for style in installed] == expected
