"""Secrets found in a session, reviewed, and replaced before anything leaves the machine.

`find_secrets` reads every string of every line of a session file (message text, tool
arguments and results, custom entries, labels, the session's name) and lists each secret
once, with where it was first seen and a masked snippet. `redacted_copy` writes a copy of
the file with every occurrence of every secret not kept replaced by a visible
`«redacted: KIND»` — as it is, JSON-escaped (also twice, for JSON text inside a string),
URL-encoded and base64-encoded at each of its three alignments — and, when asked, home
folders (`/home/NAME`, `/Users/NAME`) shortened to `~`. The share is made from that copy,
so every view of it (contexts, titles, trace, files, labels) is made of redacted text. The
session file itself is only read.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import re
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, quote_plus

import orjson

from ..session.lines import scan_lines
from ..session.regular_file import open_regular
from ..text.terminal_text import one_line
from .secrets import MIN_SECRET, Detectors

log = logging.getLogger(__name__)

_HOME = re.compile(rb"(?:/home|/Users)/[^/\s\"\\]+")
SNIPPET = 32  # characters shown on each side of a secret


@dataclass(slots=True)
class Finding:
    """One secret: its kind, where it was first seen (an entry id, or "line N"), how many strings
    hold it, a masked snippet, and whether the user keeps it (then it is not replaced)."""

    kind: str
    secret: str
    entry: str
    count: int
    snippet: str
    keep: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "entry": self.entry, "count": self.count, "snippet": self.snippet, "kept": self.keep}


@dataclass(slots=True)
class Findings:
    items: list[Finding] = field(default_factory=list)

    def removed(self) -> list[Finding]:
        return [finding for finding in self.items if not finding.keep]

    def by_kind(self) -> dict[str, int]:
        """How many secrets of each kind will be replaced."""
        counts: dict[str, int] = {}
        for finding in self.removed():
            counts[finding.kind] = counts.get(finding.kind, 0) + 1
        return dict(sorted(counts.items()))


def masked(secret: str) -> str:
    """A secret as the review shows it: its first characters and its length."""
    shown = 4 if len(secret) >= 16 else 2
    return f"{secret[:shown]}…({len(secret)} chars)"


def find_secrets(path: Path, detectors: Detectors, progress: Callable[[int, int], None] = lambda done, total: None) -> Findings:
    """Every secret in the file's strings, once each, in the order first seen."""
    found: dict[str, Finding] = {}
    seen: set[str] = set()
    with open_regular(path) as handle:
        total = os.fstat(handle.fileno()).st_size
        number = 0
        for batch in scan_lines(handle):
            for line in batch.lines:
                number += 1
                _scan_line(line, number, detectors, found, seen)
            progress(batch.end, total)
    # A secret inside another (a password inside a URL found whole) is replaced with it: only the
    # longer is listed, so that keeping it keeps both.
    values = sorted(found, key=len, reverse=True)
    kept: list[str] = []
    for value in values:
        if not any(value in longer for longer in kept):
            kept.append(value)
    keep = set(kept)
    return Findings([finding for value, finding in found.items() if value in keep])


def _scan_line(line: bytes, number: int, detectors: Detectors, found: dict[str, Finding], seen: set[str]) -> None:
    try:
        value = orjson.loads(line)
    except orjson.JSONDecodeError:
        value = line.decode("utf-8", "replace")  # pi skips it; its text is still in the file
    entry = value.get("id") if isinstance(value, dict) else None
    where = entry if isinstance(entry, str) else f"line {number}"
    for text in _strings(value):
        if text in seen:  # most strings of a session are seen before: its keys, its tools' names
            if found:
                for secret, known in found.items():
                    if secret in text:
                        known.count += 1
            continue
        seen.add(text)
        for hit in detectors.find(text):
            if len(hit.value) < MIN_SECRET:
                continue
            finding = found.get(hit.value)
            if finding is None:
                found[hit.value] = Finding(hit.kind, hit.value, where, 1, _snippet(text, hit.value))
            else:
                finding.count += 1


def _strings(value: Any) -> list[str]:
    """Every string in a JSON value, keys too, without recursion (a value may nest deeply): an
    object's keys in order, then what its values hold, the last value first."""
    found: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)  # JSON parsed: no subclass of these
        if kind is str:
            found.append(item)
        elif kind is dict:
            found.extend(item)
            stack.extend(item.values())
        elif kind is list:
            stack.extend(item)
    return found


def _snippet(text: str, secret: str) -> str:
    at = text.find(secret)
    before = text[max(0, at - SNIPPET) : at]
    after = text[at + len(secret) : at + len(secret) + SNIPPET]
    return one_line(
        ("…" if at > SNIPPET else "") + before + masked(secret) + after + ("…" if len(text) > at + len(secret) + SNIPPET else "")
    )


# ---- replacing -------------------------------------------------------------------------------


def marker(kind: str) -> str:
    return f"«redacted: {kind}»"


def _json_inner(text: str) -> str:
    return orjson.dumps(text).decode("utf-8")[1:-1]


def encoded_forms(secret: str) -> set[str]:
    """The ways a secret's text may be written in a session: as it is, JSON-escaped (also in
    ASCII, and twice), URL-encoded, and base64 at each alignment (the characters that depend
    on the secret alone)."""
    forms = {secret, _json_inner(secret), json.dumps(secret)[1:-1], _json_inner(_json_inner(secret))}
    forms.update({quote(secret, safe=""), quote_plus(secret), quote(secret)})
    raw = secret.encode("utf-8")
    for offset in range(3):
        for encode in (base64.b64encode, base64.urlsafe_b64encode):
            text = encode(b"\0" * offset + raw).decode("ascii").rstrip("=")
            bits = 8 * (offset + len(raw))
            middle = text[(8 * offset + 5) // 6 : bits // 6]
            if len(middle) >= 12:
                forms.add(middle)
    return {form for form in forms if len(form) >= MIN_SECRET}


def replacements(findings: Iterable[Finding]) -> list[tuple[bytes, bytes]]:
    """(bytes as a line of the file holds them, marker) for every form of every secret, longest first."""
    pairs: dict[bytes, bytes] = {}
    for finding in findings:
        mark = marker(finding.kind).encode("utf-8")
        for form in encoded_forms(finding.secret):
            for written in (_json_inner(form), json.dumps(form)[1:-1]):
                pairs.setdefault(written.encode("utf-8"), mark)
    return sorted(pairs.items(), key=lambda pair: -len(pair[0]))


def redacted_copy(path: Path, findings: Findings, home: bool, folder: Path) -> Path:
    """A copy of the session in `folder` with the secrets not kept replaced (and home folders
    shortened to ~ when `home`); the file at `path` is only read."""
    pairs = replacements(findings.removed())
    handle, name = tempfile.mkstemp(prefix="session.", suffix=".jsonl", dir=folder)
    with os.fdopen(handle, "wb") as out, open_regular(path) as source:
        for batch in scan_lines(source):
            data = batch.data
            changed = data
            for written, mark in pairs:
                if written in changed:
                    changed = changed.replace(written, mark)
            if home:
                changed = _HOME.sub(b"~", changed)
            if changed is not data:
                changed = _still_lines(data, changed, pairs, home)
            out.write(changed)
    return Path(name)


def _still_lines(before: bytes, after: bytes, pairs: list[tuple[bytes, bytes]], home: bool) -> bytes:
    """`after`, but where a replacement broke a line's JSON that parsed before (a secret's bytes that
    crossed a string's end), that line redacted value by value instead."""
    old_lines, new_lines = before.split(b"\n"), after.split(b"\n")
    if len(old_lines) != len(new_lines):
        return after  # a secret held a newline: no JSON line does, so nothing parsed was cut
    for at, (old, new) in enumerate(zip(old_lines, new_lines)):
        if old == new or _parses(new) or not _parses(old):
            continue
        log.warning("a redaction broke a line's JSON; redacting that line's strings one by one")
        new_lines[at] = orjson.dumps(_redact_value(orjson.loads(old), pairs, home))
    return b"\n".join(new_lines)


def _parses(line: bytes) -> bool:
    try:
        orjson.loads(line)
    except orjson.JSONDecodeError:
        return False
    return True


def _redact_value(value: Any, pairs: list[tuple[bytes, bytes]], home: bool) -> Any:
    if isinstance(value, str):
        for written, mark in pairs:
            text = written.decode("utf-8")
            if text in value:
                value = value.replace(text, mark.decode("utf-8"))
        return _HOME.sub(b"~", value.encode("utf-8", "surrogatepass")).decode("utf-8", "surrogatepass") if home else value
    if isinstance(value, dict):
        return {_redact_value(key, pairs, home): _redact_value(inner, pairs, home) for key, inner in value.items()}
    if isinstance(value, list):
        return [_redact_value(item, pairs, home) for item in value]
    return value
