"""The fixtures' answers are pi's: asked of pi 1.6.0 again, it gives what tests/fixtures holds.

Runs when Node.js 22+ and pi 1.6.0 are present (see test_against_pi.py), skipped otherwise. It also
proves that the way tests/fixtures/README.md gives to write a fixture's answers works.
"""

from __future__ import annotations

import json

import pytest

from .conftest import FIXTURES
from .pi.answer_fixtures import answers
from .pi.locate import PI_VERSION, node_binary, pi_package

NODE = node_binary()
PI_DIR = pi_package() if NODE else None
pytestmark = pytest.mark.skipif(PI_DIR is None, reason=f"needs Node.js >= 22 and pi {PI_VERSION} (PIBROWSER_NODE, PIBROWSER_PI_DIR)")

ANSWERED = sorted(path for path in [*FIXTURES.glob("*.jsonl"), *(FIXTURES / "bytes").glob("*.jsonl")] if path.stem != "legacy-v1")


def test_every_answered_fixture_is_asked():
    assert {path.stem for path in ANSWERED} >= {"blog-example", "generated-s1", "generated-s5", "js-numbers"}


@pytest.mark.parametrize("session_file", ANSWERED, ids=lambda path: path.stem)
def test_pi_gives_the_committed_answers(session_file):
    fresh = answers(NODE, PI_DIR, session_file)
    committed = {suffix: (session_file.parent / (session_file.stem + suffix)).read_bytes() for suffix in fresh}
    assert fresh[".pi-all.ndjson"] == committed[".pi-all.ndjson"]
    for suffix in (".expected.json", ".estimates.json"):
        assert json.loads(fresh[suffix]) == json.loads(committed[suffix]), suffix
    branches, kept = json.loads(fresh[".branches.json"]), json.loads(committed[".branches.json"])
    assert kept and all(branches[key] == value for key, value in kept.items())
