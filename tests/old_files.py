"""Version 1 and 2 session files as the wild has them, for the upgrade tests (and pi's answers on them)."""

from __future__ import annotations

from .conftest import FIXTURES

V1_HEADER = b'{"type":"session","id":"s1","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/tmp"}'
USER = b'{"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}'

OLD_FILES: dict[str, bytes] = {
    # Blank and damaged lines, a hookMessage, every kind of firstKeptEntryIndex (earlier, later, itself,
    # the header, out of range, a fraction, a string), an id of its own, a second header, integer-like keys.
    "v1-every-case": b"\n".join(
        [
            V1_HEADER,
            b"",
            USER,
            b"not json",
            b'{"type":"message","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"hookMessage","content":"x"}}',
            b'{"type":"compaction","timestamp":"t","summary":"s","firstKeptEntryIndex":2,"tokensBefore":5}',
            b'{"type":"compaction","summary":"later","firstKeptEntryIndex":8}',
            b'{"type":"compaction","summary":"self","firstKeptEntryIndex":5}',
            b'{"type":"compaction","summary":"header","firstKeptEntryIndex":0}',
            b'{"type":"compaction","summary":"oob","firstKeptEntryIndex":99}',
            b'{"type":"compaction","summary":"float","firstKeptEntryIndex":1.5}',
            b'{"type":"compaction","summary":"str","firstKeptEntryIndex":"2"}',
            b'{"id":"old","type":"x","parentId":"zzz","a":1}',
            b'{"type":"session","id":"second"}',
            b'{"b":1,"2":"two","a":3,"1":"one"}',
            USER,
            b"null",
            b"0",
            b'{"type":"message","timestamp":"2025-01-01T00:00:03.000Z","message":{"role":"assistant","content":[{"type":"text",',
        ]
    )
    + b"\n",
    # An array takes a place in pi's chain and in the indices: the entry after it names an id no line shows.
    "v1-array": b"\n".join([V1_HEADER, USER, b"[1]", USER, b'{"type":"compaction","summary":"s","firstKeptEntryIndex":3}', USER]) + b"\n",
    "v1-crlf": V1_HEADER + b"\r\n" + USER + b"\r\n",
    "v1-invalid-utf8": V1_HEADER
    + b'\n{"type":"message","timestamp":"x","message":{"role":"user","content":"bad \xff\xfe byte","timestamp":1}}\n',
    "v1-no-final-newline": V1_HEADER + b"\n" + USER,
    "v1-chinese": V1_HEADER
    + '\n{"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"请立刻开始工作","timestamp":1}}\n'.encode(),
    "v2": b"\n".join(
        [
            b'{"type":"session","version":2,"id":"s2","cwd":"/tmp"}',
            b'{"type":"message","id":"x","parentId":null,"message":{"role":"hookMessage","content":"c"}}',
            b'{"type":"custom_message","id":"y","parentId":"x","message":{"role":"hookMessage"}}',
            b"garbage",
            b'{"type":"message","id":"z","parentId":"y","message":{"role":"user","content":"after"}}',
        ]
    )
    + b"\n",
    "v2-as-string": b'{"type":"session","version":"2","id":"s3","cwd":"/tmp"}\n{"type":"message","id":"x","parentId":null,"message":{"role":"user","content":"c"}}\n',
}


def old_files() -> dict[str, bytes]:
    """The hand-made files, and the shared fixture pi's repository holds (format 1, a thousand entries)."""
    return {**OLD_FILES, "legacy-v1": (FIXTURES / "legacy-v1.jsonl").read_bytes()}
