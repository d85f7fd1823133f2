"""The session as a networkx graph: the Python API, `pibrowser graph` in four formats, read back by networkx."""

import io
import json
import subprocess
import sys

import networkx as nx
import orjson
import pytest
from networkx.readwrite import json_graph

import pibrowser
from pibrowser.cli.graph_command import write_graph
from pibrowser.cli.main import main
from pibrowser.model import Session
from pibrowser.model.context.resolve import entry_messages
from pibrowser.model.graph import session_graph
from pibrowser.model.tokens.message_tokens import estimate_messages_tokens

from .conftest import DEMO, fixture_names, session_file
from .hostile import LOADABLE, make
from .sessions import chain, entry, message, write

READERS = {
    "graphml": nx.read_graphml,
    "gexf": nx.read_gexf,
    "gml": nx.read_gml,
    "json": lambda data: json_graph.node_link_graph(json.loads(data.read()), edges="edges"),  # lone surrogates too
}


def tree_edges(session: Session) -> set[tuple[str, str]]:
    return {(parent, child) for parent, children in session.children_by_parent.items() for child in children}


def graph_output(capsysbinary, path, kind: str) -> bytes:
    assert main(["graph", str(path), "--format", kind]) == 0
    return capsysbinary.readouterr().out


@pytest.mark.parametrize("name", fixture_names() + ["demo-session"])
def test_graphml_reads_back_as_the_sessions_entries_and_tree(name):
    # The session read once: the ids of a v1 file are made up at each reading, as pi does.
    session = Session.load(session_file(name), lazy=False)
    out = io.BytesIO()
    write_graph(session_graph(session), "graphml", out)
    graph = nx.read_graphml(io.BytesIO(out.getvalue()))
    assert set(graph.nodes) == set(session.entries)
    assert set(graph.edges) == tree_edges(session)
    assert graph.graph["path"] == str(session.path)


@pytest.mark.parametrize("kind", ["graphml", "gexf", "gml", "json"])
def test_every_format_keeps_the_nodes_edges_and_attributes(capsysbinary, kind):
    opened = pibrowser.open_session(DEMO)
    graph = READERS[kind](io.BytesIO(graph_output(capsysbinary, DEMO, kind)))
    assert set(graph.nodes) == set(opened.graph.nodes) and set(graph.edges) == set(opened.graph.edges)
    label = "pi_label" if kind == "gml" else "label"  # GML names its nodes by `label`
    for key, data in opened.graph.nodes(data=True):
        read = dict(graph.nodes[key])
        if kind == "gexf":
            read.pop("id", None)  # GEXF gives every node its label, the id when it has none
            if "label" not in data:
                assert read.pop("label") == key
        assert read == {(label if name == "label" else name): value for name, value in data.items()}


def test_the_graph_says_what_each_entry_is():
    opened = pibrowser.open_session(DEMO)
    session, graph = opened.session, opened.graph
    assert isinstance(graph, nx.DiGraph) and set(graph.edges) == tree_edges(session)
    assert graph.graph == {"path": str(DEMO), "name": session.name, "leaf": session.leaf_id}
    for key, data in graph.nodes(data=True):
        entry = session.entries[key]
        assert data["type"] == entry.type and data["time"] == entry.timestamp and data["line"] == entry.line
        assert data.get("role") == (entry.role if entry.type == "message" else None)
        assert data.get("label") == session.labels.get(key)
        assert data["tokens"] == estimate_messages_tokens(entry_messages(entry))
        assert all(isinstance(value, (str, int, float)) for value in data.values())
    assert any("input_tokens" in data for _, data in graph.nodes(data=True))
    assert any("label" in data for _, data in graph.nodes(data=True))
    leaf = session.leaf_id
    assert opened.context().to_pi() == opened.context(leaf).to_pi() and opened.path == DEMO


def test_odd_values_are_left_out_or_written_as_the_formats_hold_them(tmp_path, capsysbinary):
    path = write(
        tmp_path / "odd.jsonl",
        *chain(2),
        message("ctl\x01id", "m1", "user", "hello", second=5),
        # A lone surrogate, as JSON may hold it (no UTF-8 does).
        orjson.dumps(entry("label", "l1", "ctl\x01id", 6, targetId="ctl\x01id", label="bell\x07 and LONE")).replace(
            b"LONE", b"\\ud800 lone"
        ),
        entry("label", "l2", "l1", 7, targetId="m0", label=5),  # a label that is not a string
        message("half", "l2", "assistant", [{"type": "text", "text": "ok"}], second=8, usage={"input": 1.5, "output": 1}),
        message("whole", "half", "assistant", [{"type": "text", "text": "ok"}], second=9, usage={"input": 2, "output": 1}),
    )
    graph = pibrowser.open_session(path).graph
    assert graph.nodes["ctl\x01id"]["label"] == "bell\x07 and \ud800 lone" and graph.nodes["m0"]["label"] == "5"
    assert graph.nodes["half"]["input_tokens"] == 1.5 and graph.nodes["whole"]["input_tokens"] == 2
    for kind in ("graphml", "gexf"):
        read = READERS[kind](io.BytesIO(graph_output(capsysbinary, path, kind)))
        assert "ctl\\u0001id" in read.nodes and read.nodes["ctl\\u0001id"]["label"] == "bell\\u0007 and \\ud800 lone"
        assert read.nodes["whole"]["input_tokens"] == 2 and read.nodes["half"]["input_tokens"] == 1.5
    for kind in ("gml", "json"):  # these hold any text as it is
        read = READERS[kind](io.BytesIO(graph_output(capsysbinary, path, kind)))
        assert set(read.nodes) == set(graph.nodes)


@pytest.mark.parametrize("name", sorted(LOADABLE - {"huge_line"}))
def test_broken_files_give_a_graph_every_format_reads_back(tmp_path, capsysbinary, name):
    path = make(tmp_path, name)
    session = Session.load(path, lazy=False)
    for kind, read in READERS.items():
        graph = read(io.BytesIO(graph_output(capsysbinary, path, kind)))
        assert graph.number_of_nodes() == len(session.entries), kind
        assert graph.number_of_edges() == len(tree_edges(session)), kind
    tree = nx.DiGraph(tree_edges(session))
    tree.add_nodes_from(session.entries)
    keys = list(session.entries)[:10]
    assert all(session.common_ancestor(a, b) == nx.lowest_common_ancestor(tree, a, b) for a in keys for b in keys)


def test_the_window_never_builds_a_graph_to_compare():
    code = (
        "import sys\n"
        "from pibrowser.model import Session\n"
        "from pibrowser.model.compare.comparison import compare\n"
        f"session = Session.load({str(session_file('generated-s5'))!r})\n"
        "leaf = session.leaf_id\n"
        "other = next(key for key in session.leaves() if session.common_ancestor(key, leaf) not in (None, key, leaf))\n"
        "comparison = compare(session, other, leaf)\n"
        "print(comparison.common_ancestor is not None, 'networkx' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert result.stdout == b"True False\n", result.stderr.decode()


def test_a_graph_format_unknown_to_the_command_is_refused(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["graph", str(DEMO), "--format", "dot"])
    assert stopped.value.code == 2 and "invalid choice: 'dot'" in capsys.readouterr().err


@pytest.mark.parametrize("name", fixture_names() + ["demo-session"])
def test_the_common_ancestor_walk_agrees_with_networkx(name):
    session = Session.load(session_file(name))
    graph = nx.DiGraph(tree_edges(session))
    graph.add_nodes_from(session.entries)
    leaves = session.leaves()[:12]
    for left in leaves:
        for right in leaves:
            assert session.common_ancestor(left, right) == nx.lowest_common_ancestor(graph, left, right), (left, right)


def test_xml_formats_keep_ids_xml_cannot_hold_apart_and_type_every_number_once(tmp_path, capsysbinary):
    from pibrowser.cli.graph_command import xml_unescape

    # Ids that differ only in characters XML cannot hold, one that looks like their escape, and usage
    # figures beyond 64 bits and mixed whole and fractional.
    ids = ["x\x01", "x\x02", "x\\u0001", "y\ud800"]
    items = [message(key, None, "user", "hi", second=index) for index, key in enumerate(ids)]
    huge = message("huge", ids[0], "assistant", [{"type": "text", "text": "ok"}], second=8, usage={"input": 1e300, "output": 1})
    half = message("half", "huge", "assistant", [{"type": "text", "text": "ok"}], second=9, usage={"input": 1.5, "output": 1})
    whole = message("whole", "half", "assistant", [{"type": "text", "text": "ok"}], second=10, usage={"input": 2, "output": 1})
    lines = [*items[:-1], orjson.dumps({**items[-1], "id": "Y"}).replace(b'"Y"', b'"y\\ud800"')]  # a lone surrogate, as JSON holds it
    path = write(tmp_path / "xml.jsonl", *lines, huge, half, whole)
    assert set(Session.load(path).entries) == {*ids, "huge", "half", "whole"}
    for kind in ("graphml", "gexf"):
        data = graph_output(capsysbinary, path, kind)
        read = READERS[kind](io.BytesIO(data))
        assert {xml_unescape(node) for node in read.nodes} == {*ids, "huge", "half", "whole"}, kind
        assert read.graph.get("escaped") or kind == "gexf"
        assert read.nodes["huge"]["input_tokens"] == 1e300 and read.nodes["whole"]["input_tokens"] == 2, kind
        assert read.nodes["half"]["input_tokens"] == 1.5
        assert read.number_of_edges() == 3
    graphml = graph_output(capsysbinary, path, "graphml").decode()
    keys = [line for line in graphml.splitlines() if "<key " in line and 'attr.name="input_tokens"' in line]
    assert len(keys) == 1 and 'attr.type="double"' in keys[0], keys
