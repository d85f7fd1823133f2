"""File ▸ Export Tree Image: the tree as a PNG or an SVG, the part in view or the whole of it.

Drawing is Qt's: the scene renders itself into a QImage for PNG, and each node
into QSvgGenerator for SVG. The SVG is assembled so that every visible node is
one `<g class="node">` carrying its entry id (folds: `class="fold"`), with the
edges underneath — a file that other tools (and tests) can read node by node.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF, QSize, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QStyleOptionGraphicsItem

from .fold_item import FoldItem

if TYPE_CHECKING:
    from .view import TreeView

SVG_NS = "http://www.w3.org/2000/svg"
ET.register_namespace("", SVG_NS)
ET.register_namespace("xlink", "http://www.w3.org/1999/xlink")

WHOLE, IN_VIEW = "whole", "view"
# (filter text, format, extent); the file dialog offers them in this order.
_FILTERS = (
    ("PNG image, whole tree (*.png)", "png", WHOLE),
    ("SVG image, whole tree (*.svg)", "svg", WHOLE),
    ("PNG image, the part in view (*.png)", "png", IN_VIEW),
    ("SVG image, the part in view (*.svg)", "svg", IN_VIEW),
)
EXPORT_FILTERS = [text for text, _, _ in _FILTERS]
MAX_PNG_SIDE = 16000  # QImage and most viewers cope with this; larger trees are scaled down to it
PAD = 16.0


def export_tree(view: TreeView, path: Path, chosen_filter: str = "") -> Path:
    """Write the image the filter asks for (its extension wins over the filter's format); returns the path."""
    fmt, extent = next(((f, e) for text, f, e in _FILTERS if text == chosen_filter), ("png", WHOLE))
    if view.outline.shown():
        extent = WHOLE  # the picture is the map's: the part of it in view is the outline's rows
    suffix = path.suffix.lower()
    if suffix in (".png", ".svg"):
        fmt = suffix[1:]
    else:
        path = path.with_suffix("." + fmt)
    if fmt == "svg":
        path.write_bytes(tree_svg(view, extent))
    # PySide6's stub types QImage.save's format as bytes; PySide6 itself takes only a str there.
    elif not tree_png(view, extent).save(str(path), "PNG"):  # type: ignore[call-overload]
        raise OSError(f"cannot write {path}")
    return path


def source_rect(view: TreeView, extent: str) -> QRectF:
    if extent == IN_VIEW:
        return view.mapToScene(view.viewport().rect()).boundingRect()
    items = view.unit_items
    if not items:
        return view.sceneRect()
    rect = QRectF()
    for item in items:
        rect = rect.united(item.sceneBoundingRect())
    return rect.adjusted(-PAD, -PAD, PAD, PAD)


class _FullDetail:
    """While exporting, the map is drawn as items (not as the far-out dot map, nor as the outline)."""

    def __init__(self, view: TreeView) -> None:
        self.view = view

    def __enter__(self):
        items = self.view.map_items
        self.was = (items.shown, items.overview_shown())
        self.outline = self.view.outline.item
        self.outline_was = self.outline is not None and self.outline.isVisible()
        if self.outline is not None:
            self.outline.setVisible(False)
        items.set_shown(True, far=False)
        return self

    def __exit__(self, *exc) -> None:
        self.view.map_items.set_shown(*self.was)
        if self.outline is not None:
            self.outline.setVisible(self.outline_was)


def tree_png(view: TreeView, extent: str = WHOLE) -> QImage:
    """The tree at reading size (the part in view: at the view's zoom), scaled down only past MAX_PNG_SIDE."""
    source = source_rect(view, extent)
    scale = view.zoom_factor() if extent == IN_VIEW else 1.0
    scale = min(scale, MAX_PNG_SIDE / max(source.width(), 1.0), MAX_PNG_SIDE / max(source.height(), 1.0))
    size = QSize(max(1, round(source.width() * scale)), max(1, round(source.height() * scale)))
    image = QImage(size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(view.backgroundBrush().color())
    with _FullDetail(view):
        painter = QPainter(image)
        painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        view.scene().render(painter, QRectF(0, 0, size.width(), size.height()), source, Qt.AspectRatioMode.KeepAspectRatio)
        painter.end()
    return image


def tree_svg(view: TreeView, extent: str = WHOLE) -> bytes:
    """An SVG of the tree: the background and edges, then one group per visible node in the region."""
    source = source_rect(view, extent)
    root = ET.Element(
        f"{{{SVG_NS}}}svg",
        {
            "width": f"{source.width():.0f}",
            "height": f"{source.height():.0f}",
            "viewBox": f"0 0 {source.width():.2f} {source.height():.2f}",
            "version": "1.1",
        },
    )
    ET.SubElement(root, f"{{{SVG_NS}}}title").text = _title(view)
    ET.SubElement(root, f"{{{SVG_NS}}}rect", {"width": "100%", "height": "100%", "fill": view.backgroundBrush().color().name()})
    with _FullDetail(view):
        layer = view.map_items.layer
        if layer is not None:
            layer.setVisible(False)  # edges and path marks only; the nodes follow one by one
        edges = _render(lambda painter: view.scene().render(painter, QRectF(0, 0, source.width(), source.height()), source), source.size())
        if layer is not None:
            layer.setVisible(True)
    root.append(_group(edges, {"class": "edges"}))
    for item in view.unit_items:
        box = item.sceneBoundingRect()
        if not box.intersects(source):
            continue
        bounds = item.boundingRect()
        drawn = _render(lambda painter, item=item, bounds=bounds: _paint_item(painter, item, bounds), bounds.size())
        at = item.scenePos() - source.topLeft() + bounds.topLeft()
        fold = isinstance(item, FoldItem)
        attributes = {"class": "fold" if fold else "node", "transform": f"translate({at.x():.2f},{at.y():.2f})"}
        if not fold:
            attributes["data-entry-id"] = item.key
        group = _group(drawn, attributes)
        ET.SubElement(group, f"{{{SVG_NS}}}title").text = item.title_text() if isinstance(item, FoldItem) else item.key
        root.append(group)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="utf-8", xml_declaration=False) + b"\n"


def _title(view: TreeView) -> str:
    session = view.session
    return f"pibrowser: {session.path.name}" if session is not None else "pibrowser"


def _paint_item(painter: QPainter, item, bounds: QRectF) -> None:
    painter.translate(-bounds.topLeft())
    option = QStyleOptionGraphicsItem()
    option.exposedRect = bounds
    item.paint(painter, option, None)


def _render(draw, size) -> ET.Element:
    """What `draw` paints, as QSvgGenerator writes it (parsed)."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    generator = QSvgGenerator()
    generator.setOutputDevice(buffer)
    generator.setSize(QSize(max(1, round(size.width())), max(1, round(size.height()))))
    generator.setViewBox(QRectF(0, 0, size.width(), size.height()))
    painter = QPainter(generator)
    painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
    draw(painter)
    painter.end()
    buffer.close()
    return ET.fromstring(bytes(data.data()))


def _group(svg: ET.Element, attributes: dict[str, str]) -> ET.Element:
    """The drawing of one generated SVG as a group: its elements, without its title and description."""
    group = ET.Element(f"{{{SVG_NS}}}g", attributes)
    for child in svg:
        if child.tag not in (f"{{{SVG_NS}}}title", f"{{{SVG_NS}}}desc"):
            group.append(child)
    return group
