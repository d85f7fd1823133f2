"""A search the user typed, turned into an FTS5 query that cannot be read as FTS5 syntax.

Words must all occur, whole and in any case; "quoted phrases" must occur as
written. Every term becomes an FTS5 string (double quotes, inner quotes
doubled), so `*`, `NEAR`, `OR`, `-`, `:` and parentheses are only text: a
prefix of a word never matches and no query is a syntax error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A term without a letter, digit or underscore has no token the index could hold.
_SEARCHABLE = re.compile(r"\w")


@dataclass(frozen=True, slots=True)
class Term:
    text: str
    phrase: bool


def parse_query(query: str) -> list[Term]:
    """Words and quoted phrases, as pi's session picker reads them (an unclosed quote: all words)."""
    terms: list[Term] = []
    buffer: list[str] = []
    in_quote = False

    def flush(phrase: bool) -> None:
        text = "".join(buffer).strip()
        buffer.clear()
        if text:
            terms.append(Term(text, phrase))

    for char in query.strip():
        if char == '"':
            flush(in_quote)
            in_quote = not in_quote
        elif not in_quote and char.isspace():
            flush(False)
        else:
            buffer.append(char)
    if in_quote:
        return [Term(word, False) for word in query.split()]
    flush(False)
    return terms


def fts_match(terms: list[Term]) -> str | None:
    """The MATCH expression: every term as a quoted FTS5 string; None when nothing can match."""
    quoted = ['"' + term.text.replace('"', '""') + '"' for term in terms if _SEARCHABLE.search(term.text)]
    return " ".join(quoted) if quoted else None


SNIPPET_BEFORE = 60
SNIPPET_AFTER = 160


def term_patterns(terms: list[Term]) -> list[re.Pattern[str]]:
    """How each term shows in text: its words whole, in order, any case, anything but a word between them."""
    patterns = []
    for term in terms:
        words = re.findall(r"\w+", term.text)
        if words:
            patterns.append(re.compile(r"(?<!\w)" + r"\W+".join(map(re.escape, words)) + r"(?!\w)", re.IGNORECASE))
    return patterns


def mark_snippet(text: str, patterns: list[re.Pattern[str]], start_mark: str, end_mark: str) -> str:
    """A piece of `text` around its first hit, with every hit in it between the marks.

    Cheaper than FTS5's snippet(), which tokenizes the whole row again: a row
    holds up to 64 KB of tool output, and a page of hits would cost that a hundred times.
    """
    first = min((found.start() for pattern in patterns if (found := pattern.search(text))), default=0)
    begin = max(0, first - SNIPPET_BEFORE)
    if begin:
        space = text.find(" ", begin, first)
        begin = space + 1 if space >= 0 else begin
    end = min(len(text), first + SNIPPET_AFTER)
    if end < len(text):
        space = text.rfind(" ", first, end)
        end = space if space > first else end
    piece = text[begin:end]
    spans = sorted({found.span() for pattern in patterns for found in pattern.finditer(piece)})
    out, at = [], 0
    for start, stop in spans:
        if start < at:
            continue  # overlapping hits: the first one is marked
        out += [piece[at:start], start_mark, piece[start:stop], end_mark]
        at = stop
    out.append(piece[at:])
    return ("…" if begin else "") + "".join(out) + ("…" if end < len(text) else "")
