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
