"""Sessions as they come from the wild, checked against pi 1.6.0 itself: the differential fuzz.

Seeded variants of the fixtures and of sessions pi's own SessionManager writes, each with one to
three changes of the kinds files met outside pi's tests show (tests/wild.py: lines damaged, lost,
written twice or swapped; fields dropped, retyped or naming another entry; other types and roles;
Chinese text; CRLF, a byte-order mark, no final newline; invalid UTF-8). For each, pi's own code
answers and ours must be the same bytes: every entry's context, the current leaf's, pi's projected
estimates, the files each node's path read and changed, the tree as `pibrowser tree --format json` writes it, the branches createBranchedSession
writes and the rows of pi's /tree selector. Where pi throws, we must have said something about the
file. A failure names the file's changes, so the case can be written down as a test of its own.

PIBROWSER_WILD_FILES sets how many variants (60 by default), PIBROWSER_WILD_SEED which (1);
PIBROWSER_WILD_DIR names a folder whose session files (`*.jsonl`, any depth: your own sessions, say)
are checked as they are, beside the variants. Runs when Node.js and pi are found
(tests/test_against_pi.py says how), skipped otherwise.
"""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from pibrowser.cli.main import main
from pibrowser.model import Session
from pibrowser.model.context.file_lists import file_operations
from pibrowser.model.js.map_key import js_key, key_truthy
from pibrowser.model.session.problems import SessionLoadError
from pibrowser.model.session.session import _cut_loops

from .conftest import FIXTURES
from .old_files import OLD_FILES
from .pi.locate import PI_VERSION, node_binary, pi_each_command, pi_files_each_command, pi_package
from .test_against_pi import assert_estimates_are_pis, assert_tree_rows_are_pis
from .test_extract import assert_branches_are_pis
from .wild import wild_variants

NODE = node_binary()
PI_DIR = pi_package() if NODE else None
pytestmark = [
    pytest.mark.skipif(PI_DIR is None, reason=f"needs Node.js >= 22 and pi {PI_VERSION} (PIBROWSER_NODE, PIBROWSER_PI_DIR)"),
    pytest.mark.xdist_group("pi"),
]
COUNT = int(os.environ.get("PIBROWSER_WILD_FILES", "60"))
SEED = int(os.environ.get("PIBROWSER_WILD_SEED", "1"))
FOUND = Path(os.environ["PIBROWSER_WILD_DIR"]).expanduser() if os.environ.get("PIBROWSER_WILD_DIR") else None
# Below the suite's own timeout (pyproject), which ends the whole process: subprocess.run's ends pi's.
PI_TIMEOUT = 240
SOURCES = ("blog-example.jsonl", "generated-s1.jsonl", "generated-s2.jsonl", "generated-s3.jsonl", "bytes/js-numbers.jsonl")


@pytest.fixture(scope="module")
def wild(tmp_path_factory, pi_written_sessions) -> dict[Path, list[str]]:
    """{file: what was changed in it}."""
    old = tmp_path_factory.mktemp("old-formats")
    # Older formats too: the start of pi's own version 1 session, and hand-made version 1 and 2 files.
    (old / "legacy-v1-start.jsonl").write_bytes(b"".join((FIXTURES / "legacy-v1.jsonl").read_bytes().splitlines(keepends=True)[:60]))
    for name in ("v1-every-case", "v2"):
        (old / f"{name}.jsonl").write_bytes(OLD_FILES[name])
    sources = [FIXTURES / name for name in SOURCES] + pi_written_sessions[:6] + sorted(old.glob("*.jsonl"))
    return wild_variants(sources, tmp_path_factory.mktemp("wild"), SEED, COUNT) | found_files(FOUND)


def found_files(folder: Path | None) -> dict[Path, list[str]]:
    """The sessions in `folder`, to be checked as they are (none without one)."""
    if folder is None:
        return {}
    found = sorted(path for path in folder.rglob("*.jsonl") if path.is_file())
    assert found, f"PIBROWSER_WILD_DIR={folder} holds no .jsonl file"
    return {path: [f"as found in {folder}"] for path in found}


_ASKED: dict[tuple[str, tuple[Path, ...]], dict[Path, bytes | str]] = {}


def pi_answers(mode: str, files: list[Path]) -> dict[Path, bytes | str]:
    """pi's answer of one kind for each file (see tests/pi/pi_answers.mjs): its bytes, or the error
    pi threw on that file, as text."""
    key = (mode, tuple(files))
    if key not in _ASKED:
        result = subprocess.run(pi_each_command(NODE, PI_DIR, mode, files), capture_output=True, timeout=PI_TIMEOUT)
        assert result.returncode == 0, result.stderr.decode()[-3000:]
        answers = [json.loads(line) for line in result.stdout.splitlines()]  # (a lone surrogate too)
        _ASKED[key] = {
            path: answer.encode("utf-8") if isinstance(answer, str) else answer["error"]
            for path, answer in zip(files, answers, strict=True)
        }
    return _ASKED[key]


@contextmanager
def naming(wild: dict[Path, list[str]], path: Path) -> Iterator[None]:
    """A failure inside names the file and what was changed in it."""
    try:
        yield
    except AssertionError as error:
        raise AssertionError(f"{path.name}, {'; '.join(wild[path])}: {error}") from error


def ours(capsysbinary, *args: str) -> tuple[int, bytes]:
    code = main(list(args))
    return code, capsysbinary.readouterr().out


@functools.cache  # each variant is asked about by every test: read once (none of them changes it)
def loaded(path: Path) -> Session | None:
    """The session as the command line and, once its lines are checked, the window hold it: loaded
    whole, so a line that looked whole when skimmed but does not parse is left out, as pi leaves it."""
    try:
        return Session.load(path, lazy=False)
    except SessionLoadError:
        return None


def acyclic(path: Path) -> bool:
    """No parentId loop, on a path or in pi's tree. pi follows a path's loop until its array outgrows
    what JS allows (a RangeError, seconds per entry later), and walks its tree's loop forever: pi is
    asked only about the other files (tests/test_hostile_input.py holds the loops to what we say of them)."""
    session = loaded(path)
    if session is None:
        return True
    path_loops = any("own parent" in problem.reason or "cycle" in problem.reason for problem in session.problems)
    return not path_loops and not pis_tree_loops(session)


def pis_tree_loops(session: Session) -> bool:
    """Whether pi's getTree never returns: it makes one node per id (its last entry's) and hangs every
    line's node under its parentId's, so where an id repeats, an earlier line's parent can close a loop
    that no path has (its sort then walks the loop forever). A path's own loops are the problems above."""
    if not session.repeats_ids:
        return False
    kids: dict[object, list[object]] = {}
    roots = []
    for entry in session.file_order:
        parent = entry.parent_id  # a linked line holds its parent's key already
        key = None if parent is None else js_key(parent)
        if key is None or key == entry.id or key not in session.entries:
            roots.append(entry.id)
        else:
            kids.setdefault(key, []).append(entry.id)
    cut = {node: list(children) for node, children in kids.items()}
    _cut_loops(roots, cut)  # the tree's own walk, which leaves out each edge that closes a loop
    return cut != kids


def minted(session: Session | None) -> bool:
    """pi gives a version 1 file new random ids (the header's version was changed): its answers
    name entries by ids ours cannot know, and are compared without them."""
    return session is not None and session.migrated_from == 1


_LEAF = re.compile(rb'^\{"leaf":("(?:[^"\\]|\\.)*"|null),', re.M)


def without_leaf(text: bytes) -> bytes:
    return _LEAF.sub(b"{", text)


def said_something(path: Path, code: int) -> bool:
    session = loaded(path)
    return code != 0 or session is None or bool(session.problems)


def test_every_context_of_a_wild_file_is_pis(wild, capsysbinary):
    for path, theirs in pi_answers("contexts", list(filter(acyclic, wild))).items():
        code, got = ours(capsysbinary, "context", str(path), "--all", "--format", "json")
        if isinstance(theirs, str):
            assert said_something(path, code), (wild[path], theirs)
            continue
        assert code == 0, wild[path]
        if minted(loaded(path)):
            got, theirs = without_leaf(got), without_leaf(theirs)
        assert got == theirs, wild[path]


def test_the_current_leafs_context_of_a_wild_file_is_pis(wild, capsysbinary):
    # Through the one-path index where the file allows it, as `pibrowser context FILE` reads.
    for path, theirs in pi_answers("context", list(filter(acyclic, wild))).items():
        code, got = ours(capsysbinary, "context", str(path))
        if isinstance(theirs, str):
            assert said_something(path, code), (wild[path], theirs)
            continue
        if minted(loaded(path)):
            got, theirs = without_leaf(got), without_leaf(theirs)
        assert (code, got) == (0, theirs), wild[path]


def test_every_estimate_of_a_wild_file_is_pis(wild):
    for path, theirs in pi_answers("estimates", list(filter(acyclic, wild))).items():
        session = loaded(path)
        if isinstance(theirs, str) or session is None or minted(session):
            continue
        # Where pi's estimate throws at a node (a message its estimateTokens cannot read), that
        # node has no answer to equal; every other node's is compared.
        answers = {key: value for key, value in json.loads(theirs).items() if "error" not in value}
        with naming(wild, path):
            assert_estimates_are_pis(path, json.dumps(answers).encode(), only_given=True)  # (a lone surrogate too)


def test_the_tree_of_a_wild_file_is_pis(wild, capsysbinary):
    """`pibrowser tree --format json` against pi's getTree, labels and name, as the fixtures' answers hold them."""
    for path, theirs in pi_answers("expected", list(filter(acyclic, wild))).items():
        session = loaded(path)
        if isinstance(theirs, str) or session is None or minted(session):
            continue
        code, got = ours(capsysbinary, "tree", str(path), "--format", "json")
        answer = theirs.rstrip(b"\n")
        assert (code, got.rstrip(b"\n")) == (0, answer[: answer.rindex(b',"contexts":')] + b"}"), wild[path]


def test_every_branch_of_a_wild_file_is_pis(wild):
    for path, theirs in pi_answers("branches", list(filter(acyclic, wild))).items():
        session = loaded(path)
        if isinstance(theirs, str) or session is None or minted(session):
            continue
        with naming(wild, path):
            assert_branches_are_pis(session, theirs, known_only=True)


def test_the_tree_rows_of_a_wild_file_are_pis(wild):
    # pi's /tree selector never returns on a parentId cycle and keeps no ids apart that the window
    # does (ids that repeat, or are not strings): those files are left to the tests above.
    def plain(path: Path) -> bool:
        session = loaded(path)
        return (
            session is not None
            and not minted(session)
            and not session.repeats_ids
            and all(key.__class__ is str for key in session.entries)
            and acyclic(path)
        )

    files = [path for path in wild if plain(path)]
    variants = [path for path in wild if path.parent != FOUND and FOUND not in path.parents]
    assert COUNT < 10 or sum(path in variants for path in files) > len(variants) // 2, "most variants keep the tree pi's selector can show"
    for path, theirs in pi_answers("tree", files).items():
        if not isinstance(theirs, str):
            with naming(wild, path):
                assert_tree_rows_are_pis(path, theirs)


def test_every_nodes_file_lists_in_a_wild_file_are_pis(wild):
    files = list(filter(acyclic, wild))
    result = subprocess.run(pi_files_each_command(NODE, PI_DIR, "files", files), capture_output=True, timeout=PI_TIMEOUT)
    assert result.returncode == 0, result.stderr.decode()[-3000:]
    for path, theirs in zip(files, map(json.loads, result.stdout.splitlines()), strict=True):  # (a lone surrogate too)
        session = loaded(path)
        if isinstance(theirs, dict) or session is None:
            continue  # pi threw on it (the tests above check that it was said), or ours refuses it
        with naming(wild, path):
            for line, entry in zip(theirs, session.file_order, strict=True):  # by place: a version 1 file's ids are new
                if not key_truthy(entry.id):
                    continue  # pi's getBranch of no id is the current leaf's path: no node of its own to name
                got = file_operations(session.path_entries(entry.id))
                assert (got.read_files, got.modified_files) == (line["read_files"], line["modified_files"]), entry.id
