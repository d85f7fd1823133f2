"""Session text made harmless to print or show: every control character is shown, none is obeyed.

A session holds whatever a model, a tool or a user wrote, so printed raw it could
clear the screen (ESC [2J), retitle the terminal (ESC ]0;… BEL), move the cursor
back over what came before (\\r, backspace), reach the terminal as 8-bit C1
controls (U+009B is CSI), or reorder what the reader sees with bidi overrides.
`visible` shows them all; `strip_ansi` first drops whole escape sequences, for
text read as prose (cards, labels, diffs); `one_line` turns them into spaces, for
short list entries.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

# C0 but newline and tab, DEL, C1, the bidi embeddings, overrides, isolates and
# marks, and lone surrogates (which cannot even be encoded for output).
_CONTROLS = "\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff"
_HIDDEN = re.compile(f"[{_CONTROLS}]")
_HIDDEN_OR_LINE_BREAK = re.compile(f"[{_CONTROLS}\t\n]")
_ANSI = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor moves
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC: titles, hyperlinks
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"  # DCS, SOS, PM, APC strings
    r"|\x1b[@-Z\\-_]"  # two-character escapes
    r"|\x9b[0-?]*[ -/]*[@-~]"  # 8-bit CSI
)


def _stand_in(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # the Control Pictures block: ␀ … ␟, ␉, ␊
    if code == 0x7F:
        return "\u2421"  # ␡
    if code <= 0x9F:
        return f"\\x{code:02x}"  # C1 has no pictures
    return f"\\u{code:04x}"


_PLAIN_ASCII = bytes(range(0x20, 0x7F)) + b"\n\t"  # what ASCII text may hold and stay as it is


def visible(text: str) -> str:
    """`text` with newlines and tabs kept and every other control character shown as a stand-in."""
    if text.isascii():
        if not text.encode("ascii").translate(None, _PLAIN_ASCII):
            return text  # nothing to show otherwise: two passes in C, quicker than the regex's one
    elif text.replace("\n", "").replace("\t", "").isprintable():
        return text  # no control, bidi mark or lone surrogate is printable: quicker in C than the regex too
    return _HIDDEN.sub(_stand_in, text)


def visible_line(text: str) -> str:
    """`text` on one line: newlines and tabs are shown as ␊ and ␉ too."""
    return _HIDDEN_OR_LINE_BREAK.sub(_stand_in, text)


def visible_lines(texts: list[str]) -> list[str]:
    """visible_line of each of `texts`. Most hold nothing to show: a list of those is told in C
    and given back as it is. (Text Python calls printable holds none of the characters shown:
    they are controls, format characters, line breaks or surrogates.)"""
    if all(map(str.isprintable, texts)) or _HIDDEN_OR_LINE_BREAK.search("".join(texts)) is None:
        return texts
    return list(map(visible_line, texts))


def strip_ansi(text: str) -> str:
    """Terminal escapes removed; other control characters shown as `visible` shows them (␇, \\x85)."""
    if "\x1b" in text or "\x9b" in text:
        text = _ANSI.sub("", text)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return visible(text)


def one_line(text: str, limit: int | None = None) -> str:
    """Text for one terminal line: escapes gone, controls and runs of white space as one space."""
    if _is_one_line(text):  # a table's cells mostly are: left as they are
        return text if limit is None else shorten(text, limit)
    if "\x1b" in text or "\x9b" in text:
        text = _ANSI.sub("", text)
    text = " ".join(_HIDDEN_OR_LINE_BREAK.sub(" ", text).split())
    return text if limit is None else shorten(text, limit)


def _is_one_line(text: str) -> bool:
    """Whether one_line leaves `text` as it is, told in C: no character but the space that is not
    printable (every control, line break, bidi mark and white space other than the space is not),
    and no space that does not stand alone between two words. (False tells nothing.)"""
    return text.isprintable() and "  " not in text and text[:1] != " " and text[-1:] != " "


def shorten(text: str, width: int) -> str:
    """`text` in at most `width` characters, an ellipsis marking a cut: the one shortening everywhere."""
    return text if len(text) <= width else text[: width - 1] + "…"


def pad(text: str, width: int) -> str:
    """`text` followed by spaces to fill `width` terminal columns (wide CJK and emoji take two)."""
    return text + " " * max(0, width - columns(text))


def padded(cells: Sequence[str], widths: tuple[int, ...]) -> str:
    """A table's row: each cell on one line, cut to its column's width and padded to it
    (`pad(one_line(cell, width), width)`), two spaces apart."""
    joined = "|".join(cells)
    # Every cell of ASCII and one line already (no space at either end: none beside a "|"), as most
    # are: the row is laid out in C, and kept when no cell was wider than its column (the row is
    # then just as wide as the columns).
    if joined.isascii() and _is_one_line(joined) and " |" not in joined and "| " not in joined:
        layout, width = _layout(widths)
        row = layout % tuple(cells)
        if len(row) == width:
            return row
    return "  ".join(pad(one_line(cell, width), width) for cell, width in zip(cells, widths))


def table_lines(rows: Sequence[Sequence[str]], widths: tuple[int, ...]) -> list[str]:
    """Each row as a line of a table whose last column takes what it needs: `padded` of its cells
    but the last, two spaces, `one_line` of the last, with no space at the end. A batch of rows is
    told at once, in C, to be one line and (but the last cells) ASCII, as most are; each such row is
    then laid out by one format, and a row with a cell wider than its column (or any row of a
    batch that is not told so) is laid out cell by cell."""
    lasts = [row[-1] for row in rows]
    cells = "|".join(["|".join(row[:-1]) for row in rows])
    # "\u00a6" (¦) between the last cells: printable, and beside a space only where a cell starts or ends with one.
    free = "\u00a6".join(lasts)
    if not (
        cells.isascii() and _is_one_line(cells) and " |" not in cells and "| " not in cells
        and _is_one_line(free) and " \u00a6" not in free and "\u00a6 " not in free
    ):  # fmt: skip
        return [_table_line(row, widths) for row in rows]
    layout, width = _layout(widths)
    layout += "  %s"
    lines = []
    for row, last in zip(rows, lasts):
        line = layout % tuple(row)
        lines.append(line.rstrip() if len(line) == width + 2 + len(last) else _table_line(row, widths))
    return lines


def _table_line(row: Sequence[str], widths: tuple[int, ...]) -> str:
    return (padded(row[:-1], widths) + "  " + one_line(row[-1])).rstrip()


_LAYOUTS: dict[tuple[int, ...], tuple[str, int]] = {}


def _layout(widths: tuple[int, ...]) -> tuple[str, int]:
    """A %-format that pads each cell to its width, two spaces apart, and the width of a row it lays
    out whose cells all fit."""
    found = _LAYOUTS.get(widths)
    if found is None:
        found = _LAYOUTS[widths] = ("  ".join(f"%-{width}s" for width in widths), sum(widths) + 2 * max(0, len(widths) - 1))
    return found


def columns(text: str) -> int:
    """The terminal columns `text` takes: wide CJK and emoji take two."""
    if text.isascii():
        return len(text)  # no ASCII character is wide
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def fit(text: str, width: int) -> str:
    """`text` in at most `width` terminal columns, an ellipsis marking a cut."""
    if columns(text) <= width:
        return text
    used, kept = 0, []
    for char in text:
        used += 2 if unicodedata.east_asian_width(char) in "WF" else 1
        if used > width - 1:
            break
        kept.append(char)
    return "".join(kept) + "…"
