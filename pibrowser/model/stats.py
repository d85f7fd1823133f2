"""Numbers about a context: tokens as pi estimates them, usage and cost recorded on a path.

pi estimates a message's tokens as ceil(chars / 4), where chars counts JavaScript
string length (UTF-16 code units) of the parts that reach the model, with a flat
4800 chars per image (compaction's `estimateTokens`). Its own running estimate
of a context (`estimateProjectedContextTokens`) anchors on the last assistant
usage when no context edit or compaction came after it.

Where pi would throw on a malformed message (a text block without text, a
bashExecution without output), we count the missing part as zero.

Usage totals follow pi's session statistics: every assistant message's
`usage`, every `usage` entry, and the `usage` of tool results, branch summaries
and compactions; cost is `usage.cost.total`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .content import BlockKind, block_text, blocks
from .js.stringify import js_stringify
from .js.value import MISSING

if TYPE_CHECKING:
    from .context import Context
    from .entry import Entry

ESTIMATED_IMAGE_CHARS = 4800


# ---- JavaScript lengths ------------------------------------------------------


def js_length(text: str) -> int:
    """`text.length` in JavaScript: UTF-16 code units."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _length_of(value: Any) -> int:
    # `.length` of whatever the field holds; a missing or non-string field counts as zero.
    if isinstance(value, str):
        return js_length(value)
    if isinstance(value, list):
        return len(value)
    return 0


# ---- pi's estimateTokens -------------------------------------------------------


def _text_and_image_chars(content: Any) -> int:
    if isinstance(content, str):
        return js_length(content)
    chars = 0
    for kind, block in blocks(content):
        if kind is BlockKind.TEXT:
            text = block.get("text")
            if text:  # pi skips an empty or missing text
                chars += _length_of(text)
        elif kind is BlockKind.IMAGE:
            chars += ESTIMATED_IMAGE_CHARS
    return chars


def _assistant_chars(content: Any) -> int:
    # A string content counts nothing: pi iterates its characters, none of which is a block.
    chars = 0
    for kind, block in blocks(content):
        if kind is BlockKind.TEXT:
            chars += _length_of(block.get("text"))
        elif kind is BlockKind.THINKING:
            chars += _length_of(block.get("thinking"))
        elif kind is BlockKind.TOOL_CALL:
            arguments = js_stringify(block.get("arguments", MISSING))
            chars += _length_of(block.get("name")) + (js_length(arguments) if arguments is not None else 0)
    return chars


def _system_chars(message: dict[str, Any]) -> int:
    chars = _text_and_image_chars(message.get("content"))
    sections = message.get("sections")
    if isinstance(sections, dict):
        for section in sections.values():
            if section:
                chars += _length_of(section)
    tools = message.get("toolsAdded")
    if tools:
        text = js_stringify(tools)
        chars += js_length(text) if text is not None else 0
    return chars


def estimate_chars(message: Any) -> int:
    """The characters pi counts for one message."""
    if not isinstance(message, dict):
        return 0
    role = message.get("role")
    if role == "system":
        return _system_chars(message)
    if role in ("user", "custom", "toolResult"):
        return _text_and_image_chars(message.get("content"))
    if role == "assistant":
        return _assistant_chars(message.get("content"))
    if role == "bashExecution":
        return _length_of(message.get("command")) + _length_of(message.get("output"))
    if role in ("branchSummary", "compactionSummary"):
        return _length_of(message.get("summary"))
    return 0


def estimate_tokens(message: Any) -> int:
    """pi's estimateTokens: ceil(chars / 4)."""
    return -(-estimate_chars(message) // 4)


def estimate_messages_tokens(messages: list[Any]) -> int:
    return sum(estimate_tokens(message) for message in messages)


# ---- pi's context estimate -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class ContextEstimate:
    """pi's estimate of a context's size.

    tokens = usage_tokens (the last trusted assistant usage) + trailing_tokens
    (chars/4 of what came after it); with no trusted usage, all of it is chars/4.
    """

    tokens: int
    usage_tokens: int
    trailing_tokens: int
    last_usage_index: int | None


def usage_number(usage: dict[str, Any], key: str) -> float:
    value = usage.get(key)
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


def context_tokens_of_usage(usage: dict[str, Any]) -> float:
    """pi's calculateContextTokens: totalTokens, else the sum of the four counts."""
    total = usage.get("totalTokens")
    if isinstance(total, (int, float)) and not isinstance(total, bool) and total:
        return total
    return sum(usage_number(usage, key) for key in ("input", "output", "cacheRead", "cacheWrite"))


def assistant_usage(message: Any) -> dict[str, Any] | None:
    """A reply's usage that pi trusts: not aborted, not an error, not all zero."""
    if not isinstance(message, dict) or message.get("role") != "assistant" or "usage" not in message:
        return None
    if message.get("stopReason") in ("aborted", "error"):
        return None
    usage = message.get("usage")
    if isinstance(usage, dict) and context_tokens_of_usage(usage) > 0:
        return usage
    return None


def estimate_context_tokens(messages: list[Any]) -> ContextEstimate:
    """pi's estimateContextTokens: last assistant usage plus chars/4 of what follows."""
    for index in range(len(messages) - 1, -1, -1):
        usage = assistant_usage(messages[index])
        if usage is not None:
            usage_tokens = int(context_tokens_of_usage(usage))
            trailing = estimate_messages_tokens(messages[index + 1:])
            return ContextEstimate(usage_tokens + trailing, usage_tokens, trailing, index)
    estimated = estimate_messages_tokens(messages)
    return ContextEstimate(estimated, 0, estimated, None)


def current_system_message(messages: list[Any]) -> dict[str, Any] | None:
    """pi's getCurrentSystemMessage: all system messages folded into one."""
    content: list[str] = []
    sections: dict[str, Any] = {}
    tools: dict[Any, Any] = {}
    timestamp: Any = MISSING
    for message in messages:
        if not isinstance(message, dict) or message.get("role") != "system":
            continue
        if timestamp is MISSING or timestamp is None:
            timestamp = message.get("timestamp", MISSING)
        text = _content_text(message.get("content"))
        if text:
            content.append(text)
        message_sections = message.get("sections")
        if isinstance(message_sections, dict):
            for name, value in message_sections.items():
                if value is None:
                    sections.pop(name, None)
                else:
                    sections[name] = value
        for tool in message.get("toolsRemoved") or ():
            if isinstance(tool, dict):
                tools.pop(tool.get("name"), None)
        for tool in message.get("toolsAdded") or ():
            if isinstance(tool, dict):
                tools[tool.get("name")] = tool
    if (timestamp is MISSING or timestamp is None) and not tools:
        return None
    folded: dict[str, Any] = {"role": "system", "content": "\n\n".join(content)}
    if sections:
        folded["sections"] = sections
    if tools:
        folded["toolsAdded"] = list(tools.values())
    folded["timestamp"] = timestamp if timestamp is not MISSING and timestamp is not None else 0
    return folded


def _content_text(content: Any) -> str:
    # pi joins the text blocks' texts; a text that is not a string joins as nothing.
    if isinstance(content, str):
        return content
    return "\n".join(block_text(block) or "" for kind, block in blocks(content) if kind is BlockKind.TEXT)


def projected_context_tokens(context: Context) -> ContextEstimate:
    """pi's estimateProjectedContextTokens for a resolved context and its path.

    The last assistant usage counts only if no context_edit or compaction on the
    path comes after the entry that gave it; otherwise everything is chars/4,
    with the system messages folded into one.
    """
    estimate = estimate_context_tokens(context.messages)
    if estimate.last_usage_index is not None:
        usage_entry_id = None
        start = 0
        for projected in context.entries:
            end = start + len(projected.messages)
            if estimate.last_usage_index < end:
                usage_entry_id = projected.entry.id
                break
            start = end
        invalidated_at = -1
        for index in range(len(context.path) - 1, -1, -1):
            if context.path[index].type in ("context_edit", "compaction"):
                invalidated_at = index
                break
        # Ids are unique on a path: look for the usage's entry only after the invalidation,
        # not through a map of the whole (100,000-entry) path.
        path = context.path
        usage_after = usage_entry_id is not None and any(
            path[index].id == usage_entry_id for index in range(len(path) - 1, invalidated_at, -1)
        )
        if usage_after:
            return estimate
    tokens = folded_system_tokens(context.messages) + sum(
        estimate_tokens(message) for message in context.messages if not is_system(message)
    )
    return ContextEstimate(tokens, 0, tokens, None)


def is_system(message: Any) -> bool:
    return isinstance(message, dict) and message.get("role") == "system"


def folded_system_tokens(messages: list[Any]) -> int:
    """pi counts the system messages of a context once, folded into the current one."""
    system = current_system_message(messages)
    return estimate_tokens(system) if system is not None else 0


# ---- usage and cost --------------------------------------------------------------


_NUMBER = (int, float)


@dataclass(slots=True)
class UsageTotals:
    input: float = 0
    output: float = 0
    cache_read: float = 0
    cache_write: float = 0
    cost: float = 0
    records: int = 0

    @property
    def tokens(self) -> float:
        return self.input + self.output + self.cache_read + self.cache_write

    def add(self, usage: dict[str, Any]) -> None:
        # Inlined: a long path adds tens of thousands of records. `type(x) in` leaves bools out.
        get = usage.get
        value = get("input")
        if type(value) in _NUMBER:
            self.input += value
        value = get("output")
        if type(value) in _NUMBER:
            self.output += value
        value = get("cacheRead")
        if type(value) in _NUMBER:
            self.cache_read += value
        value = get("cacheWrite")
        if type(value) in _NUMBER:
            self.cache_write += value
        cost = get("cost")
        if type(cost) is dict and type(value := cost.get("total")) in _NUMBER:
            self.cost += value
        self.records += 1

    def merge(self, other: UsageTotals) -> None:
        self.input += other.input
        self.output += other.output
        self.cache_read += other.cache_read
        self.cache_write += other.cache_write
        self.cost += other.cost
        self.records += other.records


@dataclass(slots=True)
class PathUsage:
    """Usage recorded on a path, in all and by where it was recorded.

    `by_model` follows pi's cost breakdown: assistant messages under
    provider/model, usage entries under their provider/model, tool results and
    summaries under "Tools/summaries".
    """

    total: UsageTotals = field(default_factory=UsageTotals)
    assistant: UsageTotals = field(default_factory=UsageTotals)
    usage_entries: UsageTotals = field(default_factory=UsageTotals)
    other: UsageTotals = field(default_factory=UsageTotals)  # tool results, branch summaries, compactions
    by_model: dict[str, UsageTotals] = field(default_factory=dict)


TOOLS_AND_SUMMARIES = "Tools/summaries"


_USAGE_KEY = b'"usage":{'
# After an assistant message's usage pi writes only flat fields (stopReason,
# timestamp, errorMessage…) and then closes the message and the entry.
_FLAT_TAIL = re.compile(rb'(?:,"[A-Za-z]+":(?:"[^"\\]*"|-?[0-9][0-9.eE+-]*|true|false|null))*\}\}[ \t\r]*')
_DECODER = json.JSONDecoder()


def _assistant_usage_from_raw(raw: bytes) -> tuple[bool, Any]:
    """(settled, usage) read from an unparsed line; a long path holds tens of
    thousands of assistant messages, and parsing each in full to sum usage
    would take seconds."""
    at = raw.rfind(_USAGE_KEY)
    if at < 0:
        return (_USAGE_KEY[:-1] not in raw), None
    start = at + len(_USAGE_KEY) - 1
    text = raw[start:start + 4096].decode("utf-8", errors="replace")
    try:
        usage, end = _DECODER.raw_decode(text)
    except ValueError:
        return False, None
    tail_at = start + len(text[:end].encode("utf-8"))
    if not _FLAT_TAIL.fullmatch(raw, tail_at):
        return False, None
    return True, usage


def _message_usage(entry: Entry) -> tuple[Any, Any]:
    """(message or None, usage) without parsing the line when the raw bytes settle it."""
    raw = entry.raw
    if raw is not None:
        if b'"usage":' not in raw:
            return None, None
        if entry.role == "assistant":
            settled, usage = _assistant_usage_from_raw(raw)
            if settled:
                return None, usage
    message = entry.message
    return message, (message.get("usage") if isinstance(message, dict) else None)


def _recorded_usage(entry: Entry) -> tuple[str, str, dict[str, Any]] | None:
    """(bucket, breakdown key, usage) for an entry that records usage."""
    kind = entry.type
    if kind == "usage":
        usage = entry.get("usage")
        if isinstance(usage, dict):
            return "usage_entries", f"{entry.get('provider', None)}/{entry.get('model', None)}", usage
        return None
    if kind == "message":
        message, usage = _message_usage(entry)
        if not isinstance(usage, dict):
            return None
        if message is None:
            # Settled from the raw line: an assistant message in pi's own shape.
            return "assistant", _raw_model_key(entry.raw), usage
        if not isinstance(message, dict):
            return None
        role = message.get("role")
        if role == "assistant":
            model = message.get("responseModel") or message.get("model")
            return "assistant", f"{message.get('provider')}/{model}", usage
        if role == "toolResult":
            return "other", TOOLS_AND_SUMMARIES, usage
        return None
    if kind in ("branch_summary", "compaction"):
        usage = entry.get("usage")
        if isinstance(usage, dict):
            return "other", TOOLS_AND_SUMMARIES, usage
    return None


_PROVIDER_MODEL = re.compile(rb',"provider":("[^"\\]*"),"model":("[^"\\]*"),"usage":\{')
_RESPONSE_MODEL = re.compile(rb',"responseModel":("[^"\\]*")')


def _raw_model_key(raw: bytes) -> str:
    """provider/model for the breakdown, from the fields pi writes just before usage."""
    found = None
    at = raw.rfind(b',"provider":')
    if at >= 0:
        found = _PROVIDER_MODEL.match(raw, at)
        if found is not None and _RESPONSE_MODEL.search(raw, found.end()) is None:
            return _model_key(found[1], found[2])
    for found in _PROVIDER_MODEL.finditer(raw):
        pass
    if found is None:
        return "None/None"
    response = _RESPONSE_MODEL.search(raw, found.end())
    model = json.loads(response[1]) if response and json.loads(response[1]) else json.loads(found[2])
    return f"{json.loads(found[1])}/{model}"


@lru_cache(maxsize=256)
def _model_key(provider: bytes, model: bytes) -> str:
    return f"{json.loads(provider)}/{json.loads(model)}"


def path_usage(path: list[Entry], memo: UsageMemo | None = None) -> PathUsage:
    """Usage and cost recorded by the entries of a path (summarized ones included)."""
    if memo is not None:
        return memo.path_usage(path)
    state = PathUsage()
    for entry in path:
        _accumulate(state, entry)
    return _finished(state)


def _accumulate(state: PathUsage, entry: Entry) -> None:
    found = _recorded_usage(entry)
    if found is None:
        return
    bucket, key, usage = found
    getattr(state, bucket).add(usage)
    totals = state.by_model.get(key)
    if totals is None:
        totals = state.by_model[key] = UsageTotals()
    totals.add(usage)


def _finished(state: PathUsage) -> PathUsage:
    result = _copy_usage(state)
    for part in (result.assistant, result.usage_entries, result.other):
        result.total.merge(part)
    return result


def _copy_usage(state: PathUsage) -> PathUsage:
    return PathUsage(
        replace(state.total),
        replace(state.assistant),
        replace(state.usage_entries),
        replace(state.other),
        {key: replace(totals) for key, totals in state.by_model.items()},
    )


class UsageMemo:
    """Usage summed down a session's paths, remembered every STRIDE entries of depth.

    A path's usage is the sum over every entry on it, 100,000 deep in a long
    session; walking the tree one node at a time would re-add them all at each
    step. Entries never change once written, so sums at ancestors stay valid
    for the life of a loaded session (appends only add new paths).
    """

    STRIDE = 1024

    def __init__(self) -> None:
        self._at: dict[str, PathUsage] = {}

    def path_usage(self, path: list[Entry]) -> PathUsage:
        start, state = 0, PathUsage()
        for index in range(len(path) - 1, -1, -1):
            saved = self._at.get(path[index].id)
            if saved is not None:
                start, state = index + 1, _copy_usage(saved)
                break
        for index in range(start, len(path)):
            _accumulate(state, path[index])
            if (index + 1) % self.STRIDE == 0:
                self._at[path[index].id] = _copy_usage(state)
        return _finished(state)


# ---- everything a header shows ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class ContextStats:
    messages: int
    estimated_tokens: int  # chars/4 over every message sent, as listed
    pi_estimate: ContextEstimate
    usage: PathUsage
    message_tokens: list[int]


def context_stats(context: Context, memo: UsageMemo | None = None) -> ContextStats:
    per_message = [estimate_tokens(message) for message in context.messages]
    return ContextStats(
        len(context.messages),
        sum(per_message),
        projected_context_tokens(context),
        path_usage(context.path, memo),
        per_message,
    )
