"""pi's line layout: what its JSON.stringify writes for each entry, read off the raw bytes.

pi writes every entry as one line (`entry_object`, `entry_line`), keys in a fixed order: type, id, parentId,
timestamp, then the entry's own fields; a message's object starts with its role
and, for an assistant, ends with provider, model, usage, stopReason. Loading a
100,000-entry file parses no line in full: what the tree, the filters and the
usage totals need is read from the bytes where pi's layout makes that certain.
Every function here answers None (or "not settled") when the line does not
look exactly as pi writes it, and the caller parses it instead. This module is
the only one that knows the layout.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from .js.stringify import dump_json


def entry_object(kind: str, key: str, parent: str | None, timestamp: str, **fields: Any) -> dict[str, Any]:
    """An entry with its keys in pi's order: type, id, parentId and timestamp, then its own fields."""
    return {"type": kind, "id": key, "parentId": parent, "timestamp": timestamp, **fields}


def entry_line(entry: dict[str, Any]) -> bytes:
    """The line pi appends for an entry: JSON.stringify's bytes and a newline."""
    return dump_json(entry) + b"\n"


# pi writes every entry with JSON.stringify and this key order, so the fields the
# tree needs sit at the front of the line. A line that does not start this way
# (hand-edited, escaped ids, `custom` entries) is parsed in full instead.
LEADING_FIELDS = re.compile(
    rb'\{"type":"([^"\\]*)","id":"([^"\\]+)","parentId":(?:"([^"\\]*)"|null),'
    rb'"timestamp":"([^"\\]*)"(?:,"message":\{"role":"([^"\\]*)")?'
)


# Deciding from the raw line, without parsing it, where that is certain. Inside a JSON
# string every quote is escaped, so these byte patterns only match JSON structure.
_STR = rb'"[^"\\]*(?:\\.[^"\\]*)*"'  # a JSON string, unrolled so long ones scan fast
_THINKING_BLOCK = rb'\{"type":"thinking"(?:,"[A-Za-z]+":' + _STR + rb")*\}"
# pi's own serialisation of an assistant message whose first non-thinking block is
# a text block starting with a visible ASCII character: certainly has text.
_SURELY_TEXT = re.compile(
    rb'\{"type":"message","id":' + _STR + rb',"parentId":(?:' + _STR + rb'|null),"timestamp":' + _STR
    + rb',"message":\{"role":"assistant","content":\[(?:' + _THINKING_BLOCK + rb',)*\{"type":"text","text":"[!#-\[\]-~]'
)
# No text block and no string content anywhere in the line: certainly no text.
_MAYBE_TEXT = re.compile(rb'"type"\s*:\s*"text"|"content"\s*:\s*"')
_QUIET_STOP = re.compile(rb'"stopReason"\s*:\s*"(?:stop|toolUse)"')


def silent_assistant(raw: bytes) -> bool | None:
    """For an assistant message's line: True when it certainly has no text and did not end
    in an error or abort, False when it certainly has text, None when it must be parsed."""
    if raw.count(b'"message":') != 1:
        return None
    if _SURELY_TEXT.match(raw):
        return False
    if b"\\u" in raw or _MAYBE_TEXT.search(raw):
        return None  # an escaped key could hide a text block; or there may be text: parse
    stops = raw.count(b'"stopReason"')
    if stops == 0 or stops == len(_QUIET_STOP.findall(raw)):
        return True
    return None


_USAGE_KEY = b'"usage":{'
# After an assistant message's usage pi writes only flat fields (stopReason,
# timestamp, errorMessage…) and then closes the message and the entry.
_FLAT_TAIL = re.compile(rb'(?:,"[A-Za-z]+":(?:"[^"\\]*"|-?[0-9][0-9.eE+-]*|true|false|null))*\}\}[ \t\r]*')
_DECODER = json.JSONDecoder()


USAGE_FIELD = b'"usage":'


def may_hold_usage(raw: bytes) -> bool:
    return USAGE_FIELD in raw


def assistant_usage(raw: bytes) -> tuple[bool, Any]:
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


_PROVIDER_MODEL = re.compile(rb',"provider":("[^"\\]*"),"model":("[^"\\]*"),"usage":\{')
_RESPONSE_MODEL = re.compile(rb',"responseModel":("[^"\\]*")')


def model_key(raw: bytes) -> str:
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
