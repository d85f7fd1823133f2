"""`String.prototype.localeCompare` as Node orders file names: the Unicode collation of ICU's root locale.

pi's session list (/resume) breaks ties between sessions with the same time by
the file name, `b.localeCompare(a)`: ICU collation in Node's default locale
(en-US, whose order is CLDR root's), not code points. It compares in levels:
first the characters alone, case and accents aside (punctuation and symbols
count, before digits, before letters); then accents; then case, lower before
upper. So `a_x < a-x < a.x < a1 < ab < aB < Ab < b`.

`collation_key` gives that order for the characters session file names are made
of: every ASCII character in ICU's order, and Latin letters with accents (as the
letter, then the accent). Other characters come after all of those, by code
point: an approximation of the full table ICU carries, which only a hand-made
name in another script would meet.
"""

from __future__ import annotations

import unicodedata

# ICU's root order of the printable ASCII characters that are not letters or digits (space first).
_ASCII_ORDER = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789"
_PRIMARY = {char: index for index, char in enumerate(_ASCII_ORDER)}
_LETTERS = len(_ASCII_ORDER)  # a letter's weight: after every symbol and digit
_OTHERS = _LETTERS + 26  # any other character: after the letters, by code point


def _primary(char: str) -> int:
    weight = _PRIMARY.get(char)
    if weight is not None:
        return weight
    lower = char.lower()
    if "a" <= lower <= "z" and char.isascii():
        return _LETTERS + ord(lower) - ord("a")
    return _OTHERS + ord(char)


def collation_key(text: str) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """A sort key: two names compare as `a.localeCompare(b)` does (for the characters described above)."""
    primary: list[int] = []
    secondary: list[int] = []
    tertiary: list[int] = []
    for char in unicodedata.normalize("NFD", text):
        if unicodedata.combining(char):
            if secondary:
                secondary[-1] = secondary[-1] * 0x10000 + ord(char)  # an accent on the letter before it
            continue
        if unicodedata.category(char) in ("Cc", "Cf"):
            continue  # ignorable: ICU gives control and format characters no weight
        primary.append(_primary(char))
        secondary.append(0)
        tertiary.append(1 if char.isupper() else 0)
    return tuple(primary), tuple(secondary), tuple(tertiary)
