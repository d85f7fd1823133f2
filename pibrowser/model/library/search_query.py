"""A search the user typed, turned into an FTS5 query that cannot be read as FTS5 syntax.

Words must all occur, whole and in any case; "quoted phrases" must occur as
written. Every term becomes an FTS5 string (double quotes, inner quotes
doubled), so `*`, `NEAR`, `OR`, `-`, `:` and parentheses are only text: a
prefix of a word never matches and no query is a syntax error.

Chinese and Japanese (and Korean, whose words take their endings without a
space) are written without spaces between words, so FTS5's tokenizer would make
one token of a whole run and find no word inside it. Such characters are
indexed one token each (`spaced_out`, used on the text indexed and on the
query alike): a term of them is then a phrase of single characters, which
matches wherever they stand side by side, so any substring is found, of one
character or two as well as longer. Words in other scripts stay whole words,
even where they touch such characters ("用pytest运行" holds the word pytest).
The index keeps only the spaced-out text; `unspaced` gives back the text as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A term without a letter, digit or underscore has no token the index could hold.
_SEARCHABLE = re.compile(r"\w")

# Scripts written without spaces between words: CJK radicals and symbols that are letters (々〆〇),
# kana, Bopomofo, Hangul, the CJK ideographs (and their extensions and compatibility forms), half-width kana.
UNSPACED = (
    "\u2e80-\u2fdf\u3005-\u3007\u3021-\u3029\u3031-\u3035\u3038-\u303c\u3041-\u309f\u30a1-\u30ff"
    "\u3105-\u312f\u3131-\u318e\u31a0-\u31bf\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f"
    "\uac00-\ud7af\ud7b0-\ud7ff\uf900-\ufaff\uff66-\uff9f\U00020000-\U0003134f"
)
_UNSPACED_CHAR = re.compile(f"[{UNSPACED}]")
_UNSPACED_RUN = re.compile(f"[{UNSPACED}]+")
_SPACED_RUN = re.compile(f" ((?:[{UNSPACED}] )*[{UNSPACED}]) ")
# A word character that is not one of those: what a whole word may not touch.
_SPACED_WORD_CHAR = f"[^\\W{UNSPACED}]"


def spaced_out(text: str) -> str:
    """`text` with a space on each side of every character of an unspaced script: what the index tokenizes."""
    if not _UNSPACED_CHAR.search(text):
        return text
    return _UNSPACED_RUN.sub(lambda run: f" {' '.join(run.group())} ", text)


def unspaced(text: str) -> str:
    """The text `spaced_out` was given, from what it made: every run of those characters stands
    between two spaces of ours, one space apart; two runs have at least the character that
    parted them between their spaces, so a run of ours is never mistaken for another's."""
    if not _UNSPACED_CHAR.search(text):
        return text
    return _SPACED_RUN.sub(lambda run: run.group(1)[::2], text)


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
    quoted = ['"' + spaced_out(term.text).replace('"', '""') + '"' for term in terms if _SEARCHABLE.search(term.text)]
    return " ".join(quoted) if quoted else None


SNIPPET_BEFORE = 60
SNIPPET_AFTER = 160


def term_patterns(terms: list[Term]) -> list[re.Pattern[str]]:
    """How each term shows in text: its words whole, in order, any case, anything but a word between them
    (nothing needed beside a character of an unspaced script, which is a word of its own)."""
    patterns = []
    for term in terms:
        words = re.findall(r"\w+", spaced_out(term.text))
        if not words:
            continue
        pattern = "" if _UNSPACED_CHAR.match(words[0]) else f"(?<!{_SPACED_WORD_CHAR})"
        for before, word in zip([None, *words], words):
            if before is not None:
                pattern += r"\W*" if _UNSPACED_CHAR.match(before) or _UNSPACED_CHAR.match(word) else r"\W+"
            pattern += re.escape(word)
        if not _UNSPACED_CHAR.match(words[-1]):
            pattern += f"(?!{_SPACED_WORD_CHAR})"
        patterns.append(re.compile(pattern, re.IGNORECASE))
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
