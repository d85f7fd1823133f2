"""The look of the tree for one palette and font: colours, fonts, pens and shapes, and when detail shows."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPalette, QPen

from ...model.context.provenance import Edit, Part, Provenance
from ..style.colors import COMPARE, mix
from .kinds import KINDS
from .shapes import shape_path

TEXT_LOD = 0.55  # the smallest scale text is drawn at; zoomed out further, it keeps this size on screen
READABLE_LOD = 0.85  # zoomed out, text draws at up to this scale when rows leave the room
ROW_HEIGHT = 46.0  # scene units from one row of the tree to the next
DETAIL_LOD = 0.3  # below this, no rings, badges or markers: just the shape


def text_scale(lod: float, line_height: float) -> float:
    """How large the tree's text shows on screen at zoom `lod` (1: its own size), 0 for none.

    Zoomed in, text grows with the zoom. Zoomed out, it keeps a size that reads (up to
    READABLE_LOD, never taller than a row there, so rows never overlap) until rows come
    closer than TEXT_LOD's text, or nodes are dots (DETAIL_LOD): then there is none. The size
    never shrinks as the zoom grows: each of the three terms grows with it.
    """
    if lod >= READABLE_LOD:
        return lod
    if lod < DETAIL_LOD:
        return 0.0  # nodes are dots there: flags name what matters (flags.py)
    shown = max(lod, min(READABLE_LOD, (ROW_HEIGHT * lod - 3) / line_height))
    return shown if shown >= TEXT_LOD else 0.0


# (light, dark) colours of the parts an entry plays in the selected node's context
PARTS: dict[Part, tuple[str, str]] = {
    Part.IN_CONTEXT: ("#2563eb", "#60a5fa"),
    Part.AFTER_COMPACTION: ("#2563eb", "#60a5fa"),
    Part.KEPT: ("#16a34a", "#4ade80"),
    Part.CHECKPOINT: ("#ea580c", "#fb923c"),
    Part.SUMMARIZED: ("#9333ea", "#c084fc"),
    Part.SYSTEM_FOLDED: ("#0d9488", "#2dd4bf"),
    Part.SUPERSEDED: ("#a8a29e", "#78716c"),
    Part.NOT_CONTEXT: ("#b6bcc6", "#5b6472"),
}
EDITS: dict[Edit, tuple[str, str]] = {
    Edit.DROPPED: ("#dc2626", "#f87171"),
    Edit.REPLACED: ("#d97706", "#fbbf24"),
}

# The compared paths' lines (colours in ..colors.COMPARE): A solid, B dashed, the trunk wide.
COMPARE_PEN = {"A": (3.2, Qt.PenStyle.SolidLine), "B": (3.2, Qt.PenStyle.DashLine), "trunk": (7.0, Qt.PenStyle.SolidLine)}


class Style:
    """Colours, fonts and shapes for one palette; items share one instance."""

    def __init__(self, palette: QPalette, font: QFont) -> None:
        self._palette_colors(palette)
        pick = 1 if self.dark else 0
        self._kind_looks(pick)
        self.part_color = {part: QColor(spec[pick]) for part, spec in PARTS.items()}
        self.edit_color = {edit: QColor(spec[pick]) for edit, spec in EDITS.items()}
        self.compare_color = {side: QColor(spec[pick]) for side, spec in COMPARE.items()}
        self._badge_colors()
        self._fonts(font)
        self.edge_pen = QPen(self.edge, 1.3)
        self.edge_pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        self.edge_pen.setCosmetic(False)

    def _palette_colors(self, palette: QPalette) -> None:
        base = palette.color(QPalette.ColorRole.Base)
        self.dark = base.lightness() < 128
        self.base = base
        self.text = palette.color(QPalette.ColorRole.Text)
        self.muted = mix(self.text, base, 0.45)
        self.edge = mix(self.text, base, 0.62)
        self.highlight = palette.color(QPalette.ColorRole.Highlight)
        self.highlighted_text = palette.color(QPalette.ColorRole.HighlightedText)
        self.accent = QColor("#f59e0b") if not self.dark else QColor("#fbbf24")
        self.hit = QColor(250, 204, 21, 120) if not self.dark else QColor(250, 204, 21, 90)
        self.current_hit = QColor(249, 115, 22, 190)
        self.outline = mix(self.text, base, 0.25)

    def _kind_looks(self, pick: int) -> None:
        self.kind_color = {kind: QColor(spec[pick]) for kind, spec in KINDS.items()}
        self.kind_shape = {kind: shape_path(spec[2], spec[3]) for kind, spec in KINDS.items()}
        self.kind_radius = {kind: spec[3] for kind, spec in KINDS.items()}
        self.kind_shape_name = {kind: spec[2] for kind, spec in KINDS.items()}

    def _badge_colors(self) -> None:
        self.label_bg = QColor("#fde68a") if not self.dark else QColor("#854d0e")
        self.label_fg = QColor("#713f12") if not self.dark else QColor("#fef3c7")
        self.current_bg = self.accent
        self.current_fg = QColor("#1f2937")

    def _fonts(self, font: QFont) -> None:
        self.font = QFont(font)
        self.font.setPointSizeF(max(7.0, font.pointSizeF() * 0.92))
        self.bold = QFont(self.font)
        self.bold.setBold(True)
        self.badge_font = QFont(self.font)
        self.badge_font.setPointSizeF(max(6.5, self.font.pointSizeF() * 0.86))
        self.badge_font.setBold(True)
        self.metrics = QFontMetricsF(self.font)
        self.bold_metrics = QFontMetricsF(self.bold)
        self.badge_metrics = QFontMetricsF(self.badge_font)

    def path_color(self, provenance: Provenance | None) -> QColor:
        if provenance is None:
            return self.highlight
        return self.part_color.get(provenance.part, self.highlight)

    def compare_pen(self, side: str) -> QPen:
        """The pen of a compared path's edges: A solid, B dashed, the trunk wide."""
        width, line = COMPARE_PEN[side]
        pen = QPen(
            self.compare_color[side], width, line, Qt.PenCapStyle.FlatCap if line != Qt.PenStyle.SolidLine else Qt.PenCapStyle.RoundCap
        )
        return pen

    def color_for(self, role: Part | Edit) -> QColor:
        return self.part_color[role] if isinstance(role, Part) else self.edit_color[role]
