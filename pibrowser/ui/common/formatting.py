"""Session values as text to read: times, counts, costs, JSON, tool-call arguments."""

from __future__ import annotations

from typing import Any

from ...model.text.amounts import exact_count, usage_text
from ...model.text.describe import model_name
from ...model.session.content import ContentShape, content_shape, image_count, texts
from ...model.session.entry import Entry
from ...model.js.date import js_time
from ...model.js.stringify import dump_json_indented
from ...model.js.value import MISSING
from ...model.tokens.stats import ContextStats
from ...model.text.terminal_text import shorten
from ...model.tokens.usage import usage_number
from ...model.text.timefmt import format_millis
from .safe_text import clean, plain
from ...model.text.plural import counted

ARGUMENT_LIMIT = 1500
JSON_STRING_LIMIT = 2000


def message_time(message: Any, entry: Entry) -> str:
    if isinstance(message, dict):
        text = format_millis(message.get("timestamp"))
        if text:
            return text
    return format_millis(js_time(entry.timestamp))


def clip_strings(value: Any, limit: int = JSON_STRING_LIMIT) -> tuple[Any, int]:
    """A display copy with long strings shortened; returns it and how many were."""
    count = 0

    def walk(node: Any) -> Any:
        nonlocal count
        if isinstance(node, str):
            if len(node) > limit:
                count += 1
                return node[:limit] + f"… [clipped: {len(node):,} characters in all]"
            return node
        if isinstance(node, dict):
            return {str(key): walk(item) for key, item in node.items()}
        if isinstance(node, list):
            return [walk(item) for item in node]
        return node

    return walk(value), count


def pretty_json(value: Any) -> str:
    # Numbers and key order as pi's JSON.stringify shows them (2, not 2.0).
    return dump_json_indented(value)


def display_json(value: Any, limit: int = JSON_STRING_LIMIT) -> tuple[str, int]:
    clipped, count = clip_strings(value, limit)
    return pretty_json(clipped), count


def format_arguments(arguments: Any, limit: int = ARGUMENT_LIMIT, total: int = 8 * ARGUMENT_LIMIT) -> str:
    """Tool-call arguments for reading: strings as written (not JSON-escaped), nested values indented."""
    if arguments is MISSING:
        return "(no arguments)"
    if isinstance(arguments, dict) and not arguments:
        return "(no arguments)"
    lines: list[str] = []
    _readable(arguments, 0, lines, limit)
    text = "\n".join(lines)
    if len(text) > total:
        text = text[:total] + f"… [{len(text) - total:,} more characters]"
    return text


def _scalar(value: Any, limit: int) -> str:
    if value == "":
        return '""'
    if isinstance(value, str):
        shown, hidden = clean(value, limit)
        return shown + (f"… [{hidden:,} more characters]" if hidden else "")
    return display_json(value, limit)[0]


def _readable(value: Any, indent: int, lines: list[str], limit: int, prefix: str = "") -> None:
    pad = "  " * indent
    if len(lines) > 400:
        if lines[-1] != f"{pad}…":
            lines.append(f"{pad}…")
        return
    if isinstance(value, dict) and value:
        first = True
        for key, item in value.items():
            lead = prefix if first else " " * len(prefix)
            first = False
            _readable_pair(str(key), item, indent, lines, limit, lead)
        return
    if isinstance(value, list) and value:
        for item in value:
            if isinstance(item, (dict, list)) and item:
                _readable(item, indent, lines, limit, prefix + "- ")
            else:
                _readable_pair(None, item, indent, lines, limit, prefix + "- ")
        return
    _readable_pair(None, value, indent, lines, limit, prefix)


def _readable_pair(key: str | None, value: Any, indent: int, lines: list[str], limit: int, lead: str) -> None:
    pad = "  " * indent + lead
    label = f"{key}: " if key is not None else ""
    if isinstance(value, (dict, list)) and value:
        if key is None:
            _readable(value, indent, lines, limit, lead)
            return
        lines.append(f"{pad}{key}:")
        _readable(value, indent + 1 + len(lead) // 2, lines, limit)
        return
    text = _scalar(value, limit)
    if "\n" in text:
        lines.append(f"{pad}{label}|")
        inner = " " * len(pad) + "  "
        lines.extend(inner + line for line in text.split("\n"))
    else:
        lines.append(f"{pad}{label}{text}")


def short_id(value: Any, width: int = 22) -> str:
    return shorten(plain(value), width)


def format_tokens(value: Any) -> str:
    return exact_count(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else plain(value)


def format_usage(stats: ContextStats) -> str:
    total = stats.usage
    if total is None:
        return "being summed…"
    if not total.records:
        return "none recorded"
    return usage_text(total.input, total.output, total.cache_read, total.cache_write, total.cost, exact=True)


def format_model(model: Any) -> str:
    """A model's name (model/text/describe.model_name) as inert text for a label."""
    return plain(model_name(model) or "none")


def content_size(content: Any) -> str:
    shape = content_shape(content)
    if shape is ContentShape.STRING:
        return counted(len(content), "character")
    if shape is not ContentShape.BLOCKS:
        return "no content"
    chars = sum(len(text) for text in texts(content))
    images = image_count(content)
    text = counted(chars, "character")
    return text + (f", {counted(images, 'image')}" if images else "")


def message_usage_text(usage: dict[str, Any]) -> str:
    """An assistant message's token counts and cost; cache and cost only when there are some."""
    cost = usage.get("cost")
    return usage_text(
        usage_number(usage, "input"),
        usage_number(usage, "output"),
        usage_number(usage, "cacheRead"),
        usage_number(usage, "cacheWrite"),
        usage_number(cost, "total") if isinstance(cost, dict) else 0,
        brief=True,
    )
