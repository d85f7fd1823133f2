"""Finding secrets in a session's text: Yelp's detect-secrets detectors, pibrowser's few additions,
and the user's own patterns and listed secrets.

detect-secrets is used as a library of detectors, never as a scanner: its plugins'
patterns and entropy checks run on each line of text, and its heuristics drop what looks
like an id, a UUID, a sequence or a template. Its verification (which would send a found
secret to the service it belongs to) is never called, and nothing here touches the
network. Two of its habits are corrected: a pattern whose group holds only a prefix
(GitHub's `(ghp|…)_…`) counts its whole match, and a private key counts as its whole PEM
block, not the line that starts it.

Text a detector could not match is skipped quickly: a line goes to the detectors only
when it holds a run of 16 characters that secrets are made of, a word secrets are named
by (key, pass, secret, token, …), or a URL with credentials.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

MIN_SECRET = 6  # shorter values are not replaced: they would cut words everywhere
# Lines worth the detectors' time (see above); the rest holds nothing any of them matches.
_CANDIDATE = re.compile(
    r"[A-Za-z0-9_+=\-]{16}|[Kk][Ee][Yy]|[Pp][Aa][Ss][Ss]|[Pp][Ww][Dd]|[Ss][Ee][Cc][Rr][Ee][Tt]|[Tt][Oo][Kk][Ee][Nn]|://[^\s/@]+@|contras"
)
_PEM = re.compile(r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----.*?-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----", re.S)
_JWT_TAIL = re.compile(r"[A-Za-z0-9_\-=]+\.[A-Za-z0-9_\-=]+\.?[A-Za-z0-9_\-.+/=]*")
# Keys of AI providers, which a coding agent's sessions hold above all (detect-secrets knows OpenAI's only).
EXTRA = {
    "Anthropic API Key": re.compile(r"sk-ant-[A-Za-z0-9]{2,8}-[A-Za-z0-9_\-]{40,}"),
    "Google API Key": re.compile(r"AIza[0-9A-Za-z_\-]{35}"),
    "Hugging Face Token": re.compile(r"hf_[A-Za-z0-9]{34,}"),
    "Bearer Token": re.compile(r"(?i)\bbearer\s+([A-Za-z0-9_\-.=+/]{20,})"),
}
# detect-secrets' detectors left out: a public IP address is no secret, and the sessions of a
# coding agent are full of them (logs, pings, docs).
LEFT_OUT = frozenset({"Public IP (ipv4)"})


@dataclass(frozen=True, slots=True)
class Found:
    kind: str
    value: str


class Detectors:
    """detect-secrets' plugins with its default settings, pibrowser's additions and the user's patterns."""

    def __init__(self, patterns: Iterable[str] = (), listed: Iterable[str] = ()) -> None:
        from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
        from detect_secrets.plugins.base import RegexBasedDetector
        from detect_secrets.plugins.high_entropy_strings import HighEntropyStringsPlugin

        self.regex_plugins: list[Any] = []
        self.other_plugins: list[Any] = []
        plugin_class: Any
        for kind, plugin_class in get_mapping_from_secret_type_to_class().items():
            if kind in LEFT_OUT:
                continue
            plugin = plugin_class()
            if issubclass(plugin_class, RegexBasedDetector):
                self.regex_plugins.append(plugin)
            else:
                self.other_plugins.append(plugin)
        self.entropy = HighEntropyStringsPlugin
        self.patterns = [re.compile(pattern) for pattern in patterns]
        self.listed = [value for value in listed if len(value) >= 1]

    def find(self, text: str) -> Iterator[Found]:
        """Every secret in `text` (a message, an argument, a result: any string of the session)."""
        for value in self.listed:
            if value in text:
                yield Found("listed secret", value)
        for pattern in self.patterns:
            for match in pattern.finditer(text):
                if match.group(0):
                    yield Found("pattern", match.group(0))
        if "PRIVATE KEY" in text:
            for match in _PEM.finditer(text):
                yield Found("Private Key", match.group(0))
        if not _CANDIDATE.search(text):
            return
        for kind, pattern in EXTRA.items():
            for match in pattern.finditer(text):
                yield Found(kind, _value(match))
        for line in text.split("\n"):
            if _CANDIDATE.search(line):
                yield from self._line(line)

    def _line(self, line: str) -> Iterator[Found]:
        from detect_secrets.filters import heuristic

        for plugin in self.regex_plugins:
            if plugin.secret_type == "Private Key":
                continue  # the whole block, above
            for pattern in plugin.denylist:
                for match in pattern.finditer(line):
                    value = _value(match)
                    whole = _JWT_TAIL.match(line, match.start()) if plugin.secret_type == "JSON Web Token" else None
                    if whole is not None:
                        value = whole.group(0)  # its pattern stops lazily before the signature
                    yield Found(plugin.secret_type, value)
        for plugin in self.other_plugins:
            for value in plugin.analyze_string(line):
                if not isinstance(value, str) or not value:
                    continue
                if isinstance(plugin, self.entropy) and plugin.calculate_shannon_entropy(value) <= plugin.entropy_limit:
                    continue
                if (
                    heuristic.is_sequential_string(value)
                    or heuristic.is_potential_uuid(value)
                    or heuristic.is_likely_id_string(value, line, plugin)
                    or heuristic.is_templated_secret(value)
                    or heuristic.is_prefixed_with_dollar_sign(value)
                    or heuristic.is_indirect_reference(line)
                ):
                    continue
                yield Found(plugin.secret_type, value)


def _value(match: re.Match[str]) -> str:
    """The secret a match found: its longest group when that is long enough to be one, else the whole match."""
    groups = [group for group in match.groups() if group]
    longest = max(groups, key=len, default="")
    return longest if len(longest) >= 8 else match.group(0)


def listed_secrets(text: str) -> list[str]:
    """The secrets a --redact-file lists: one per line; from `NAME=VALUE` (an env file) the value,
    unquoted. Blank lines and # comments are skipped."""
    found = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, equals, value = line.partition("=")
        if equals and re.fullmatch(r"(?:export\s+)?[A-Za-z_][A-Za-z0-9_]*", name.strip()):
            line = value.strip().strip("'\"")
        if line:
            found.append(line)
    return found
