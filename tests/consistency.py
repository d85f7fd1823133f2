"""What must hold for any session that loads, however broken its file: the checks shared by the
hostile-input and the property tests. Each answer of the model is checked against another."""

from __future__ import annotations

import json
import re

from pibrowser.model import Session, path_provenance, resolve
from pibrowser.model.context.provenance import path_parts
from pibrowser.model.text.describe import entry_title
from pibrowser.model.js import deepjson
from pibrowser.model.js.map_key import key_truthy
from pibrowser.model.js.stringify import dump_json
from pibrowser.model.session.search import find, search_text
from pibrowser.model.text.terminal_text import visible_line
from pibrowser.model.text.transcript import render
from pibrowser.model.text.tree_json import tree_json
from pibrowser.model.session.forest import as_forest
from pibrowser.model.session.tree_rows import tree_rows
from pibrowser.model.text.tree_text import tree_text


def _parse(text: str | bytes):
    """JSON.parse of any depth: what the standard library's recursion refuses, the deep parser reads."""
    try:
        return json.loads(text)
    except RecursionError:
        return deepjson.loads(text.decode() if isinstance(text, bytes) else text)


def check_validation(session: Session, *, strict: bool) -> list[int]:
    """Every line validation cannot parse is reported; a strict load has none left. Returns them."""
    problems, invalid = session.validate()
    reported = {problem.line for problem in problems}
    assert set(invalid) <= reported
    assert all(1 <= line < session.next_line + 1 for line in reported)
    if strict:
        assert invalid == []  # strict loading already left out what does not parse
    return invalid


def check_tree(session: Session) -> None:
    walked = [key for key, _ in session.walk()]
    assert sorted(walked) == sorted(session.entries), "every entry is reachable in the displayed forest, once"
    for key in session.entries:
        parent = session.parent(key)
        assert parent is None or key in session.children(parent)
        assert all(session.parent(kid) == key for kid in session.children(key))
    tree = _parse(tree_json(session))  # lone surrogates are escapes orjson refuses
    assert tree.get("leaf") == _as_json(session.leaf_id)  # an id that is not a string is written as its value
    ids = _tree_ids(tree["tree"])  # pi's tree: its roots only, so no entry under a cut cycle
    # pi's getTree, which the JSON and the text write: where ids repeat, the last entry of an id
    # under each of its lines' parents (Session.tree_with_repeats); otherwise the forest walked.
    forest = as_forest(session)
    shown = _preorder([*forest.roots(), *forest.cut_roots()], forest.children)
    assert shown == walked or session.repeats_ids
    assert ids == [_as_json(key) for key in shown[: len(ids)]]
    assert len(ids) == len(shown) or session.cycle_roots
    lines = tree_text(session).splitlines()
    lines = lines if walked else []  # an empty session prints an empty line
    assert len(lines) == len(shown)
    if session.repeats_ids:
        return  # the rows below are the window's, which shows each id once
    leaf = session.leaf_id
    rows = tree_rows(
        session.display_roots(), session.children, frozenset(session.path_to(leaf)) if leaf in session.entries else frozenset()
    )
    assert sorted(rows.keys) == sorted(walked), "pi's /tree order lists every entry once"
    # A deep row's outer levels are a marker of how many (DEPTH_MARK) in place of their rails.
    assert all(re.sub(r"^⋯\d+ ", "", line).lstrip("│├└─ ").startswith(visible_line(key)) for line, key in zip(lines, rows.keys))
    at = {key: row for row, key in enumerate(rows.keys)}
    assert all(at[session.parent(key)] < at[key] for key in rows.keys if session.parent(key) in at), (
        "a parent's line comes before its children's"
    )


def _preorder(roots: list, children) -> list:
    out, stack = [], list(reversed(roots))
    while stack:
        key = stack.pop()
        out.append(key)
        stack.extend(reversed(children(key)))
    return out


def _as_json(key: str | None) -> object:
    """An id as JSON writes it: a string as it is, another value (JsKey) as that value, undefined as nothing."""
    return json.loads(dump_json(key))


def check_contexts(session: Session) -> None:
    for key, entry in session.entries.items():
        context = resolve(session, key)
        # pi looks a falsy id (an entry without one) up as no leaf: its context is the last entry's.
        leaf = key if key_truthy(key) else session.file_order[-1].id
        assert [item.id for item in context.path] == session.path_to(leaf)
        assert context.path[-1].id == leaf
        assert len(context.message_sources()) == len(context.messages)
        pi = context.to_pi()
        assert len(pi["messages"]) == len(context.messages)
        assert _parse(dump_json(pi)) is not None  # pi's JSON parses, lone surrogates and all
        provenance = path_provenance(context)
        assert list(provenance) == [item.id for item in context.path]
        assert sum(part.message_count for part in provenance.values()) == len(context.messages)
        assert path_parts(provenance) == {found.part for found in provenance.values()}  # summarized ones come first
        text = render(context, markdown=True)
        assert text.startswith(f"# Context at {key}\n")
        assert text.count("\n## ") >= len(context.messages)  # a title per message (a text may hold more)
        title = entry_title(entry)
        assert isinstance(title, str) and len(title) <= 80  # displays make control characters visible


def check_search(session: Session, needle: str = "a") -> None:
    found = list(find(session, needle))
    order = [key for key, _ in session.walk()]
    assert found == [key for key in order if key in set(found)], "hits come in tree order"
    assert all(needle in search_text(session.entries[key], session.labels.get(key)) for key in found)
    assert {key for key in session.entries if needle in key.casefold()} <= set(found)  # an id is searched


def check_session(session: Session, *, strict: bool) -> None:
    check_validation(session, strict=strict)
    check_tree(session)
    check_contexts(session)
    check_search(session)


def _tree_ids(nodes: list[dict]) -> list[str]:
    ids: list[str] = []
    stack = list(reversed(nodes))
    while stack:
        node = stack.pop()
        ids.append(node.get("id"))  # none for an entry without an id (JSON leaves undefined out)
        stack.extend(reversed(node["children"]))
    return ids
