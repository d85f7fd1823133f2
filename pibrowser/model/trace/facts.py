"""What the trace reads of one entry: its times, usage, stop reason, tool calls and results.

A trace of a 100,000-entry path reads every line of it once. Lines not parsed
yet are decoded with msgspec, typed to the fields the trace needs, so the long
text of replies and results is checked but not built into objects it would
drop at once; a line the typed decoder refuses (a content that is neither a
string nor a list of objects, text that is not UTF-8) is parsed whole as pi
parses it. Nothing is kept on the entry: `table.FactsTable` keeps the numbers
a trace is built from; the texts (arguments, prompts, errors) are read again
here when a row shows them.

`entry_facts` reads one entry; `lines_facts` reads the lines of entries not
made (the command line's pass over a clean file's path), the same rules a line
after the other, each entry's timestamp decoded with its message and all of a
batch's read at once (js_times).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from ..js.date import js_time, js_times
from ..js.stringify import js_stringify
from ..js.value import MISSING, js_length
from ..context.file_lists import OPERATIONS, FileCall, file_call, nested_file_calls
from ..session.content import texts
from ..session.jsonline import parse_line
from ..session.entry import Entry, line_object
from ..text.describe import as_text
from ..text.terminal_text import one_line
from ..tokens.usage import usage_figures, usage_number

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
    timestamp: Any = MISSING  # the entry's: read with the message when a batch of lines is read


class _Stamp(msgspec.Struct):
    timestamp: Any = MISSING


_decode_line = msgspec.json.Decoder(_Line).decode
_decode_stamp = msgspec.json.Decoder(_Stamp).decode
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

    def __init__(self, id: str, type: Any, role: Any, time: int | None) -> None:
        self.id = id
        self.type = type
        self.role = role if type == "message" else None
        self.time = time  # when pi appended the entry
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
    facts = Facts(entry.id, entry.type, entry.role, js_time(entry.timestamp))
    if entry.type == "message":
        message = _typed_message(entry.raw) if not entry.is_parsed else None
        if message is None:
            message = _from_parsed(entry.peek().get("message"))
        if message is not None:
            _fill(facts, message, True)
    elif entry.type in _READ_TYPES:
        _read_other(facts, entry.peek())
    return facts


def lines_facts(
    ids: Sequence[str], kinds: Sequence[tuple[Any, Any]], lines: Sequence[bytes | memoryview], file_calls: bool = True
) -> list[Facts]:
    """entry_facts of entries not parsed, from their ids, (type, role) pairs and lines (or views of
    them), in step; each line decoded once, typed, its entry's timestamp with it. Without
    `file_calls` the calls pi's compaction counts are not read (a trace shows none of them)."""
    found = []
    stamps = []
    others = []  # entries of the other types read, with their lines: read once their times are known
    for key, (kind, role), raw in zip(ids, kinds, lines):
        try:
            line: _Line | None = _decode_line(raw)  # a line at a time: its objects freed while in the caches
        except _ERRORS:
            line = None
        facts = Facts(key, kind, role, None)
        found.append(facts)
        stamps.append(line.timestamp if line is not None else _stamp(raw))
        if kind == "message":
            message = line.message if line is not None else None
            if message is None:
                message = _from_parsed(line_object(bytes(raw)).get("message"))
            if message is not None:
                _fill(facts, message, file_calls)
        elif kind in _READ_TYPES:
            others.append((facts, raw))
    for facts, time in zip(found, js_times(stamps)):
        facts.time = time
    for facts, raw in others:
        _read_other(facts, line_object(bytes(raw)))
    return found


def _typed_message(raw: bytes | None) -> _Message | None:
    if raw is None:
        return None
    try:
        return _decode_line(raw).message
    except _ERRORS:
        return None


def _stamp(raw: bytes | memoryview) -> Any:
    """The timestamp of a line the typed decoder refused, as the entry read from it holds it."""
    try:
        return _decode_stamp(raw).timestamp
    except _ERRORS:
        return line_object(bytes(raw)).get("timestamp", MISSING)


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


_NUMBERS = (int, float)
_FLOAT_RANGE = 2**1000  # an int past it is too large for math.isfinite, as _number finds
_MODELS: dict[tuple[str, str], str] = {}  # "provider/model" of the pairs seen: one string each


def _fill(facts: Facts, message: _Message, file_calls: bool) -> None:
    # A line at a time for 100,000 entries: the usual types are read inline, anything else as before.
    value = message.timestamp
    if type(value) is int and -_FLOAT_RANGE < value < _FLOAT_RANGE:
        facts.message_time = value
    else:
        facts.message_time = _number(value)
    value = message.durationMs
    facts.duration = None if value is None else _number(value)
    role = facts.role
    content = message.content
    if role == "assistant":
        value = message.stopReason
        facts.stop_reason = None if value is None else _short(value)
        value = message.errorMessage
        facts.error_message = None if value is None else _text(value)
        facts.model = _model(message)
        value = message.thinkingLevel
        facts.thinking = None if value is None else _short(value)
        if type(content) is list:
            facts.calls = tuple(_calls(content))
            if file_calls:
                facts.file_calls = tuple(_file_calls(content, facts.id))
    elif role == "toolResult":
        value = message.toolCallId
        facts.tool_call_id = value if isinstance(value, str) else None
        value = message.toolName
        facts.tool_name = _interned(value if type(value) is str else _plain(value))
        facts.is_error = message.isError is True
        value = message.nestedCalls
        if value is not None and file_calls:
            facts.file_calls = tuple(nested_file_calls(value, facts.id))
        result_texts = list(_texts(content))
        facts.result_chars = sum(map(js_length, result_texts))
        if facts.is_error:
            facts.text = _first_line(result_texts)
    elif role in ("user", "custom", "system"):
        facts.text = _first_line(_texts(content))
    if type(message.usage) is dict:
        facts.usage = usage_numbers(message.usage)


def _model(message: _Message) -> str:
    """The "provider/model" of a reply: the model that answered (responseModel) where it is said."""
    provider, model = message.provider, message.responseModel
    if not (isinstance(model, str) and model):
        model = message.model
    if type(provider) is str and type(model) is str and len(provider) + len(model) < 64:
        pair = (provider, model)
        known = _MODELS.get(pair)
        if known is None:
            if len(_MODELS) > 4096:
                _MODELS.clear()
            known = _MODELS[pair] = sys.intern(f"{provider}/{model}")
        return known
    return _interned(f"{_plain(provider)}/{_plain(model)}")


def _calls(content: list[_Block]) -> Iterable[ToolCallFacts]:
    for block in content:
        if block.type == "toolCall":
            arguments = bytes(block.arguments).decode("utf-8", "replace")
            name = block.name
            yield ToolCallFacts(
                block.id if isinstance(block.id, str) else None,
                _interned(name if type(name) is str else _plain(name)),
                one_line(arguments, ARGUMENTS_LIMIT),
            )


def _file_calls(content: list[_Block], entry_id: str) -> Iterable[FileCall]:
    """context/file_lists.py's rule, for the typed decoder's blocks: an object of type toolCall with
    `arguments` present (its bytes not empty) and a name; arguments parsed only for the three tools."""
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


_USAGE_KEYS = ("input", "output", "cacheRead", "cacheWrite")


def usage_numbers(usage: dict[str, Any]) -> Usage:
    """(input, output, cache read, cache write, cost) of a usage record, as pi's statistics read it:
    numbers only, the cost from `cost.total`. A tuple: a long session holds tens of thousands."""
    cost = usage.get("cost")
    return (*usage_figures(usage, _USAGE_KEYS), usage_number(cost, "total") if isinstance(cost, dict) else 0)


def _number(value: Any) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return value
    return None


def _plain(value: Any) -> str:
    return "?" if value is None or value is MISSING else as_text(value)


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
