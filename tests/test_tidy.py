"""The written rules of ARCHITECTURE.md that code can check, checked on the code itself.

Each rule is a function from a source tree to its breaches (one line each, "path: what"):
the suite runs it on this repository, where it must find none, and on a small tree with a
breach planted, where it must find that one; so no rule can pass by finding nothing.
A rule with known exceptions lists each with the reason; an exception that no longer occurs
fails too, so the list shrinks as the code is mended. The rules read the code (its syntax
tree), never run it.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# One worker reads and walks the code once for every rule (each worker would parse it all again).
pytestmark = pytest.mark.xdist_group("tidy")

# model/'s packages, each importing only those before it (ARCHITECTURE.md, "Layers").
MODEL_ORDER = (
    "js",
    "session",
    "context",
    "tokens",
    "fold",
    "text",
    "trace",
    "compare",
    "library",
    "usage",
    "writing",
    "share",
    "pacer",
    "workspace",
    "graph",
)
# Where model/ may open a file: the one opener every reader of a session goes through, and the writers.
# The shared page's template, script and style are package data (importlib.resources), not a file of the user's.
OPENERS = ("pibrowser/model/session/regular_file.py", "pibrowser/model/writing/", "pibrowser/model/share/page.py")
HEADER_HOME = "pibrowser/model/session/header.py"
# The controller's signals: one for what changed in the workspace, the others for how a load goes.
CONTROLLER = "pibrowser/ui/control/controller.py"
CONTROLLER_SIGNALS = {"changed", "loading", "progress", "loadFailed"}
# Who reads pi's appended lines into the session: the workspace, and a label's write catching up
# with pi before it appends (it runs inside Workspace.append).
APPENDS_READ = ("pibrowser/model/workspace.py", "pibrowser/model/writing/label_writer.py")
# Where ui/ takes text as markup, and why that is safe there.
MARKUP = {
    "pibrowser/ui/common/safe_text.py": "markdown with HTML switched off, its images made inert, nothing fetched",
    "pibrowser/ui/tree/legend.py": "the legend: our own words and colours, nothing from a session",
}
# The cards' toolkit: what of ui/ it may import (the views that show cards are above it), and its one face.
CARDS = "pibrowser.ui.cards"
CARDS_IMPORT = ("pibrowser.ui.common", "pibrowser.ui.guard", "pibrowser.ui.style", "pibrowser.ui.control", "pibrowser.model")
# Known breaches, each with why it is still there; one that no longer occurs fails its rule.
EXCEPTIONS: dict[str, dict[str, str]] = {
    "no_import_circles_in_ui": {
        "pibrowser/ui/tree/menu.py: in an import circle with pibrowser.ui.tree.minimap, pibrowser.ui.tree.rebuild, "
        "pibrowser.ui.tree.tree_input, pibrowser.ui.tree.unfolding, pibrowser.ui.tree.view, pibrowser.ui.tree.view_mode": (
            "the tree view's collaborators are still handed the whole view (issue 35, item 2)"
        ),
    },
}

Rule = Callable[[Path], list[str]]


# ---- reading the code -----------------------------------------------------------------------


def modules(root: Path, under: str = "pibrowser") -> Iterator[tuple[str, ast.Module]]:
    """(path from the root, syntax tree) of every Python file under `under`."""
    for path in sorted((root / under).rglob("*.py")):
        yield path.relative_to(root).as_posix(), _parsed(str(path), path.read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=4096)
def _parsed(path: str, text: str) -> ast.Module:
    """A file's syntax tree, parsed once for all the rules (the rules only read it)."""
    return ast.parse(text, path)


_WALKED: dict[int, list[ast.AST]] = {}


def walk(tree: ast.Module) -> list[ast.AST]:
    """Every node of a tree, listed once for all the rules (walking a tree is most of a rule's time;
    the trees live in _parsed's cache, so their ids stay theirs)."""
    nodes = _WALKED.get(id(tree))
    if nodes is None or nodes[0] is not tree:
        nodes = _WALKED[id(tree)] = list(ast.walk(tree))
    return nodes


def module_name(relative: str) -> str:
    parts = relative.removesuffix(".py").split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_of(relative: str) -> list[str]:
    """The package a relative import in `relative` starts from, as its parts."""
    parts = module_name(relative).split(".")
    return parts if relative.endswith("__init__.py") else parts[:-1]


def imported(root: Path, relative: str, tree: ast.Module) -> Iterator[tuple[str, int]]:
    """Every module `relative` imports, absolute (relative imports resolved), with its line: the
    module an import statement names, or the modules it takes from a package (`from . import x`)."""
    package = package_of(relative)
    for node in walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            target = ".".join([*base, node.module] if node.module else base)
            taken = [f"{target}.{alias.name}" for alias in node.names if is_module(root, f"{target}.{alias.name}")]
            yield from ((name, node.lineno) for name in taken or [target])


def is_module(root: Path, name: str) -> bool:
    path = root / name.replace(".", "/")
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


# ---- the rules ------------------------------------------------------------------------------


def model_imports_no_qt(root: Path) -> list[str]:
    """model/ imports no Qt, in any of its packages."""
    return [
        f"{path}:{line}: imports {name}"
        for path, tree in modules(root, "pibrowser/model")
        for name, line in imported(root, path, tree)
        if name.split(".")[0] in ("PySide6", "shiboken6", "PyQt5", "PyQt6")
    ]


def layers_point_down(root: Path) -> list[str]:
    """model/ imports nothing above it; ui/ never imports cli/; model/'s packages import only those before them."""
    rank = {name: place for place, name in enumerate(MODEL_ORDER)}
    found = []
    for path, tree in modules(root):
        here = module_name(path)
        for name, line in imported(root, path, tree):
            if not within(name, "pibrowser") or name == "pibrowser" or name.startswith("pibrowser.__"):
                continue
            if within(here, "pibrowser.ui") and within(name, "pibrowser.cli"):
                found.append(f"{path}:{line}: ui/ imports {name}")
            elif within(here, "pibrowser.model") and not within(name, "pibrowser.model"):
                found.append(f"{path}:{line}: model/ imports {name}")
            elif within(here, "pibrowser.model") and within(name, "pibrowser.model"):
                mine, theirs = here.split(".")[2:3], name.split(".")[2:3]
                if mine and theirs and mine[0] in rank and theirs[0] in rank and rank[theirs[0]] > rank[mine[0]]:
                    found.append(f"{path}:{line}: model/{mine[0]} imports {name}, which comes after it")
                elif mine and theirs and (mine[0] not in rank or theirs[0] not in rank):
                    found.append(f"{path}:{line}: model/{(set(mine + theirs) - set(rank)).pop()} has no place in MODEL_ORDER")
    return found


def cards_are_one_part(root: Path) -> list[str]:
    """ui/cards imports none of the views that show cards (only ui/common, style, control and model/);
    the rest of pibrowser/ imports it through its package's face, never its modules."""
    found = []
    for path, tree in modules(root):
        here = module_name(path)
        for name, line in imported(root, path, tree):
            if not within(name, "pibrowser") or name == "pibrowser":
                continue
            if within(here, CARDS) and not within(name, CARDS) and not any(within(name, allowed) for allowed in CARDS_IMPORT):
                found.append(f"{path}:{line}: the cards import {name}")
            elif not within(here, CARDS) and within(name, CARDS) and name != CARDS:
                found.append(f"{path}:{line}: imports {name}, not the cards' face ({CARDS})")
    return found


def model_opens_files_in_one_place(root: Path) -> list[str]:
    """Under model/, only the regular-file opener and the writers open a file: every other reader
    goes through the scanner (lines.scan_lines on an open_regular file)."""
    found = []
    for path, tree in modules(root, "pibrowser/model"):
        if path.startswith(OPENERS):
            continue
        for node in walk(tree):
            if not isinstance(node, ast.Call):
                continue
            function = node.func
            name = function.id if isinstance(function, ast.Name) else function.attr if isinstance(function, ast.Attribute) else ""
            if name in ("open", "read_bytes", "read_text"):
                found.append(f"{path}:{node.lineno}: calls {name}()")
    return found


def one_header_parser(root: Path) -> list[str]:
    """A session's header is recognised in one place, session/header.py: no other module defines
    its own header test or parser."""
    found = []
    for path, tree in modules(root, "pibrowser/model"):
        if path == HEADER_HOME:
            continue
        for node in walk(tree):
            if (
                isinstance(node, ast.FunctionDef)
                and "header" in node.name.lower()
                and node.name.lstrip("_").startswith(("is_", "find", "parse", "read"))
            ):
                found.append(f"{path}: defines {node.name}")
    return found


def one_state_signal(root: Path) -> list[str]:
    """The controller says what changed in the workspace with one signal, `changed(Change)`;
    its others say how a load goes."""
    tree = ast.parse((root / CONTROLLER).read_text(encoding="utf-8"))
    signals = {
        target.id
        for node in walk(tree)
        if isinstance(node, ast.ClassDef)
        for statement in node.body
        if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call)
        if isinstance(statement.value.func, ast.Name) and statement.value.func.id == "Signal"
        for target in statement.targets
        if isinstance(target, ast.Name)
    }
    return [f"{CONTROLLER}: signal {name}" for name in sorted(signals - CONTROLLER_SIGNALS)] + [
        f"{CONTROLLER}: no signal {name}" for name in sorted(CONTROLLER_SIGNALS - signals)
    ]


def new_lines_enter_one_way(root: Path) -> list[str]:
    """New lines enter a session one way: the workspace's follow and append read pi's appends
    (read_appended; a label's write catches up with pi inside Workspace.append), and only
    following appends links them (Session.extend)."""
    found = []
    for path, tree in modules(root, "pibrowser"):
        for node in walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr if isinstance(node.func, ast.Attribute) else ""
            if name == "read_appended" and path not in APPENDS_READ:
                found.append(f"{path}:{node.lineno}: reads pi's appends itself")
            elif (
                name == "extend" and any(keyword.arg == "read" for keyword in node.keywords) and path != "pibrowser/model/session/follow.py"
            ):
                found.append(f"{path}:{node.lineno}: links appended entries itself")
    return found


def session_text_is_never_markup(root: Path) -> list[str]:
    """Session text is data: under ui/, text is taken as markup (rich text, HTML, markdown) only
    where MARKUP says why that is safe."""
    found = []
    for path, tree in modules(root, "pibrowser/ui"):
        if path in MARKUP:
            continue
        for node in walk(tree):
            name = node.attr if isinstance(node, ast.Attribute) else ""
            if name in ("RichText", "setHtml", "insertHtml", "setMarkdown", "toHtml"):
                found.append(f"{path}:{node.lineno}: {name}")
    return found


def every_module_says_what_it_is(root: Path) -> list[str]:
    """Every module opens with a docstring saying what it is for (a package's: what it owns)."""
    return [f"{path}: no docstring" for path, tree in modules(root) if ast.get_docstring(tree) is None]


def loggers_are_named_for_their_module(root: Path) -> list[str]:
    """Every module logs to logging.getLogger(__name__); only the log file's setup names pibrowser's root logger."""
    found = []
    for path, tree in modules(root):
        if path == "pibrowser/log_file.py":
            continue
        for node in walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "getLogger":
                if not (len(node.args) == 1 and isinstance(node.args[0], ast.Name) and node.args[0].id == "__name__"):
                    found.append(f"{path}:{node.lineno}: a logger not named __name__")
    return found


def imports_resolve(root: Path) -> list[str]:
    """Every import of our own code, in pibrowser/ and in the tests, names a module that is there, the ones inside functions too (a
    module moved leaves no import that only fails when its function first runs)."""
    found = []
    for path, tree in [*modules(root), *modules(root, "tests")]:
        package = package_of(path)
        for node in walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level:
                if node.level > len(package):
                    found.append(f"{path}:{node.lineno}: imports from above pibrowser/")
                    continue
                target = ".".join([*package[: len(package) - node.level + 1], *([node.module] if node.module else [])])
            elif isinstance(node, ast.ImportFrom) and within(node.module or "", "pibrowser") and not node.level:
                target = node.module or ""
            elif isinstance(node, ast.Import):
                target = next((alias.name for alias in node.names if within(alias.name, "pibrowser")), "")
                if not target:
                    continue
            else:
                continue
            if not is_module(root, target):
                found.append(f"{path}:{node.lineno}: imports {target}, which is not there")
    return found


def fixed_waits_in_tests(root: Path) -> list[str]:
    """GUI tests wait with waitSignal / waitUntil, never a fixed time (qtbot.wait(ms), time.sleep);
    the suite reads only the repository (never the shared folder beside it)."""
    found = []
    for path, tree in modules(root, "tests"):
        if path == "tests/test_tidy.py":
            continue  # its planted breaches are text, not code it runs
        for node in walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                owner = node.func.value
                owner_name = owner.id if isinstance(owner, ast.Name) else ""
                if (owner_name, node.func.attr) in (("qtbot", "wait"), ("time", "sleep"), ("QTest", "qWait")):
                    found.append(f"{path}:{node.lineno}: a fixed wait ({owner_name}.{node.func.attr})")
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and "../shared" in node.value:
                found.append(f"{path}:{node.lineno}: reads the shared folder")
    return found


def no_import_circles_in_ui(root: Path) -> list[str]:
    """No module of ui/ imports, even for typing only, a module that imports it back (through any
    others): a part that names its owner cannot be read or tested without it."""
    import networkx as nx

    graph = nx.DiGraph()
    for path, tree in modules(root, "pibrowser/ui"):
        here = module_name(path)
        graph.add_node(here, path=path)
        graph.add_edges_from((here, name) for name, _ in imported(root, path, tree) if within(name, "pibrowser.ui") and name != here)
    found = []
    for circle in nx.strongly_connected_components(graph):
        if len(circle) > 1:
            first, *others = sorted(circle)
            found.append(f"{graph.nodes[first].get('path', first)}: in an import circle with {', '.join(others)}")
    return sorted(found)


RULES: dict[str, Rule] = {
    "model_imports_no_qt": model_imports_no_qt,
    "layers_point_down": layers_point_down,
    "cards_are_one_part": cards_are_one_part,
    "model_opens_files_in_one_place": model_opens_files_in_one_place,
    "one_header_parser": one_header_parser,
    "one_state_signal": one_state_signal,
    "new_lines_enter_one_way": new_lines_enter_one_way,
    "session_text_is_never_markup": session_text_is_never_markup,
    "every_module_says_what_it_is": every_module_says_what_it_is,
    "loggers_are_named_for_their_module": loggers_are_named_for_their_module,
    "fixed_waits_in_tests": fixed_waits_in_tests,
    "imports_resolve": imports_resolve,
    "no_import_circles_in_ui": no_import_circles_in_ui,
}


# ---- the tests ------------------------------------------------------------------------------


@pytest.mark.parametrize("rule", sorted(RULES))
def test_the_code_keeps_the_rule(rule):
    known = EXCEPTIONS.get(rule, {})
    found = RULES[rule](ROOT)
    assert [breach for breach in found if breach not in known] == [], RULES[rule].__doc__
    assert [exception for exception in known if exception not in found] == [], "mended: take it off EXCEPTIONS"


def plant(tmp_path: Path, files: dict[str, str]) -> Path:
    """A copy of the rules' world: a clean controller and a clean module, then `files` over them."""
    base = {
        CONTROLLER: '"""The controller."""\nclass C:\n' + "".join(f"    {name} = Signal()\n" for name in sorted(CONTROLLER_SIGNALS)),
        "pibrowser/model/session/entry.py": '"""An entry."""\n',
        "tests/test_x.py": '"""A test."""\n',
    }
    for relative, text in {**base, **files}.items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(text)
    return tmp_path


PLANTED = {
    "model_imports_no_qt": {"pibrowser/model/fold/deep/part.py": '"""x"""\nfrom PySide6.QtCore import QObject\n'},
    "layers_point_down": {"pibrowser/ui/tree/view.py": '"""x"""\nfrom ...cli.main import main\n'},
    "cards_are_one_part": {"pibrowser/ui/cards/row_menu.py": '"""x"""\nfrom ..context.message_menu import card_menu\n'},
    "model_opens_files_in_one_place": {"pibrowser/model/library/reader.py": '"""x"""\ndef f(p):\n    return p.read_bytes()\n'},
    "one_header_parser": {"pibrowser/model/library/scan.py": '"""x"""\ndef _is_header(value):\n    return True\n'},
    "one_state_signal": {
        CONTROLLER: '"""x"""\nclass C:\n' + "".join(f"    {n} = Signal()\n" for n in sorted(CONTROLLER_SIGNALS | {"workedAhead"}))
    },
    "new_lines_enter_one_way": {
        "pibrowser/ui/control/tail.py": '"""x"""\nfrom ...model.session.follow import read_appended\nread_appended(s)\n'
    },
    "session_text_is_never_markup": {"pibrowser/ui/trace/tip.py": '"""x"""\nlabel.setTextFormat(Qt.TextFormat.RichText)\n'},
    "every_module_says_what_it_is": {"pibrowser/ui/common/bare.py": "x = 1\n"},
    "loggers_are_named_for_their_module": {"pibrowser/model/text/x.py": '"""x"""\nimport logging\nlog = logging.getLogger("pibrowser")\n'},
    "fixed_waits_in_tests": {"tests/ui/test_y.py": '"""x"""\ndef test_y(qtbot):\n    qtbot.wait(500)\n'},
    "imports_resolve": {"pibrowser/model/session/moved.py": '"""x"""\ndef f():\n    from .gone import g\n'},
    "no_import_circles_in_ui": {
        "pibrowser/ui/tree/part.py": '"""x"""\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .view import View\n',
        "pibrowser/ui/tree/view.py": '"""x"""\nfrom .part import Part\n',
    },
}


@pytest.mark.parametrize("rule", sorted(RULES))
def test_the_rule_finds_a_planted_breach(tmp_path, rule):
    assert RULES[rule](plant(tmp_path, {})) == []  # the clean world keeps it
    found = RULES[rule](plant(tmp_path, PLANTED[rule]))
    assert len(found) == 1 and found[0].startswith(next(iter(PLANTED[rule]))), found


def test_model_packages_out_of_order_are_found(tmp_path):
    planted = {"pibrowser/model/js/value.py": '"""x"""\nfrom ..fold.spine import Spine\n'}
    assert layers_point_down(plant(tmp_path, planted)) == [
        "pibrowser/model/js/value.py:2: model/js imports pibrowser.model.fold.spine, which comes after it"
    ]
