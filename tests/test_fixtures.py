"""Every node of every fixture resolves to exactly pi's context; tree, labels, name and leaf match."""

import json

import orjson
import pytest

from pibrowser.model import Session, resolve
from pibrowser.model.text.tree_json import tree_json

from .conftest import FIXTURES, fixture_names


def expected(name: str) -> dict:
    return json.loads((FIXTURES / f"{name}.expected.json").read_text(encoding="utf-8"))


def test_fixtures_are_present():
    assert len(fixture_names()) >= 7, f"shared fixtures not found in {FIXTURES}"


@pytest.mark.parametrize("lazy", [True, False], ids=["lazy", "strict"])
@pytest.mark.parametrize("name", fixture_names())
def test_every_context_matches_pi(name, lazy):
    answers = expected(name)
    session = Session.load(FIXTURES / f"{name}.jsonl", lazy=lazy)
    assert answers["contexts"], "fixture without contexts"
    for key, want in answers["contexts"].items():
        leaf = session.leaf_id if key == "__default__" else key
        got = orjson.loads(orjson.dumps(resolve(session, leaf).to_pi()))
        assert got == want, f"{name}: context of {key} differs"


@pytest.mark.parametrize("name", [n for n in fixture_names() if not expected(n).get("legacy")])
def test_tree_labels_name_leaf_match_pi(name):
    answers = expected(name)
    session = Session.load(FIXTURES / f"{name}.jsonl")
    got = orjson.loads(tree_json(session))
    assert got["leaf"] == answers["leaf"]
    assert got["name"] == answers["name"]
    assert got["labels"] == answers["labels"]
    assert got["tree"] == answers["tree"]


@pytest.mark.parametrize("name", [n for n in fixture_names() if not expected(n).get("legacy")])
def test_every_entry_has_an_expected_context(name):
    # The fixtures answer for every entry; make sure we resolve the same set.
    session = Session.load(FIXTURES / f"{name}.jsonl")
    keys = set(expected(name)["contexts"]) - {"__default__"}
    assert keys == set(session.entries)


def test_fixture_files_are_not_modified():
    before = {path: path.read_bytes() for path in FIXTURES.glob("*.jsonl")}
    for path in before:
        session = Session.load(path)
        for key in list(session.entries)[:50]:
            resolve(session, key)
    assert {path: path.read_bytes() for path in before} == before
