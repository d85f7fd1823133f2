"""A corpus of broken session files, generated on demand (kept out of the repo)."""

from __future__ import annotations

import os
import random
import resource
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from collections.abc import Callable

import orjson

from .sessions import HEADER, chain, entry, message, write
from .wild import set_field

BIG = 50 * 1024 * 1024


def _truncated_last_line(path: Path) -> None:
    write(
        path,
        *chain(4),
        b'{"type":"message","id":"cut","parentId":"m3","timestamp":"2026-10-30T09:00:09.000Z","message":{"role":"us',
        newline_at_end=False,
    )


def _garbage_and_binary(path: Path) -> None:
    items = chain(4)
    write(path, items[0], b"\x00\xff\xfe\x80 garbage \x1b[31m", items[1], b"{{{{", items[2], b"\xef\xbb\xbf{}", items[3])


def _json_not_object(path: Path) -> None:
    write(path, *chain(2), b"[]", b"null", b"true", b"3.5", b'"text"', chain(3)[2])


def _json_not_object_last(path: Path) -> None:
    # pi keeps a truthy value as an entry with no fields: the last one is its leaf, of an empty context.
    write(path, *chain(3), b"0", b'[{"type":"message"}]')


def _missing_header(path: Path) -> None:
    write(path, *chain(3), header=None)


def _header_not_first(path: Path) -> None:
    write(path, chain(1)[0], HEADER, *chain(3)[1:], header=None)


def _cycle(path: Path) -> None:
    write(
        path,
        message("r", None, "user"),
        message("a", "c", "user", second=1),
        message("b", "a", "assistant", second=2),
        message("c", "b", "user", second=3),
        message("d", "c", "user", second=4),
    )


def _own_parent(path: Path) -> None:
    write(path, message("a", "a", "user"), message("b", "a", "assistant", second=1))


def _orphans(path: Path) -> None:
    write(
        path,
        *chain(2),
        message("o1", "ghost", "user", second=5),
        message("o2", "o1", "assistant", second=6),
        entry("label", "l", "o2", 7, targetId="o1", label="lost"),
    )


def _duplicate_ids(path: Path) -> None:
    write(path, *chain(3), message("m1", "m0", "user", "again", second=9), message("m1", "m2", "user", "third", second=10))


def _huge_line(path: Path) -> None:
    huge = message("big", "m1", "user", "x" * BIG, second=5)
    write(path, *chain(2), huge, message("after", "big", "assistant", [{"type": "text", "text": "ok"}], second=6))


def _invalid_utf8(path: Path) -> None:
    raw = b'{"type":"message","id":"u8","parentId":"m1","timestamp":"2026-10-30T09:00:05.000Z","message":{"role":"user","content":"bad \xc3\x28 \xff","timestamp":5}}'
    write(path, *chain(2), raw)


def _empty(path: Path) -> None:
    path.write_bytes(b"")


def _blank_only(path: Path) -> None:
    path.write_bytes(b"\n\n   \n")


def _folder(path: Path) -> None:
    path.mkdir()


def _bad_first_kept(path: Path) -> None:
    write(
        path,
        *chain(3),
        entry("compaction", "c", "m2", 5, summary="S", firstKeptEntryId="nothing", tokensBefore="many"),
        message("n", "c", "user", second=6),
    )


def _edit_missing_target(path: Path) -> None:
    write(
        path,
        *chain(2),
        entry("context_edit", "e", "m1", 5, targetId="ghost", replacement={"content": "x"}),
        entry("context_edit", "e2", "e", 6, targetId="m0", replacement="not an object"),
        entry("context_edit", "e3", "e2", 7, targetId="m1"),
    )


def _labels_missing_targets(path: Path) -> None:
    write(
        path,
        *chain(2),
        entry("label", "l1", "m1", 5, targetId="ghost", label="x"),
        entry("label", "l2", "l1", 6, targetId=None, label="y"),
        entry("label", "l3", "l2", 7, targetId="m0", label=12),
    )


def _wrong_types(path: Path) -> None:
    write(
        path,
        {"type": "message", "id": "a", "parentId": None, "timestamp": "yesterday", "message": {"role": "user", "content": 42}},
        {"type": "message", "id": "b", "parentId": "a", "timestamp": 17, "message": {"role": "wizard", "content": {"odd": True}}},
        {"type": "message", "id": "c", "parentId": "b", "timestamp": None, "message": "just a string"},
        {"type": "message", "id": "d", "parentId": "c", "timestamp": "2026-10-30T09:00:00.000Z", "message": None},
        {
            "type": "message",
            "id": "e",
            "parentId": "d",
            "timestamp": [],
            "message": {"role": "assistant", "content": [{"type": "toolCall"}, 5, None, {"type": "image", "data": 7}], "provider": 3},
        },
        {"type": 5, "id": "f", "parentId": "e", "timestamp": {}},
        {
            "type": "compaction",
            "id": "g",
            "parentId": "f",
            "timestamp": "2026",
            "summary": None,
            "firstKeptEntryId": 9,
            "systemMessage": "sys",
        },
        {"type": "branch_summary", "id": "h", "parentId": "g", "timestamp": "x", "summary": ["list"], "fromId": {}},
        {"type": "custom_message", "id": "i", "parentId": "h", "timestamp": "x", "content": 3.5, "customType": None},
        {"type": "thinking_level_change", "id": "j", "parentId": "i", "timestamp": "x", "thinkingLevel": {"deep": 1}},
        {"type": "model_change", "id": "k", "parentId": "j", "timestamp": "x"},
        {"type": "session_info", "id": "l", "parentId": "k", "timestamp": "x", "name": 99},
        {"type": "future_thing", "id": "m", "parentId": "l", "timestamp": "2026-10-30T09:00:00.000Z", "payload": [1, 2]},
        {"type": "message", "id": 12, "parentId": "m", "timestamp": "x", "message": {"role": "user", "content": "numeric id"}},
        {"type": "message", "id": "n", "parentId": 12, "timestamp": "x", "message": {"role": "user", "content": "numeric parent"}},
    )


def _odd_parent_ids(path: Path) -> None:
    write(
        path,
        *chain(2),
        message("l", ["m1"], "user", second=5),
        message("d", {"id": "m1"}, "user", second=6),
        message("n", 7, "user", second=7),
    )


# Terminal escapes (clear screen, retitle), NUL, backspaces, CR, C1 (8-bit CSI, NEL) and bidi overrides.
NASTY = "\x1b[2J\x1b]0;pwned\x07\x00\x08\x08\r\x9b31m\x85\u202e\u2066\x7f"
LONG_LABEL = f"label {NASTY} " + "long " * 30


def _control_characters(path: Path) -> None:
    # In every field the text outputs print: ids (one with a newline), labels, names, models, tools.
    n = NASTY
    calls = [
        {"type": "text", "text": f"t{n}"},
        {"type": "thinking", "thinking": f"th{n}"},
        {"type": "toolCall", "id": f"c{n}", "name": f"bash{n}", "arguments": {"cmd": f"ls{n}"}},
    ]
    write(
        path,
        message(f"r{n}", None, "user", f"hello {n} world"),
        message("a\n1", f"r{n}", "assistant", calls, second=1, provider=f"p{n}", model=f"m{n}"),
        message("t1", "a\n1", "toolResult", [{"type": "text", "text": f"out{n}"}], second=2, toolCallId=f"c{n}", toolName=f"bash{n}"),
        entry(
            "message",
            "b1",
            "t1",
            3,
            message={"role": "bashExecution", "command": f"rm{n}", "output": f"o{n}", "exitCode": 0, "timestamp": 1},
        ),
        entry("label", "l1", "b1", 4, targetId="a\n1", label=LONG_LABEL),
        entry("session_info", "s1", "l1", 5, name=f"name{n}"),
        entry("thinking_level_change", "k1", "s1", 6, thinkingLevel=f"high{n}"),
        entry("model_change", f"mc{n}", "k1", 7, provider=f"p{n}", modelId=f"m{n}"),
        entry("custom_message", "cm", f"mc{n}", 8, customType=f"x{n}", content=f"c{n}", display=True),
        entry("compaction", "cp", "cm", 9, summary=f"sum{n}", firstKeptEntryId="cm", tokensBefore=5),
        message("u2", "cp", "user", f"end{n}", second=10),
        message("u3", f"r{n}", "user", f"branch{n}", second=11),
        # Lone surrogates: JSON.parse takes them, and printed raw they cannot even be encoded.
        b'{"type":"message","id":"s\\ud800","parentId":"u3","timestamp":"2026-10-30T09:00:12.000Z","message":{"role":"user","content":"x\\udc00y","timestamp":1}}',
    )


# ---- issue 30's cases: one hostile value in a small session ----------------------------------------


def reply(key: str, parent: str, content: Any, second: int = 1, **usage: Any) -> dict[str, Any]:
    """An assistant reply as pi writes it, its usage's figures as given (ten in, five out otherwise)."""
    figures = {"input": 10, "output": 5, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 15, **usage}
    figures["cost"] = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}
    return message(key, parent, "assistant", content, second=second, provider="p", model="m", usage=figures, stopReason="stop")


def around(path: Path, middle: dict[str, Any] | bytes) -> None:
    """A user message, `middle`, and a user message after it (the leaf)."""
    write(path, message("u1", None, "user", "hello"), middle, message("u2", "x", "user", "and then", second=2))


def _usage_1e300(path: Path) -> None:
    # The strip's axis stepped through every multiple of its capped step up to 1e300.
    around(path, reply("x", "u1", [{"type": "text", "text": "big"}], input=1e300))


def _usage_infinity(path: Path) -> None:
    # 1e400 is Infinity in JSON.parse: the strip's paint raised OverflowError.
    around(path, orjson.dumps(reply("x", "u1", [{"type": "text", "text": "inf"}], input=7)).replace(b'"input":7', b'"input":1e400'))


def deep_array(depth: int) -> bytes:
    """JSON text of `depth` arrays inside each other around one string (orjson writes 255 at most)."""
    return b"[" * depth + b'"bottom"' + b"]" * depth


def _deep_arguments(path: Path) -> None:
    # 1,000 levels in a tool call's arguments: RecursionError in the card's clip_strings.
    call = {"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"nested": "DEEP"}}
    line = orjson.dumps(reply("x", "u1", [call])).replace(b'"DEEP"', deep_array(1000))
    around(path, line)


def _role_object(path: Path) -> None:
    around(path, message("x", "u1", {"name": "user"}, "an object for a role", second=1))


def _role_array(path: Path) -> None:
    around(path, message("x", "u1", ["user"], "an array for a role", second=1))


def _type_object(path: Path) -> None:
    around(path, {**entry("x", "x", "u1", 1), "type": {"kind": "message"}})


def _type_array(path: Path) -> None:
    around(path, {**entry("x", "x", "u1", 1), "type": ["message"]})


def _year_9999(path: Path) -> None:
    # One timestamp eight thousand years on: the Trace ruler drew a tick per day of the span.
    items = chain(4)
    items[3]["timestamp"] = "9999-12-31T23:59:59.999Z"
    write(path, *items)


def many_blocks(path: Path, count: int, block: dict[str, Any] | None = None) -> Path:
    """One reply of `count` content blocks (text blocks, or `block` numbered by its id)."""
    if block is None:
        content: list[Any] = [{"type": "text", "text": "x"}] * count
    else:
        content = [{**block, "id": f"c{number}"} for number in range(count)]
    write(path, message("u1", None, "user", "hello"), reply("x", "u1", content))
    return path


def _blocks_3000(path: Path) -> None:
    many_blocks(path, 3000)


def chain_file(path: Path, count: int) -> Path:
    """One line of descent of `count` user messages, written fast (a million is 150 MB)."""
    with open(path, "wb") as out:
        out.write(orjson.dumps(HEADER) + b"\n")
        parent = b"null"
        for number in range(count):
            key = b'"%x"' % number
            out.write(
                b'{"type":"message","id":%s,"parentId":%s,"timestamp":"2026-10-30T09:00:00.000Z","message":{"role":"user","content":"m","timestamp":1793350800000}}\n'
                % (key, parent)
            )
            parent = key
    return path


# ---- single-field mutations of real sessions (the fuzz tests) ------------------------------------

# Hostile values as JSON text, each put in place of one field. Times: year 0, year 9999 and the ends of
# what a JS Date holds (±8.64e15 ms), as the ISO strings entries carry and the milliseconds messages do.
HOSTILE_VALUES: dict[str, bytes] = {
    "object": b'{"hostile":{"x":[1]}}',
    "array": b'[1,["two"],{"three":3}]',
    "string": b'"hostile \\u001b[2J text"',
    "null": b"null",
    "bool": b"true",
    "1e300": b"1e300",
    "-1": b"-1",
    "1e400": b"1e400",
    "NaN": b'"NaN"',
    "-Infinity": b'"-Infinity"',
    "year 0": b'"0000-01-01T00:00:00.000Z"',
    "year 0 ms": b"-62167219200000",
    "year 9999": b'"9999-12-31T23:59:59.999Z"',
    "year 9999 ms": b"253402300799999",
    "+8.64e15 ms": b"8640000000000000",
    "-8.64e15 ms": b"-8640000000000000",
    "+8.64e15": b'"+275760-09-13T00:00:00.000Z"',
    "-8.64e15": b'"-271821-04-20T00:00:00.000Z"',
    "2000 deep": deep_array(2000),
    "100k blocks": b"[" + b",".join([b'{"type":"text","text":"x"}'] * 100_000) + b"]",
}
# The fields mutated, by kind: every role, type, content block, tool-call field, usage and cost field,
# timestamp and header field of a session.
FIELD_KINDS = ("role", "type", "block", "block field", "tool call field", "usage", "cost", "timestamp", "header")
_TOOL_RESULT_FIELDS = ("toolCallId", "toolName", "isError")


@dataclass(frozen=True)
class Mutation:
    """One field of one line of a session file given a hostile value."""

    line: int  # 1-based, in the file
    path: tuple[str | int, ...]  # keys from the line's object to the field
    kind: str  # one of FIELD_KINDS
    value: str  # a key of HOSTILE_VALUES

    def __str__(self) -> str:
        return f"line {self.line} {'.'.join(map(str, self.path))} = {self.value}"

    def apply(self, source: Path, target: Path) -> Path:
        """`source` with this one field changed, written to `target`."""
        lines = source.read_bytes().split(b"\n")
        lines[self.line - 1] = set_field(lines[self.line - 1], self.path, HOSTILE_VALUES[self.value])
        target.write_bytes(b"\n".join(lines))
        return target


def field_sites(source: Path) -> dict[str, list[tuple[int, tuple[str | int, ...]]]]:
    """Every field of the file a mutation may change, by kind: (line, path) pairs."""
    sites: dict[str, list[tuple[int, tuple[str | int, ...]]]] = {kind: [] for kind in FIELD_KINDS}
    for number, raw in enumerate(source.read_bytes().split(b"\n"), start=1):
        try:
            item = orjson.loads(raw)
        except orjson.JSONDecodeError:
            continue
        if not isinstance(item, dict):
            continue
        if item.get("type") == "session":
            sites["header"] += [(number, (key,)) for key in item]
            continue
        sites["type"].append((number, ("type",)))
        sites["timestamp"].append((number, ("timestamp",)))
        for at, holder in (((), item), (("message",), item.get("message"))):
            if isinstance(holder, dict):
                holder_fields(sites, number, at, holder)
    return sites


def holder_fields(sites: dict, number: int, at: tuple, holder: dict) -> None:
    """The fields of an entry or of its message: role, time, content and its blocks, a result's call, usage."""
    if at:
        sites["role"] += [(number, at + ("role",))] if "role" in holder else []
        sites["timestamp"] += [(number, at + ("timestamp",))] if "timestamp" in holder else []
        sites["tool call field"] += [(number, at + (key,)) for key in _TOOL_RESULT_FIELDS if key in holder]
    content = holder.get("content")
    if "content" in holder:
        sites["block"].append((number, at + ("content",)))
    for index, block in enumerate(content if isinstance(content, list) else ()):
        sites["block"].append((number, at + ("content", index)))
        if isinstance(block, dict):
            kind = "tool call field" if block.get("type") == "toolCall" else "block field"
            sites[kind] += [(number, at + ("content", index, key)) for key in block]
    usage = holder.get("usage")
    if isinstance(usage, dict):
        sites["usage"] += [(number, at + ("usage",))] + [(number, at + ("usage", key)) for key in usage if key != "cost"]
        cost = usage.get("cost")
        if isinstance(cost, dict):
            sites["cost"] += [(number, at + ("usage", "cost"))] + [(number, at + ("usage", "cost", key)) for key in cost]


def mutations(source: Path, seed: int, count: int | None) -> list[Mutation]:
    """Mutations of `source`: for each kind of field and each hostile value, one at a field of that kind
    chosen with `seed`; then `count` of them (all with None), chosen with the same seed."""
    rng = random.Random(f"{seed}:{source.name}")
    every = []
    for kind, sites in field_sites(source).items():
        for value in HOSTILE_VALUES:
            if sites:
                line, path = rng.choice(sites)
                every.append(Mutation(line, path, kind, value))
    return every if count is None or count >= len(every) else rng.sample(every, count)


CORPUS: dict[str, Callable[[Path], None]] = {
    name[1:]: function
    for name, function in globals().items()
    if name.startswith("_") and callable(function) and function.__module__ == __name__
}
# The files whose contexts and estimates are checked against pi itself (tests/test_against_pi.py).
PI_CHECKED = (
    "json_not_object",
    "json_not_object_last",
    "usage_1e300",
    "usage_infinity",
    "deep_arguments",
    "role_object",
    "role_array",
    "type_object",
    "type_array",
    "year_9999",
)
LOADABLE = {
    "truncated_last_line",
    "garbage_and_binary",
    "cycle",
    "own_parent",
    "orphans",
    "duplicate_ids",
    "huge_line",
    "invalid_utf8",
    "bad_first_kept",
    "edit_missing_target",
    "labels_missing_targets",
    "wrong_types",
    "odd_parent_ids",
    "control_characters",
    "blocks_3000",
    *PI_CHECKED,
}
REFUSED = {"missing_header", "header_not_first", "empty", "blank_only", "folder"}


MEMORY_CAP = 2 << 30  # bytes of address space a command under test may take


def special_file(directory: Path, kind: str) -> Path:
    """A path that names no regular file: a FIFO nobody writes to (opening it waits), a device
    that never ends, or an empty folder."""
    if kind == "fifo":
        path = directory / "pipe.jsonl"
        os.mkfifo(path)
        return path
    if kind == "device":
        return Path("/dev/zero")
    path = directory / "empty-folder"
    path.mkdir()
    return path


def capped_memory() -> None:
    """For subprocess.run(preexec_fn=…): reading /dev/zero must end in an error, not take the machine."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


HALF = "\ud83d"  # the first half of 😀, as JS leaves it after slicing a string


def half_character_sessions(folder: Path) -> Path:
    """A folder of three sessions: one with lone surrogates in its header's id and cwd, an entry's
    id, its text and its name; a plain one; one whose file name is not UTF-8."""
    folder.mkdir()
    # orjson cannot write a lone surrogate: the escapes are written as pi's JSON.stringify writes them.
    lines = [
        b'{"type":"session","version":3,"id":"s\\ud83d","timestamp":"2026-10-30T09:00:00.000Z","cwd":"/work/\\ud83d"}',
        b'{"type":"message","id":"a\\ud83d","parentId":null,"timestamp":"2026-10-30T09:00:00.000Z","message":{"role":"user","content":"hello x \\ud83d","timestamp":1793350800000}}',
        b'{"type":"message","id":"b","parentId":"a\\ud83d","timestamp":"2026-10-30T09:00:01.000Z","message":{"role":"assistant","content":[{"type":"text","text":"zebra \\ud83d reply"}],"provider":"p","model":"m","timestamp":1793350801000}}',
        b'{"type":"session_info","id":"c","parentId":"b","timestamp":"2026-10-30T09:00:02.000Z","name":"named \\ud83d"}',
    ]
    (folder / "half.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    write(folder / "plain.jsonl", message("p1", None, "user", "hello plain zebra"), header={**HEADER, "id": "plain"})
    # A file name that is not UTF-8: Python spells it with surrogate escapes.
    odd = Path(os.fsdecode(bytes(folder) + b"/odd-\xff.jsonl"))
    write(odd, message("o1", None, "user", "hello odd zebra"), header={**HEADER, "id": "odd"})
    return folder


def make(directory: Path, name: str) -> Path:
    path = directory / f"{name}.jsonl"
    CORPUS[name](path)
    return path


def digest(path: Path) -> bytes | None:
    return path.read_bytes() if path.is_file() else None


def refuse_to_read(monkeypatch, path: Path) -> None:
    """Make reading `path` fail as a file without read permission does (for root too)."""
    from pibrowser.model.session import regular_file

    real_open = regular_file.open_regular

    def guarded(file, *args, **kwargs):
        if str(file) == str(path):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(regular_file, "open_regular", guarded)


__all__ = ["CORPUS", "LOADABLE", "REFUSED", "make", "digest", "refuse_to_read", "special_file", "capped_memory", "orjson"]
