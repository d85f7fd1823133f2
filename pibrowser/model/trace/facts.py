"""What the trace reads of one entry: its times, usage, stop reason, tool calls and results.

A trace of a 100,000-entry path reads every line of it once. Lines not parsed
yet are decoded with msgspec, typed to the fields the trace needs, so the long
text of replies and results is checked but not built into objects it would
drop at once; a line the typed decoder refuses (a content that is neither a
string nor a list of objects, text that is not UTF-8) is parsed whole as pi
parses it. Nothing is kept on the entry: `table.FactsTable` keeps the numbers
a trace is built from; the texts (arguments, prompts, errors) are read again
here when a row shows them.

`entry_facts` reads one entry; `lines_columns` reads the lines of entries not
made (the command line's pass over a clean file's path) by the same rules, but a
fact at a time over a batch (`Columns`): each line decoded once, typed to what
its kind of entry needs (a reply's calls, a result's texts, any message's times
and usage), each entry's timestamp with it and all of a batch's read at once
(js_times); an entry's texts are left to be read again when a row shows them.

(Over 400 lines as one file: the two readers apply one set of rules, an entry's
and a batch's, through the same helpers, and the batch's are checked against the
entry's field by field.)
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import chain, compress, repeat
from operator import attrgetter, eq, is_
from typing import Any, cast

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


# The lines of the command line's pass, typed to what each kind of entry needs (lines_columns).
class _Cost(msgspec.Struct, gc=False):
    total: Any = None


class _Usage(msgspec.Struct, gc=False):
    """A usage record that is an object: usage_numbers' figures (a cost that is not an object, or
    null, does not decode: the line is read whole)."""

    input: Any = None
    output: Any = None
    cacheRead: Any = None
    cacheWrite: Any = None
    cost: _Cost | None = None


class _Plain(msgspec.Struct, gc=False):
    """A message of a role the trace reads only the times and usage of."""

    timestamp: Any = None
    durationMs: Any = None
    usage: _Usage | None = None


class _CallBlock(msgspec.Struct, gc=False):
    type: Any = None
    id: Any = None
    name: Any = None
    arguments: msgspec.Raw = msgspec.Raw(b"")


class _CheckedCallBlock(_CallBlock, gc=False):
    text: Any = None  # not read, but decoded as _Block decodes it: text that is not UTF-8 reads the line whole, as there


class _ReplyFields(_Plain, gc=False):
    stopReason: Any = None
    errorMessage: Any = None
    provider: Any = None
    model: Any = None
    responseModel: Any = None
    thinkingLevel: Any = None


class _Reply(_ReplyFields, gc=False):
    content: str | list[_CallBlock] | None = None


class _CheckedReply(_ReplyFields, gc=False):
    content: str | list[_CheckedCallBlock] | None = None


class _TextBlock(msgspec.Struct, gc=False):
    type: Any = None
    text: Any = None


class _Result(_Plain, gc=False):
    content: str | list[_TextBlock] | None = None
    toolCallId: Any = None
    toolName: Any = None
    isError: Any = None


def _line_of(message: type) -> Any:
    """A line whose message is of type `message` (None: `"message": null`), and the entry's timestamp."""
    return msgspec.defstruct(f"{message.__name__}Line", [("message", message | None, None), ("timestamp", Any, MISSING)], gc=False)


_decode_line = msgspec.json.Decoder(_Line).decode
_decode_stamp = msgspec.json.Decoder(_Stamp).decode
_decode_reply, _decode_checked_reply, _decode_result, _decode_plain = (
    msgspec.json.Decoder(_line_of(message)).decode for message in (_Reply, _CheckedReply, _Result, _Plain)
)
_REPLY_DECODERS = (_decode_reply, _decode_checked_reply)
_UTF8_DECODERS = {("message", "assistant"): _decode_reply, ("message", "toolResult"): _decode_result}
_STRICT_DECODERS = {("message", "assistant"): _decode_checked_reply, ("message", "toolResult"): _decode_result}
_ERRORS = (msgspec.DecodeError, msgspec.ValidationError, RecursionError, UnicodeDecodeError)


class ToolCallFacts(msgspec.Struct, gc=False):  # made in C: a path's replies make tens of thousands
    id: str | None
    name: str
    arguments: str  # one line, cut at ARGUMENTS_LIMIT


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


@dataclass(slots=True)
class Columns:
    """The facts the trace is built from of a run of entries, one list per fact, an entry's value
    at its place in the run (FactsTable's columns before coding: strings as strings, None where
    not known); and the facts, with their calls, of the replies that made calls (their rows show
    the calls' arguments)."""

    kind: list[str]  # a message's role, else the entry's type
    entry_type: list[Any]
    time: list[int | None]
    message_time: list[float | None]
    duration: list[float | None]
    stop: list[str | None]
    model: list[str | None]
    thinking: list[str | None]
    tool: list[str | None]
    is_error: list[bool]
    result_chars: list[int]
    answers: list[str | None]  # a result's toolCallId
    usage: list[Usage | None]
    calls: list[tuple[ToolCallFacts, ...]]
    replies: dict[str, Facts]

    def put(self, at: int, facts: Facts) -> None:
        """An entry read on its own (Facts), in its place."""
        self.kind[at] = table_kind(facts)
        self.message_time[at], self.duration[at] = facts.message_time, facts.duration
        self.stop[at], self.model[at], self.thinking[at] = facts.stop_reason, facts.model, facts.thinking
        self.tool[at], self.is_error[at], self.result_chars[at] = facts.tool_name, facts.is_error, facts.result_chars
        self.answers[at], self.usage[at], self.calls[at] = facts.tool_call_id, facts.usage, facts.calls
        if facts.calls:
            self.replies[facts.id] = facts


def table_kind(facts: Facts) -> str:
    """What the table calls the entry's kind: a message's role, else the entry's type (a value that
    is not a string: "message" or "entry")."""
    kind = facts.role if facts.type == "message" else facts.type
    return kind if isinstance(kind, str) else "message" if facts.type == "message" else "entry"


def lines_columns(ids: Sequence[str], kinds: Sequence[tuple[Any, Any]], lines: Sequence[bytes | memoryview], utf8: bool = False) -> Columns:
    """The Columns of entries not made (the command line's pass over a clean file's path), from
    their ids, (type, role) pairs and lines (or views of them), in step: what entry_facts reads of
    each, but not its texts (a row reads those again), nor the calls pi's compaction counts.

    Each line is decoded once, typed to what its kind needs, and the facts are worked out a column
    at a time, each value as `_fill` reads it. `utf8`: every line is known to be UTF-8, so the
    texts of replies, which entry_facts decodes only to have them checked, are skipped. A line the
    typed decoder refuses, and an entry of a type the trace reads more of, is read as entry_facts
    reads it and put in its place."""
    count = len(lines)
    nones: list[Any] = [None] * count
    columns = Columns(
        [role if kind == "message" else kind for kind, role in kinds], [kind for kind, _ in kinds], nones,
        list(nones), list(nones), list(nones), list(nones), list(nones), list(nones), [False] * count, [0] * count,
        list(nones), list(nones), [()] * count, {},
    )  # fmt: skip
    decoders = _UTF8_DECODERS if utf8 else _STRICT_DECODERS
    decoder_of = {kind: decoders.get(kind) or (_decode_plain if kind[0] == "message" else _decode_stamp) for kind in set(kinds)}
    groups: dict[Callable[[Any], Any], list[int]] = {decode: [] for decode in decoder_of.values()}
    for at, decode in enumerate(map(decoder_of.__getitem__, kinds)):
        groups[decode].append(at)
    stamps: list[Any] = list(nones)
    odd: list[int] = []  # read on their own
    for decode, places in groups.items():
        decoded = _decode_all(decode, [lines[at] for at in places])
        if _any_none(decoded):  # a line the typed decoder refuses
            refused = [at for at, line in zip(places, decoded) if line is None]
            _put(stamps, refused, [_stamp(lines[at]) for at in refused])
            odd += refused
            places = [at for at, line in zip(places, decoded) if line is not None]
            decoded = [line for line in decoded if line is not None]
        _put(stamps, places, list(map(_TIMESTAMP, decoded)))
        if decode is _decode_stamp:
            odd += [at for at in places if kinds[at][0] in _READ_TYPES]
            continue
        messages = list(map(_MESSAGE, decoded))
        if _any_none(messages):  # `"message": null`
            odd += [at for at, message in zip(places, messages) if message is None]
            places = [at for at, message in zip(places, messages) if message is not None]
            messages = [message for message in messages if message is not None]
        _message_columns(columns, decode, ids, places, messages)
    columns.time = js_times(stamps)
    for at in odd:
        kind, role = kinds[at]
        facts = Facts(ids[at], kind, role, columns.time[at])
        data = line_object(bytes(lines[at]))
        if kind == "message":
            message = _from_parsed(data.get("message"))
            if message is not None:
                _fill(facts, message, False)
        elif kind in _READ_TYPES:
            _read_other(facts, data)
        columns.put(at, facts)
    return columns


_TIMESTAMP, _MESSAGE = attrgetter("timestamp"), attrgetter("message")


def _any_none(values: list[Any]) -> bool:
    """Whether one of `values` is None, told by identity in C (`None in` asks each decoded struct to compare)."""
    return any(map(is_, values, repeat(None)))


def _decode_all(decode: Callable[[Any], Any], lines: list[Any]) -> list[Any]:
    """Each line decoded, in C while every one decodes; None for one that does not."""
    try:
        return list(map(decode, lines))
    except _ERRORS:
        pass
    found = []
    for raw in lines:
        try:
            found.append(decode(raw))
        except _ERRORS:
            found.append(None)
    return found


def _message_columns(columns: Columns, decode: Callable[[Any], Any], ids: Sequence[str], places: list[int], messages: list[Any]) -> None:
    """The columns of the messages of one role group (`_fill`'s rules, a column at a time)."""
    _put(columns.message_time, places, _numbers([message.timestamp for message in messages]))
    _put(columns.duration, places, _numbers([message.durationMs for message in messages]))
    usages = list(map(_USAGE, messages))
    if not all(map(is_, usages, repeat(None))):
        recorded = [at for at, usage in zip(places, usages) if usage is not None]
        _put(columns.usage, recorded, _usages_numbers([usage for usage in usages if usage is not None]))
    if decode in _REPLY_DECODERS:
        _reply_columns(columns, ids, places, messages)
    elif decode is _decode_result:
        _result_columns(columns, places, messages)


def _reply_columns(columns: Columns, ids: Sequence[str], places: list[int], messages: list[_ReplyFields]) -> None:
    _put(columns.stop, places, _shorts([message.stopReason for message in messages]))
    _put(columns.thinking, places, _shorts([message.thinkingLevel for message in messages]))
    _put(columns.model, places, _models(messages))
    found = _replies_calls(messages)
    _put(columns.calls, places, found)
    replies = columns.replies
    for at, message, calls in zip(places, messages, found):
        if calls:
            facts = replies[ids[at]] = Facts(ids[at], "message", "assistant", None)
            facts.calls = calls
            value = message.errorMessage
            facts.error_message = None if value is None else _text(value)


def _models(messages: list[_ReplyFields]) -> list[str]:
    """_model of each reply, looked up by its (provider, responseModel, model) where those were seen."""
    keys = list(zip(map(_PROVIDER, messages), map(_RESPONSE_MODEL, messages), map(_MODEL_ID, messages)))
    try:
        found = list(map(_MODEL_OF.get, keys))
    except TypeError:  # a value that is not hashable (an object): read each
        return list(map(_model, messages))
    if None in found:
        for at, (key, message) in enumerate(zip(keys, messages)):
            if found[at] is None:
                found[at] = model = _model(message)
                if set(map(type, key)) <= _STR_OR_NONE:  # a key of other values may equal another's (1 and True)
                    if len(_MODEL_OF) > 4096:
                        _MODEL_OF.clear()
                    _MODEL_OF[key] = model
    return cast("list[str]", found)


_PROVIDER, _RESPONSE_MODEL, _MODEL_ID = attrgetter("provider"), attrgetter("responseModel"), attrgetter("model")
_MODEL_OF: dict[tuple[Any, Any, Any], str] = {}


def _replies_calls(messages: list[_ReplyFields]) -> list[tuple[ToolCallFacts, ...]]:
    """_calls of each reply: every reply's blocks at once, the calls picked out in C."""
    contents = [content if type(content) is list else () for content in map(_CONTENT, messages)]
    blocks = list(chain.from_iterable(contents))
    is_call = list(map(eq, map(_TYPE, blocks), repeat("toolCall")))
    found: list[tuple[ToolCallFacts, ...]] = [()] * len(messages)
    if True not in is_call:
        return found
    calls = list(compress(blocks, is_call))
    ids = [value if isinstance(value, str) else None for value in map(_ID, calls)]
    names = [_interned(value if type(value) is str else _plain(value)) for value in map(_NAME, calls)]
    arguments = map(one_line, map(str, map(_ARGUMENTS, calls), repeat("utf-8"), repeat("replace")), repeat(ARGUMENTS_LIMIT))
    owners = compress(chain.from_iterable(map(repeat, range(len(contents)), map(len, contents))), is_call)
    for owner, call in zip(owners, map(ToolCallFacts, ids, names, arguments)):
        found[owner] += (call,)
    return found


_CONTENT, _TYPE, _ID, _NAME, _ARGUMENTS = (attrgetter(name) for name in ("content", "type", "id", "name", "arguments"))


def _result_columns(columns: Columns, places: list[int], messages: list[_Result]) -> None:
    _put(columns.answers, places, [value if isinstance(value, str) else None for value in (message.toolCallId for message in messages)])
    names = [message.toolName for message in messages]
    _put(columns.tool, places, [_interned(value if type(value) is str else _plain(value)) for value in names])
    _put(columns.is_error, places, [message.isError is True for message in messages])
    _put(columns.result_chars, places, _results_chars(messages))


def _results_chars(messages: list[_Result]) -> list[int]:
    """Each result's text in JS characters (_fill's `result_chars`)."""
    return [sum(map(js_length, _texts(content))) for content in map(_CONTENT, messages)]


def _put(column: list[Any], places: list[int], values: list[Any]) -> None:
    for at, value in zip(places, values):
        column[at] = value


def _numbers(values: list[Any]) -> list[Any]:
    """_number of each value; ints, as pi's are, left as they are (those a float can hold)."""
    kinds = set(map(type, values))
    if kinds <= _INT_OR_NONE:
        ints = values if _NONE not in kinds else [value for value in values if value is not None]
        if not ints or (-_FLOAT_RANGE < min(ints) and max(ints) < _FLOAT_RANGE):
            return values
    return list(map(_number, values))


def _shorts(values: list[Any]) -> list[str | None]:
    """_short of each value, None kept (short strings as they are: a table codes them, and they are
    kept nowhere else)."""
    kinds = set(map(type, values))
    if kinds <= _STR_OR_NONE:
        texts = values if _NONE not in kinds else [value for value in values if value is not None]
        if not texts or max(map(len, texts)) <= 64:
            return values
    return [None if value is None else _short(value) for value in values]


def _usages_numbers(usages: list[_Usage]) -> list[Usage]:
    """usage_numbers of each usage decoded typed (a figure that is not a number, bool neither, is
    0), a figure at a time."""
    costs = [cost.total if cost is not None else 0 for cost in map(_COST, usages)]
    figures = [list(map(read, usages)) for read in _USAGE_FIGURES]
    return list(zip(*(_only_numbers(values) for values in (*figures, costs))))


def _only_numbers(values: list[Any]) -> list[Any]:
    if set(map(type, values)) <= _INT_OR_FLOAT:
        return values
    return [value if type(value) in _NUMBERS else 0 for value in values]


_USAGE, _COST = attrgetter("usage"), attrgetter("cost")


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
_NONE = type(None)
_INT_OR_NONE = {int, _NONE}
_INT_OR_FLOAT = {int, float}
_STR_OR_NONE = {str, _NONE}
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


def _model(message: _Message | _ReplyFields) -> str:
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
_USAGE_FIGURES = tuple(map(attrgetter, _USAGE_KEYS))  # of a usage decoded typed (_Usage)


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
