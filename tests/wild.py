"""Session files as they come from the wild, made from real ones: the differential fuzz's inputs.

Sessions met outside pi's own tests differ from what pi writes today in ways no single hand-made
case covers: lines damaged, duplicated, lost or reordered by a crash or a sync tool; fields dropped,
retyped or holding another entry's id after a tool edited the file; text in any script; CRLF endings,
a byte-order mark, a missing final newline; lines that are JSON but not objects. `wild_variants`
makes seeded variants of a session file, each with one to three such changes, and says what it did,
so a disagreement with pi names the change that found it (tests/test_wild_against_pi.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

# Values a field is given in place of its own (as JSON text): every JSON type, the numbers JS writes
# apart from Python, text in other scripts, a lone surrogate (what a JS slice leaves of an emoji).
RETYPED: tuple[bytes, ...] = (
    b"{}",
    b"[]",
    b'""',
    b'"x"',
    '"中文的文本，还有表情 🌏"'.encode(),
    b"0",
    b"1",
    b"-1",
    b"0.5",
    b"1e300",
    b"9007199254740993",
    b"true",
    b"false",
    b"null",
    b"[1]",
    b'{"a":1}',
    b'"\\ud83d"',
    b'"2026-13-45T99:99:99Z"',
)
ENTRY_TYPES = ("message", "compaction", "branch_summary", "custom_message", "custom", "label", "model_change",
               "thinking_level_change", "session_info", "context_edit", "usage", "session")  # fmt: skip
ROLES = ("user", "assistant", "toolResult", "bashExecution", "custom", "branchSummary", "compactionSummary", "hookMessage", "system")
DAMAGE: tuple[bytes, ...] = (b'{"type":"mess', b"not json at all", b"\xff\xfe\x00garbage", b"[]", b'"text"', b"1", b"null", b"true",
                             b"{}", b"", b"   ", b'{"type":"message"}')  # fmt: skip
_MARK = "\u0000wild\u0000"


@dataclass
class Variant:
    """A changed copy of a session file's lines, and what was changed."""

    lines: list[bytes]
    changes: list[str]
    newline_at_end: bool = True
    bom: bool = False

    def write(self, path: Path) -> Path:
        data = b"\n".join(self.lines) + (b"\n" if self.newline_at_end else b"")
        path.write_bytes((b"\xef\xbb\xbf" if self.bom else b"") + data)
        return path


def _objects(variant: Variant) -> list[tuple[int, dict[str, Any]]]:
    found = []
    for at, raw in enumerate(variant.lines):
        try:
            value = orjson.loads(raw)
        except orjson.JSONDecodeError:
            continue
        if isinstance(value, dict):
            found.append((at, value))
    return found


def _ids(variant: Variant) -> list[Any]:
    return [value["id"] for _, value in _objects(variant) if "id" in value and value.get("type") != "session"]


def _field_paths(value: Any, prefix: tuple = (), depth: int = 4) -> list[tuple]:
    """Every path from an entry's object to one of its fields or list items, `depth` levels deep."""
    paths: list[tuple] = []
    if depth == 0:
        return paths
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        paths.append(prefix + (key,))
        paths += _field_paths(item, prefix + (key,), depth - 1)
    return paths


def set_field(raw: bytes, path: tuple, replacement: bytes | None) -> bytes:
    """The line with the field at `path` given `replacement` (JSON text, put in as it is: a value
    Python's JSON would not write), or removed (None)."""
    value = orjson.loads(raw)
    holder = value
    for key in path[:-1]:
        holder = holder[key]
    if replacement is None:
        del holder[path[-1]]
        return orjson.dumps(value)
    holder[path[-1]] = _MARK
    return orjson.dumps(value).replace(orjson.dumps(_MARK), replacement, 1)


def _pick_field(rng: random.Random, variant: Variant) -> tuple[int, tuple] | None:
    objects = [(at, value) for at, value in _objects(variant) if value.get("type") != "session"]
    rng.shuffle(objects)
    for at, value in objects:
        paths = _field_paths(value)
        if paths:
            return at, rng.choice(paths)
    return None


def _drop_field(rng: random.Random, variant: Variant) -> str | None:
    picked = _pick_field(rng, variant)
    if picked is None:
        return None
    at, path = picked
    variant.lines[at] = set_field(variant.lines[at], path, None)
    return f"line {at + 1}: {'.'.join(map(str, path))} dropped"


def _retype_field(rng: random.Random, variant: Variant) -> str | None:
    picked = _pick_field(rng, variant)
    if picked is None:
        return None
    at, path = picked
    value = rng.choice(RETYPED)
    variant.lines[at] = set_field(variant.lines[at], path, value)
    return f"line {at + 1}: {'.'.join(map(str, path))} = {value.decode(errors='replace')}"


def _named_field(rng: random.Random, variant: Variant, names: tuple[str, ...], values: list[bytes]) -> str | None:
    """A field of one of `names` (an entry's or its message's), given one of `values`."""
    sites = [
        (at, path)
        for at, value in _objects(variant)
        for path in _field_paths(value, depth=2)
        if path[-1] in names and value.get("type") != "session"
    ]
    if not sites or not values:
        return None
    at, path = rng.choice(sites)
    value = rng.choice(values)
    variant.lines[at] = set_field(variant.lines[at], path, value)
    return f"line {at + 1}: {'.'.join(map(str, path))} = {value.decode(errors='replace')}"


def _another_id(rng: random.Random, variant: Variant) -> str | None:
    # A reference to an entry (parent, first kept, a label's or an edit's target) now names another.
    ids = [orjson.dumps(key) for key in _ids(variant)] + [b'"nowhere"', b"null"]
    return _named_field(rng, variant, ("parentId", "firstKeptEntryId", "targetId", "fromId", "id"), ids)


def _another_type(rng: random.Random, variant: Variant) -> str | None:
    return _named_field(rng, variant, ("type",), [orjson.dumps(kind) for kind in ENTRY_TYPES])


def _another_role(rng: random.Random, variant: Variant) -> str | None:
    return _named_field(rng, variant, ("role",), [orjson.dumps(role) for role in ROLES])


def _chinese_text(rng: random.Random, variant: Variant) -> str | None:
    text = rng.choice(["你好，世界", "压缩摘要：用户要求修复错误。", "🌏🚀 表情", "中" * 3000])
    return _named_field(rng, variant, ("content", "text", "summary", "label", "thinking", "name"), [orjson.dumps(text)])


def _header_field(rng: random.Random, variant: Variant) -> str | None:
    for at, value in _objects(variant):
        if value.get("type") == "session":
            key = rng.choice([*value, "version", "cwd"])
            replacement = rng.choice([*RETYPED, b"2", b"3", b"4", b'"3"', None])
            if replacement is None and key not in value:
                return None
            variant.lines[at] = set_field(variant.lines[at], (key,), replacement) if key in value or replacement else variant.lines[at]
            return f"header {key} = {replacement.decode(errors='replace') if replacement else 'dropped'}"
    return None


def _line_index(rng: random.Random, variant: Variant, first: int = 1) -> int | None:
    return rng.randrange(first, len(variant.lines)) if len(variant.lines) > first else None


def _delete_line(rng: random.Random, variant: Variant) -> str | None:
    at = _line_index(rng, variant)
    if at is None:
        return None
    del variant.lines[at]
    return f"line {at + 1} lost"


def _duplicate_line(rng: random.Random, variant: Variant) -> str | None:
    at = _line_index(rng, variant)
    if at is None:
        return None
    where = rng.randrange(at, len(variant.lines) + 1)
    variant.lines.insert(where, variant.lines[at])
    return f"line {at + 1} written again as line {where + 1}"


def _swap_lines(rng: random.Random, variant: Variant) -> str | None:
    at = _line_index(rng, variant)
    if at is None or at + 1 >= len(variant.lines):
        return None
    variant.lines[at], variant.lines[at + 1] = variant.lines[at + 1], variant.lines[at]
    return f"lines {at + 1} and {at + 2} swapped"


def _truncate_line(rng: random.Random, variant: Variant) -> str | None:
    at = _line_index(rng, variant)
    if at is None or len(variant.lines[at]) < 2:
        return None
    cut = rng.randrange(1, len(variant.lines[at]))
    variant.lines[at] = variant.lines[at][:cut]
    return f"line {at + 1} cut after {cut} bytes"


def _insert_damage(rng: random.Random, variant: Variant) -> str | None:
    at = rng.randrange(1, len(variant.lines) + 1)
    line = rng.choice(DAMAGE)
    variant.lines.insert(at, line)
    return f"line {at + 1} is {line!r}"


def _crlf(rng: random.Random, variant: Variant) -> str | None:
    if rng.random() < 0.5:
        variant.lines = [line + b"\r" for line in variant.lines]
        return "every line ends in CRLF"
    at = rng.randrange(len(variant.lines))
    variant.lines[at] += b"\r"
    return f"line {at + 1} ends in CRLF"


def _file_ends(rng: random.Random, variant: Variant) -> str | None:
    if rng.random() < 0.5:
        variant.newline_at_end = False
        return "no final newline"
    variant.bom = True
    return "a byte-order mark first"


def _invalid_utf8(rng: random.Random, variant: Variant) -> str | None:
    sites = [at for at, raw in enumerate(variant.lines) if b'"text":"' in raw or b'"content":"' in raw]
    if not sites:
        return None
    at = rng.choice(sites)
    marker = b'"text":"' if b'"text":"' in variant.lines[at] else b'"content":"'
    variant.lines[at] = variant.lines[at].replace(marker, marker + b"\xc3\x28\xff", 1)
    return f"line {at + 1}: invalid UTF-8 in a text"


CHANGES: tuple[Callable[[random.Random, Variant], str | None], ...] = (
    _drop_field, _retype_field, _another_id, _another_id, _another_type, _another_role, _chinese_text, _header_field,
    _delete_line, _duplicate_line, _swap_lines, _truncate_line, _insert_damage, _crlf, _file_ends, _invalid_utf8,
)  # fmt: skip


def wild_variant(source: bytes, rng: random.Random, most: int = 3) -> Variant:
    """A copy of the session file `source` with one to `most` changes, chosen by `rng`."""
    variant = Variant(source.rstrip(b"\n").split(b"\n"), [])
    while not variant.changes or (len(variant.changes) < most and rng.random() < 0.5):
        change = rng.choice(CHANGES)(rng, variant)
        if change is not None:
            variant.changes.append(change)
    return variant


def wild_variants(sources: list[Path], folder: Path, seed: int, count: int) -> dict[Path, list[str]]:
    """`count` variants of the `sources`, written to `folder`: {file: the changes made to it}."""
    rng = random.Random(seed)
    made = {}
    for number in range(count):
        source = sources[number % len(sources)]
        variant = wild_variant(source.read_bytes(), rng)
        path = variant.write(folder / f"{number:03d}-{source.stem}.jsonl")
        made[path] = [f"from {source.name}", *variant.changes]
    return made
