"""Session text made safe for a terminal or a label: escapes removed, control characters shown."""

from __future__ import annotations

import re
import unicodedata

_ANSI = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor moves
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC: titles, hyperlinks
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"  # DCS, SOS, PM, APC strings
    r"|\x1b[@-Z\\-_]"  # two-character escapes
    r"|\x9b[0-?]*[ -/]*[@-~]"  # 8-bit CSI
)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _control_picture(match: re.Match[str]) -> str:
    code = ord(match.group())
    return "\u2421" if code == 0x7F else chr(0x2400 + code)


def strip_ansi(text: str) -> str:
    """Terminal escapes removed; other control characters shown as their symbols (␇, ␛)."""
    if "\x1b" in text or "\x9b" in text:
        text = _ANSI.sub("", text)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _CONTROL.sub(_control_picture, text)


# For one line on a terminal: every C0 and C1 control, and the bidirectional
# overrides that make text read differently from how it is stored.
_LINE_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]+")


def one_line(text: str, limit: int | None = None) -> str:
    """Text for one terminal line: escapes gone, controls and runs of white space as one space."""
    if "\x1b" in text or "\x9b" in text:
        text = _ANSI.sub("", text)
    text = " ".join(_LINE_UNSAFE.sub(" ", text).split())
    if limit is not None and len(text) > limit:
        return text[: limit - 1] + "…"
    return text


def pad(text: str, width: int) -> str:
    """`text` followed by spaces to fill `width` terminal columns (wide CJK and emoji take two)."""
    used = sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)
    return text + " " * max(0, width - used)
