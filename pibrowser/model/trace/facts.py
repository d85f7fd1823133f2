"""What the trace reads of one entry: its times, usage, stop reason, tool calls and results.

A trace of a 100,000-entry path reads every line of it once. Lines not parsed
yet are decoded with msgspec, typed to the fields the trace needs, so the long
text of replies and results is checked but not built into objects it would
drop at once; a line the typed decoder refuses (a content that is neither a
string nor a list of objects, text that is not UTF-8) is parsed whole as pi
parses it. Nothing is kept on the entry: `table.FactsTable` keeps the numbers
a trace is built from; the texts (arguments, prompts, errors) are read again
here when a row shows them.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable
from typing import Any

import msgspec

from ..js.date import js_time
from ..js.stringify import js_stringify
from ..js.value import MISSING, js_length
from ..context.file_lists import OPERATIONS, FileCall, file_call, nested_file_calls
from ..session.content import texts
from ..session.jsonline import parse_line
from ..session.entry import Entry
from ..text.terminal_text import one_line
from ..tokens.usage import usage_number

ARGUMENTS_LIMIT = 240  # a call's arguments, on one line, as far as anyone reads them in a row
TEXT_LIMIT = 160  # the first words of a prompt or an error
# Entry types whose fields the trace shows; the rest (labels, session info, …) are read no further.
_READ_TYPES = ("compaction", "branch_summary", "usage", "model_change", "thinking_level_change", "custom_message", "context_edit")


# A usage record as (input, output, cache read, cache write, cost): see usage_numbers.
Usage = tuple[float, float, float, float, float]


class _Block(msgspec.Struct):
    type: Any = None
    id: Any = None
    name: Any = None
    arguments: msgspec.Raw = msgspec.Raw(b"")  # kept as the line's own bytes: JSON.stringify's form, one line
    text: Any = None


class _Message(msgspec.Struct):
    role: Any = None
    content: str | list[_Block] | None = None
    timestamp: Any = None
    durationMs: Any = None
    stopReason: Any = None
    errorMessage: Any = None
    usage: Any = None
    provider: Any = None
    model: Any = None
    responseModel: Any = None
    thinkingLevel: Any = None
    toolCallId: Any = None
    toolName: Any = None
    isError: Any = None
    nestedCalls: Any = None


class _Line(msgspec.Struct):
    message: _Message | None = None


_decode_line = msgspec.json.Decoder(_Line).decode
_ERRORS = (msgspec.DecodeError, msgspec.ValidationError, RecursionError, UnicodeDecodeError)


class ToolCallFacts:
    __slots__ = ("id", "name", "arguments")

    def __init__(self, id: str | None, name: str, arguments: str) -> None:
        self.id = id
        self.name = name
        self.arguments = arguments  # one line, cut at ARGUMENTS_LIMIT


class Facts:
    """One entry as the trace sees it. Times are epoch milliseconds; None where not known."""

    __slots__ = (
        "id", "type", "role", "time", "message_time", "duration", "stop_reason", "error_message", "model",
        "thinking", "usage", "calls", "tool_call_id", "tool_name", "is_error", "result_chars", "text", "file_calls",
    )  # fmt: skip

    def __init__(self, entry: Entry) -> None:
        self.id = entry.id
        self.type = entry.type
        self.role = entry.role if entry.type == "message" else None
        self.time = js_time(entry.timestamp)  # when pi appended the entry
        self.message_time: float | None = None  # the message's own `timestamp`
        self.duration: float | None = None  # the message's `durationMs`
        self.stop_reason: str | None = None
        self.error_message: str | None = None
        self.model: str | None = None  # "provider/model" of a reply; a model_change's too
        self.thinking: str | None = None  # a reply's requested level; a thinking_level_change's
        self.usage: Usage | None = None
        self.calls: tuple[ToolCallFacts, ...] = ()
        self.tool_call_id: str | None = None
        self.tool_name: str | None = None
        self.is_error = False
        self.result_chars = 0  # a tool result's text, in JS characters (images 0)
        self.text = ""  # first words: of a prompt, a custom message, a summary, or a failed result
        self.file_calls: tuple[FileCall, ...] = ()  # the calls pi's compaction counts (context/file_lists.py)


def entry_facts(entry: Entry) -> Facts:
    """The facts of one entry, read from its line without keeping the line parsed on it."""
    facts = Facts(entry)
    if entry.type == "message":
        _read_message(facts, entry)
    elif entry.type in _READ_TYPES:
        _read_other(facts, entry.peek())
    return facts


def _read_message(facts: Facts, entry: Entry) -> None:
    message: Any = None
    if not entry.is_parsed:
        raw = entry.raw
        if raw is not None:
            try:
                message = _decode_line(raw).message
            except _ERRORS:
                message = None
    if message is None:
        message = _from_parsed(entry.peek().get("message"))
    if message is not None:
        _fill(facts, message)


def _from_parsed(message: Any) -> _Message | None:
    """A parsed message as the typed decoder would give it; what it could not hold left out."""
    if not isinstance(message, dict):
        return None
    fields = {name: message[name] for name in _Message.__struct_fields__ if name in message and name != "content"}
    content = message.get("content")
    if isinstance(content, list):
        content = [_block(block) for block in content if isinstance(block, dict)]
    elif not isinstance(content, str):
        content = None
    return _Message(content=content, **fields)


def _block(block: dict[str, Any]) -> _Block:
    arguments = js_stringify(block["arguments"]) if "arguments" in block else None
    return _Block(block.get("type"), block.get("id"), block.get("name"), msgspec.Raw((arguments or "").encode("utf-8")), block.get("text"))


def _fill(facts: Facts, message: _Message) -> None:
    facts.message_time = _number(message.timestamp)
    facts.duration = _number(message.durationMs)
    role = facts.role
    content = message.content
    if role == "assistant":
        facts.stop_reason = _short(message.stopReason)
        facts.error_message = _text(message.errorMessage)
        model = message.responseModel if isinstance(message.responseModel, str) and message.responseModel else message.model
        facts.model = _interned(f"{_plain(message.provider)}/{_plain(model)}")
        facts.thinking = _short(message.thinkingLevel)
        facts.calls = tuple(_calls(content))
        facts.file_calls = tuple(_file_calls(content, facts.id))
    elif role == "toolResult":
        facts.tool_call_id = message.toolCallId if isinstance(message.toolCallId, str) else None
        facts.tool_name = _interned(_plain(message.toolName))
        facts.is_error = message.isError is True
        facts.file_calls = tuple(nested_file_calls(message.nestedCalls, facts.id))
        result_texts = list(_texts(content))
        facts.result_chars = sum(map(js_length, result_texts))
        if facts.is_error:
            facts.text = _first_line(result_texts)
    elif role in ("user", "custom", "system"):
        facts.text = _first_line(_texts(content))
    if isinstance(message.usage, dict):
        facts.usage = usage_numbers(message.usage)


def _calls(content: Any) -> Iterable[ToolCallFacts]:
    if not isinstance(content, list):
        return
    for block in content:
        if block.type == "toolCall":
            arguments = bytes(block.arguments).decode("utf-8", "replace")
            yield ToolCallFacts(
                block.id if isinstance(block.id, str) else None, _interned(_plain(block.name)), one_line(arguments, ARGUMENTS_LIMIT)
            )


def _file_calls(content: Any, entry_id: str) -> Iterable[FileCall]:
    """context/file_lists.py's rule, for the typed decoder's blocks: an object of type toolCall with
    `arguments` present (its bytes not empty) and a name; arguments parsed only for the three tools."""
    if not isinstance(content, list):
        return
    for block in content:
        if block.type == "toolCall" and block.name in OPERATIONS and block.arguments:
            try:
                arguments, _ = parse_line(bytes(block.arguments))
            except ValueError:
                continue
            call = file_call(block.name, arguments, entry_id, block.id)
            if call is not None:
                yield call


def _texts(content: Any) -> Iterable[str]:
    # The typed decoder's blocks (not dicts): content.texts' rule for them.
    if isinstance(content, str):
        yield content
    elif isinstance(content, list):
        for block in content:
            if block.type == "text" and isinstance(block.text, str):
                yield block.text


def _read_other(facts: Facts, data: dict[str, Any]) -> None:
    kind = facts.type
    usage = data.get("usage")
    if isinstance(usage, dict) and kind in ("compaction", "branch_summary", "usage"):
        facts.usage = usage_numbers(usage)
    if kind in ("model_change", "usage"):
        model_key = "modelId" if kind == "model_change" else "model"
        facts.model = _interned(f"{_plain(data.get('provider'))}/{_plain(data.get(model_key))}")
    elif kind == "thinking_level_change":
        facts.thinking = _short(data.get("thinkingLevel"))
    elif kind in ("compaction", "branch_summary"):
        facts.text = _first_line([data["summary"]] if isinstance(data.get("summary"), str) else [])
    elif kind == "custom_message":
        facts.text = _first_line(texts(data.get("content")))
        facts.message_time = facts.time  # pi rebuilds a custom message's time from the entry's


def usage_numbers(usage: dict[str, Any]) -> Usage:
    """(input, output, cache read, cache write, cost) of a usage record, as pi's statistics read it:
    numbers only, the cost from `cost.total`. A tuple: a long session holds tens of thousands."""
    cost = usage.get("cost")
    return (
        usage_number(usage, "input"),
        usage_number(usage, "output"),
        usage_number(usage, "cacheRead"),
        usage_number(usage, "cacheWrite"),
        usage_number(cost, "total") if isinstance(cost, dict) else 0,
    )


def _number(value: Any) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return value
    return None


def _plain(value: Any) -> str:
    return value if isinstance(value, str) else "?" if value is None or value is MISSING else str(value)


def _short(value: Any) -> str | None:
    return _interned(value) if isinstance(value, str) and len(value) <= 64 else _text(value)


def _text(value: Any) -> str | None:
    return one_line(value[: TEXT_LIMIT * 4], TEXT_LIMIT) if isinstance(value, str) else None


def _first_line(texts: Iterable[str]) -> str:
    """The first words of the first text that has any, on one line."""
    for text in texts:
        words = one_line(text[: TEXT_LIMIT * 4], TEXT_LIMIT)
        if words:
            return words
    return ""


def _interned(text: str) -> str:
    # Tool and model names repeat on tens of thousands of entries: one string each.
    return sys.intern(text) if len(text) <= 64 else text
