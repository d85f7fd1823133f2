"""A comparison as the `diff` command prints it: one JSON object, or a unified text view.

The JSON holds pi's own messages after the shared prefix, exactly as pi has
them, and the tokens pi's estimateTokens gives those messages. The text view
reads like a unified diff: "-" only on the left, "+" only on the right, "~" a
pair whose text changed (word by word, [-removed-]{+added+}), "=" a pair the
model receives alike although it was recorded at another time or by another
model. Everything from the session passes through strip_ansi, so no escape in
it reaches the terminal.
"""

from __future__ import annotations

from typing import Any

from ..text.plural import counted
from .alignment import Row, RowKind
from .comparison import Comparison
from ..text.describe import message_preview, model_name
from .side_totals import SideTotals
from ..tokens.message_tokens import estimate_messages_tokens
from ..text.terminal_text import strip_ansi
from ..text.transcript import message_body
from .word_diff import ADDED, KEPT, REMOVED, Segment, condensed

# Characters of one message's body shown in the text view.
BODY_LIMIT = 2000


def diff_object(comparison: Comparison) -> dict[str, Any]:
    """The `diff --format json` object, keys in the documented order."""
    left, right = comparison.left_only, comparison.right_only
    return {
        "ancestor": comparison.common_ancestor,
        "shared": comparison.shared_prefix,
        "left": left,
        "right": right,
        "left_tokens": estimate_messages_tokens(left),
        "right_tokens": estimate_messages_tokens(right),
    }


def diff_text(comparison: Comparison) -> str:
    lines = [
        _side_line("---", "left", comparison.left.leaf, SideTotals.of(comparison.left)),
        _side_line("+++", "right", comparison.right.leaf, SideTotals.of(comparison.right)),
        _fork_line(comparison),
    ]
    # In the shared prefix only what differs quietly is worth a line.
    lines.extend(f"= {_title(comparison, row)}  ({row.note})" for row in comparison.rows[: comparison.shared_prefix] if row.note)
    for row in comparison.rows_after_fork:
        lines.extend(_row_lines(comparison, row))
    if comparison.identical:
        lines.append("(the model receives the same messages with the same settings on both sides)")
    return strip_ansi("\n".join(lines)) + "\n"


def _side_line(mark: str, name: str, leaf: str | None, totals: SideTotals) -> str:
    return (
        f"{mark} {name} {leaf}: {counted(totals.messages, 'message')} · ≈{counted(totals.tokens, 'token')} · "
        f"${totals.cost:.4f} recorded · model {model_name(totals.model) or 'none'} · thinking {totals.thinking_level}"
    )


def _fork_line(comparison: Comparison) -> str:
    ancestor = comparison.common_ancestor
    where = f"fork point {ancestor}" if ancestor is not None else "no common ancestor (separate roots)"
    count = comparison.shared_prefix
    shared = f"{counted(count, 'shared message')} (the same for the model)"
    differ = comparison.differences
    return f"@@ {where}; {shared}; {counted(differ, 'row')} {'differs' if differ == 1 else 'differ'} @@"


def _title(comparison: Comparison, row: Row) -> str:
    """ "#3 user [entry]" for one side, "#3 ↔ #5 user [a|b]" for a pair."""
    sides = [(side, index) for side, index in (("left", row.left), ("right", row.right)) if index is not None]
    numbers = " ↔ ".join(f"#{index + 1}" for _, index in sides)
    message = (comparison.left.messages if sides[0][0] == "left" else comparison.right.messages)[sides[0][1]]
    role = message.get("role") if isinstance(message, dict) else "value"
    sources = "|".join(dict.fromkeys(comparison.source(side, index).id for side, index in sides))
    return f"{numbers} {role} [{sources}]"


def _row_lines(comparison: Comparison, row: Row) -> list[str]:
    cause = comparison.cause(row)
    because = f"  ({cause.text})" if cause is not None else ""
    if row.kind in (RowKind.SAME, RowKind.QUIET):
        message = comparison.left.messages[row.left] if row.left is not None else None
        note = f"  ({row.note})" if row.note else ""
        return [f"= {_title(comparison, row)}: {' '.join(message_preview(message)[:100].split())}{note}"]
    if row.kind is RowKind.CHANGED:
        segments = comparison.word_diff(row)
        if all(op != KEPT for op, _ in segments):
            # Nothing in common: the two texts read better one after the other.
            assert row.left is not None and row.right is not None, "a changed row pairs two messages"
            left, right = (
                message_body(side.messages[index], BODY_LIMIT)
                for side, index in ((comparison.left, row.left), (comparison.right, row.right))
            )
            return [f"~ {_title(comparison, row)}{because}"] + _indented("-", left) + _indented("+", right)
        return [f"~ {_title(comparison, row)}{because}"] + _indented("~", _marked(condensed(segments)))
    mark, messages, index = (
        ("-", comparison.left.messages, row.left) if row.kind is RowKind.LEFT else ("+", comparison.right.messages, row.right)
    )
    assert index is not None, "a one-sided row has a message on its side"
    return [f"{mark} {_title(comparison, row)}{because}"] + _indented(mark, message_body(messages[index], BODY_LIMIT))


def _marked(segments: list[Segment]) -> str:
    parts = []
    for op, text in segments:
        parts.append(f"[-{text}-]" if op == REMOVED else f"{{+{text}+}}" if op == ADDED else text)
    text = "".join(parts)
    return text if len(text) <= 4 * BODY_LIMIT else text[: 4 * BODY_LIMIT] + f"… ({len(text) - 4 * BODY_LIMIT:,} more characters)"


def _indented(mark: str, body: str) -> list[str]:
    return [f"{mark}     {line}" for line in body.splitlines()] or [f"{mark}     (empty)"]
