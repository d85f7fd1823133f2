"""A session with secrets planted in every place a session holds text, in each way text encodes them,
for the share's redaction tests: every form of every secret must be gone from the page's bytes."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from urllib.parse import quote

from .sessions import HEADER, entry, message, write

AWS_KEY = "AKIAZ7Q3XKPL4MNB2RTY"
AWS_SECRET = "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"
GITHUB = "ghp_Zq8bX2mN4vL7kP0sR3tY6wA9cE1fH5jK8uGd"
ANTHROPIC = "sk-ant-api03-Zq8bX2mN4vL7kP0sR3tY6wA9cE1fH5jK8uGd-Xc2Vb7Nm4Lk8Pq1Rs6TuAA"
SLACK = "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"
JWT = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
PASSWORD = "Tr0ub4dor-and-3-horses"
PEM = (
    "-----BEGIN RSA PRIVATE KEY-----\n"
    "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n"
    "VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n"
    "-----END RSA PRIVATE KEY-----"
)
LISTED = 'p4ss"w\\rd/with-quotes'  # only the user's list names it: its JSON form differs from its text
PATTERNED = "ACME-7F3A-99B2-C0DE"  # only the user's pattern finds it
PATTERN = r"ACME-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}"
DETECTED = [AWS_KEY, AWS_SECRET, GITHUB, ANTHROPIC, SLACK, JWT, PASSWORD, PEM]
HOME = "/home/alice"
# A 1×1 PNG, and an SVG that names a remote file: only the first may show, as a data: URI.
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
SVG = base64.b64encode(b'<svg xmlns="http://www.w3.org/2000/svg"><image href="http://127.0.0.1:9/x.png"/></svg>').decode()


def forms(secret: str) -> list[str]:
    """The ways the page's bytes could hold a secret: none of them may be there."""
    raw = secret.encode()
    found = {secret, json.dumps(secret)[1:-1], quote(secret, safe=""), base64.b64encode(raw).decode().rstrip("=")}
    for line in secret.split("\n"):
        if len(line) >= 16:
            found.add(line)  # a private key's lines, each
    return sorted(found)


def write_planted(path: Path) -> Path:
    """The session: secrets in user text, thinking, tool arguments and results, shell output, a
    custom message, a custom entry, a label, the session's name, a compaction and a branch
    summary; JSON-escaped, URL-encoded and base64-encoded copies elsewhere."""
    basic = base64.b64encode(f"deploy:{PASSWORD}".encode()).decode()
    config = json.dumps({"aws_secret_access_key": AWS_SECRET, "key": PEM, "note": LISTED})
    header = {**HEADER, "cwd": f"{HOME}/project"}
    return write(
        path,
        message("u1", None, "user", f"my key is {AWS_KEY} and the secret is aws_secret_access_key = '{AWS_SECRET}'", second=1),
        message(
            "a1",
            "u1",
            "assistant",
            [
                {"type": "thinking", "thinking": f"the token {GITHUB} must not leak"},
                {"type": "text", "text": "Reading the config."},
                {"type": "toolCall", "id": "call_1", "name": "read", "arguments": {"path": f"{HOME}/project/.env", "token": SLACK}},
            ],
            second=2,
            provider="anthropic",
            model="claude",
            stopReason="toolUse",
        ),
        message(
            "t1",
            "a1",
            "toolResult",
            [{"type": "text", "text": f"ANTHROPIC_API_KEY={ANTHROPIC}\nconfig.json: {config}\n{PEM}"}],
            second=3,
            toolCallId="call_1",
            toolName="read",
            isError=False,
        ),
        entry(
            "message",
            "b1",
            "t1",
            4,
            message={
                "role": "bashExecution",
                "command": f"curl -H 'Authorization: Basic {basic}' https://x.example",
                "output": f"jwt={JWT}",
                "exitCode": 0,
                "timestamp": 1793350804000,
            },
        ),
        entry(
            "custom_message",
            "c1",
            "b1",
            5,
            customType="note",
            content=f"url https://deploy:{PASSWORD}@git.example.com and {quote(AWS_SECRET, safe='')}",
            display=True,
        ),
        entry("custom", "x1", "c1", 6, customType="state", data={"code": PATTERNED, "b64": base64.b64encode(GITHUB.encode()).decode()}),
        message(
            "u2",
            "x1",
            "user",
            [
                {"type": "text", "text": f"also {LISTED} and ACME code {PATTERNED}"},
                {"type": "image", "mimeType": "image/png", "data": PNG},
                {"type": "image", "mimeType": "image/png", "data": SVG},
            ],
            second=7,
        ),
        entry("compaction", "k1", "u2", 8, summary=f"Earlier the user shared {AWS_KEY}.", firstKeptEntryId="u2", tokensBefore=1000),
        message("u3", "k1", "user", "carry on", second=9),
        entry("branch_summary", "s1", "u1", 10, fromId="u3", summary=f"A branch that saw {SLACK}."),
        message("u4", "s1", "user", "another way", second=11),
        entry("label", "l1", "u4", 12, targetId="u1", label=f"key {GITHUB}"),
        entry("session_info", "n1", "l1", 13, name=f"debugging {AWS_KEY}"),
        header=header,
    )
