"""A corpus of broken session files, generated on demand (kept out of the repo)."""

from __future__ import annotations

import os
import resource
from pathlib import Path
from collections.abc import Callable

import orjson

from .sessions import HEADER, chain, entry, message, write

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


CORPUS: dict[str, Callable[[Path], None]] = {
    name[1:]: function
    for name, function in globals().items()
    if name.startswith("_") and callable(function) and function.__module__ == __name__
}
LOADABLE = {
    "truncated_last_line",
    "garbage_and_binary",
    "json_not_object",
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
