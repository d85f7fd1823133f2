"""Write a fixture's answers from pi 1.6.0's own code (tests/fixtures/README.md says what each file holds).

    PIBROWSER_NODE=… PIBROWSER_PI_DIR=… python -m tests.pi.answer_fixtures SESSION.jsonl [...] [--out DIR]

For each session file it writes, beside it or into DIR: NAME.expected.json, NAME.pi-all.ndjson,
NAME.estimates.json and NAME.branches.json, each asked of pi through pi_answers.mjs. pi rewrites a
file it opens; the oracle opens a scratch copy, never the session itself.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from .locate import PI_VERSION, node_binary, pi_command, pi_package


def ask(node: str, package: Path, mode: str, session_file: Path) -> bytes:
    result = subprocess.run(pi_command(node, package, mode, session_file), capture_output=True, timeout=600)
    if result.returncode != 0:
        raise RuntimeError(f"pi_answers.mjs {mode} {session_file}: {result.stderr.decode(errors='replace')}")
    return result.stdout


def number(rep: dict) -> object:
    """pi's estimate as the fixtures store it: the number itself (pi_answers.mjs reports it as REP)."""
    if "error" in rep:
        return rep
    return json.loads(rep["string"])


def compact(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


def answers(node: str, package: Path, session_file: Path) -> dict[str, bytes]:
    """Each answers file's name suffix and bytes, for one session file."""
    estimates = json.loads(ask(node, package, "estimates", session_file))
    return {
        ".expected.json": ask(node, package, "expected", session_file),
        ".pi-all.ndjson": ask(node, package, "contexts", session_file),
        ".estimates.json": compact({key: number(value) for key, value in estimates.items()}),
        ".branches.json": ask(node, package, "branches", session_file),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sessions", type=Path, nargs="+")
    parser.add_argument("--out", type=Path, help="write the answers here (default: beside each session)")
    args = parser.parse_args()
    node = node_binary()
    package = pi_package() if node else None
    if node is None or package is None:
        sys.exit(f"needs Node.js >= 22 and pi {PI_VERSION} (PIBROWSER_NODE, PIBROWSER_PI_DIR)")
    for session_file in args.sessions:
        folder = args.out or session_file.parent
        folder.mkdir(parents=True, exist_ok=True)
        for suffix, data in answers(node, package, session_file).items():
            (folder / (session_file.stem + suffix)).write_bytes(data)
        print(f"{session_file.name}: answers written to {folder}")


if __name__ == "__main__":
    main()
