"""The headless CLI: output formats, exit codes, messages; it never imports Qt."""

import csv
import io
import json
import subprocess
import sys

import orjson
import pytest

from .cli_run import run as in_process
from .conftest import FIXTURES
from .sessions import chain, message, write


def run(*args, check_rc=None):
    result = in_process(*args)
    if check_rc is not None:
        assert result.returncode == check_rc, result.stderr.decode()
    return result


def test_context_json_default_leaf_equals_pi():
    expected = json.loads((FIXTURES / "generated-s4.expected.json").read_text())
    result = run("context", FIXTURES / "generated-s4.jsonl", check_rc=0)
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    got = orjson.loads(lines[0])
    assert got.pop("leaf") == expected["leaf"]
    assert got == expected["contexts"]["__default__"]


def test_context_all_is_every_entry_in_file_order_and_equals_pi():
    expected = json.loads((FIXTURES / "generated-s3.expected.json").read_text())
    result = run("context", FIXTURES / "generated-s3.jsonl", "--all", check_rc=0)
    rows = [orjson.loads(line) for line in result.stdout.splitlines()]
    file_ids = [orjson.loads(line)["id"] for line in (FIXTURES / "generated-s3.jsonl").read_bytes().splitlines()[1:] if line.strip()]
    assert [row["leaf"] for row in rows] == file_ids
    for row in rows:
        assert {k: v for k, v in row.items() if k != "leaf"} == expected["contexts"][row["leaf"]]


def test_context_several_leaves_and_text_formats():
    leaves = list(json.loads((FIXTURES / "blog-example.expected.json").read_text())["contexts"])[1:3]
    result = run("context", FIXTURES / "blog-example.jsonl", *[arg for leaf in leaves for arg in ("--leaf", leaf)], check_rc=0)
    assert [orjson.loads(line)["leaf"] for line in result.stdout.splitlines()] == leaves
    text = run("context", FIXTURES / "blog-example.jsonl", "--format", "text", check_rc=0).stdout.decode()
    assert "compactionSummary [e12]" in text and "我读取了配置文件。" in text
    markdown = run("context", FIXTURES / "blog-example.jsonl", "--format", "markdown", check_rc=0).stdout.decode()
    assert markdown.startswith("# Context at e13") and "## assistant [e5]" in markdown


def test_tree_json_matches_fixture_and_text_marks_leaf():
    expected = json.loads((FIXTURES / "generated-s5.expected.json").read_text())
    got = orjson.loads(run("tree", FIXTURES / "generated-s5.jsonl", "--format", "json", check_rc=0).stdout)
    assert got == {key: expected[key] for key in ("leaf", "name", "labels", "tree")}
    text = run("tree", FIXTURES / "blog-example.jsonl", check_rc=0).stdout.decode()
    assert "e13 branch summary" in text and "← leaf" in text and "[读取配置]" in text


def test_tree_says_what_only_checking_every_line_finds_and_shows_the_same_tree(tmp_path):
    # The line looks as pi writes it, so loading only skims it: the check of every line finds the repair.
    bad = b'{"type":"message","id":"u8","parentId":"m1","timestamp":"2026-10-30T09:00:05.000Z","message":{"role":"user","content":"bad \xff","timestamp":5}}'
    path = write(tmp_path / "s.jsonl", *chain(2), bad)
    for form in ("text", "json"):
        result = run("tree", path, "--format", form, check_rc=0)
        assert result.stderr.decode() == f"{path}:4: invalid UTF-8 replaced with U+FFFD\n"
    assert run("tree", path, check_rc=0).stdout.decode().splitlines()[-1] == "u8 user: bad \ufffd  ← leaf"


def test_label_command_appends_and_prints_id(fixture_copy):
    path = fixture_copy("blog-example")
    before = path.read_bytes()
    result = run("label", path, "e5", "good answer", check_rc=0)
    new_id = result.stdout.decode().strip()
    assert path.read_bytes().startswith(before)
    tree = orjson.loads(run("tree", path, "--format", "json", check_rc=0).stdout)
    assert tree["labels"]["e5"] == "good answer" and tree["leaf"] == new_id
    run("label", path, "e5", check_rc=0)
    assert "e5" not in orjson.loads(run("tree", path, "--format", "json").stdout)["labels"]


def test_problems_go_to_stderr_with_file_and_line(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(2)[:1], b"{broken", chain(2)[1])
    result = run("context", path, check_rc=0)
    assert result.stderr.decode().strip() == f"{path}:3: skipped: not valid JSON ({result.stderr.decode().split('(', 1)[1].split(')')[0]})"
    assert orjson.loads(result.stdout)["leaf"] == "m1"


@pytest.mark.parametrize(
    "args, message",
    [
        (("context", "missing.jsonl"), "missing.jsonl: no such file"),
        (("context", "{dir}"), "is a folder"),
        (("context", "{bad}"), "not a pi session"),
        (("context", "{good}", "--leaf", "nope"), "no entry with id 'nope'"),
        (("label", "{good}", "nope", "x"), "no entry with id 'nope'"),
    ],
)
def test_unloadable_input_exits_1_with_one_line(tmp_path, args, message):
    good = write(tmp_path / "good.jsonl", *chain(2))
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type":"message"}\n')
    args = [str(a).format(dir=tmp_path, bad=bad, good=good) for a in args]
    result = subprocess.run([sys.executable, "-m", "pibrowser", *args], capture_output=True, cwd=tmp_path, timeout=60)
    err = result.stderr.decode()
    assert result.returncode == 1
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_bad_usage_exits_2():
    assert run("context").returncode == 2
    assert run("context", "x.jsonl", "--format", "yaml").returncode == 2
    assert run("tree").returncode == 2


def modules_loaded_by(*commands):
    """The modules a fresh process has imported once it has run these pibrowser commands (argument lists)."""
    code = (
        "import io, sys; from pibrowser.cli.main import main; sys.stdout = io.TextIOWrapper(io.BytesIO()); "
        f"[main(arguments) for arguments in {[[str(argument) for argument in command] for command in commands]!r}]; "
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert result.returncode == 0, result.stderr.decode()
    return set(result.stderr.decode().split())


def modules_loaded_by_context(session_file):
    """The top-level modules a fresh `pibrowser context FILE` has imported once it is done."""
    return {name.split(".")[0] for name in modules_loaded_by(["context", session_file])}


def test_cli_does_not_import_qt():
    assert not modules_loaded_by_context(FIXTURES / "blog-example.jsonl") & {"PySide6", "shiboken6"}


def test_context_of_a_clean_file_builds_no_graph():
    # networkx alone costs 0.1 s to import; the context of a leaf needs only its path.
    assert "networkx" not in modules_loaded_by_context(FIXTURES / "generated-s5.jsonl")


def test_tree_of_a_clean_file_loads_no_session():
    # A clean file's tree, text or JSON, is read in the one pass of its index (IndexTree): no Session is built.
    path = FIXTURES / "generated-s5.jsonl"
    assert "pibrowser.model.session.session" not in modules_loaded_by(["tree", path], ["tree", path, "--format", "json"])


# ---- diff ----------------------------------------------------------------------


def pi_messages(name: str) -> dict[str, bytes]:
    """pi's own JSON line for every entry's context, by entry id."""
    lines = (FIXTURES / f"{name}.pi-all.ndjson").read_bytes().splitlines()
    return {orjson.loads(line)["leaf"]: line for line in lines}


def diff_json(*args):
    result = run("diff", *args, check_rc=0)
    assert result.stdout.count(b"\n") == 1
    return result.stdout


# Tokens: pi's estimateTokens summed over each side's messages, as pi 1.6.0 computed them.
@pytest.mark.parametrize(
    ("left", "right", "ancestor", "tokens"),
    [
        ("fc7d839c", "7281b673", "dc585f13", (29, 133)),  # an edit on the right only
        ("fc7d839c", "04438454", "dc585f13", (50, 287)),  # a compaction on the right only
        ("4b29d61e", "7c4e26cc", "4b29d61e", (0, 48)),  # the left is the right's ancestor
        ("22f1a692", "7c4e26cc", "4b29d61e", (1270, 65)),  # content replaced by an edit on the left
    ],
)
def test_diff_json_holds_pis_messages_after_the_shared_ones(left, right, ancestor, tokens):
    out = diff_json(FIXTURES / "generated-s3.jsonl", left, right)
    got = orjson.loads(out)
    assert list(got) == ["ancestor", "shared", "left", "right", "left_tokens", "right_tokens"]
    assert got["ancestor"] == ancestor
    pi = pi_messages("generated-s3")
    for side, key in (("left", left), ("right", right)):
        messages = orjson.loads(pi[key])["messages"]
        assert got[side] == messages[got["shared"] :]
        # Byte for byte: the side's array, brackets aside, is a slice of pi's own line.
        after = {"left": b',"right":', "right": b',"left_tokens":'}[side]
        array = out.split(f'"{side}":'.encode(), 1)[1].split(after, 1)[0]
        assert array[1:-1] in pi[key]
    assert (got["left_tokens"], got["right_tokens"]) == tokens


def test_diff_of_two_roots_with_the_same_first_words(tmp_path):
    path = write(
        tmp_path / "roots.jsonl",
        *[
            {"type": "message", "id": key, "parentId": parent, "timestamp": f"2026-10-30T09:0{minute}:00.000Z", "message": body}
            for key, parent, minute, body in (
                ("r1", None, 0, {"role": "user", "content": "Fix the parser", "timestamp": 1793350800000}),
                (
                    "a1",
                    "r1",
                    1,
                    {
                        "role": "assistant",
                        "content": [{"type": "text", "text": "Tabs fixed."}],
                        "provider": "p",
                        "model": "m",
                        "timestamp": 1793350860000,
                    },
                ),
                ("r2", None, 2, {"role": "user", "content": "Fix the parser", "timestamp": 1793350920000}),
                (
                    "a2",
                    "r2",
                    3,
                    {
                        "role": "assistant",
                        "content": [{"type": "text", "text": "Spaces fixed."}],
                        "provider": "p",
                        "model": "m",
                        "timestamp": 1793350980000,
                    },
                ),
            )
        ],
    )
    got = orjson.loads(diff_json(path, "a1", "a2"))
    assert got["ancestor"] is None and got["shared"] == 1
    assert [m["content"][0]["text"] for m in got["left"]] == ["Tabs fixed."]
    assert got["left_tokens"] == 3 and got["right_tokens"] == 4
    text = run("diff", path, "a1", "a2", "--format", "text", check_rc=0).stdout.decode()
    assert "no common ancestor (separate roots); 1 shared message" in text
    assert "= #1 ↔ #1 user [r1|r2]  (same text, other time)" in text
    assert "~     [-Tabs-]{+Spaces+} fixed." in text


def test_diff_text_marks_compaction_and_edit_causes():
    text = run("diff", FIXTURES / "generated-s3.jsonl", "fc7d839c", "7281b673", "--format", "text", check_rc=0).stdout.decode()
    lines = text.splitlines()
    assert lines[0].startswith(
        "--- left fc7d839c: 3 messages · ≈50 tokens · $0.0157 recorded · model deepseek/deepseek-flash · thinking off"
    )
    assert lines[1].startswith("+++ right 7281b673: 9 messages")
    assert lines[2].startswith("@@ fork point dc585f13; 1 shared message")
    assert "- #2 user [dc585f13]  (dropped by edit 2df6da9c on the right)" in lines
    text = run("diff", FIXTURES / "generated-s3.jsonl", "fc7d839c", "04438454", "--format", "text", check_rc=0).stdout.decode()
    assert "- #2 user [dc585f13]  (summarized by compaction 04438454 on the right)" in text.splitlines()
    assert "+ #2 compactionSummary [04438454]  (checkpoint of compaction 04438454 on the right)" in text.splitlines()


def test_diff_text_is_terminal_safe(tmp_path):
    items = chain(2)
    items.append(
        {
            **items[1],
            "id": "evil",
            "message": {**items[1]["message"], "content": [{"type": "text", "text": "\x1b]0;pwned\x07red \x1b[31mtext\x1b[0m\x08"}]},
        }
    )
    path = write(tmp_path / "evil.jsonl", *items)
    out = run("diff", path, "m1", "evil", "--format", "text", check_rc=0).stdout
    assert b"\x1b" not in out and b"\x07" not in out and b"\x08" not in out
    assert "red text␈".encode() in out


def test_diff_unknown_id_exits_1_with_one_line():
    result = run("diff", FIXTURES / "generated-s3.jsonl", "fc7d839c", "nope")
    assert result.returncode == 1 and result.stdout == b""
    assert result.stderr.decode().splitlines() == [f"pibrowser: {FIXTURES / 'generated-s3.jsonl'}: no entry with id 'nope'"]


def test_extract_prints_the_new_file_and_leaves_the_original(tmp_path):
    original = FIXTURES / "generated-s4.jsonl"
    before = original.read_bytes()
    leaf = json.loads((FIXTURES / "generated-s4.expected.json").read_text())["leaf"]
    result = run("extract", original, leaf, "--output", tmp_path / "out", check_rc=0)
    written = result.stdout.decode().strip()
    assert [str(path) for path in (tmp_path / "out").iterdir()] == [written]
    header = orjson.loads(open(written, "rb").readline())
    assert header["parentSession"] == str(original)
    assert original.read_bytes() == before


@pytest.mark.parametrize(
    ("node", "output", "message"),
    [
        ("nope", None, "no entry with id 'nope'"),
        ("2e0557bd", None, "nothing written: the branch to 2e0557bd holds no user or assistant message yet"),
        ("bf6921a1", "blocker/sub", "cannot write the new session here"),
    ],
)
def test_extract_failures_exit_1_with_one_line_and_write_nothing(tmp_path, node, output, message):
    (tmp_path / "blocker").write_text("")
    extra = ["--output", tmp_path / output] if output else ["--output", tmp_path / "out"]
    result = run("extract", FIXTURES / "generated-s1.jsonl", node, *extra, check_rc=1)
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 1 and message in lines[0], lines
    assert result.stdout == b""
    assert [path.name for path in tmp_path.iterdir()] == ["blocker"]


def test_timeline_json_is_one_array_of_pis_estimates():
    estimates = json.loads((FIXTURES / "generated-s5.estimates.json").read_text())
    leaf = json.loads((FIXTURES / "generated-s5.expected.json").read_text())["leaf"]
    result = run("timeline", FIXTURES / "generated-s5.jsonl", check_rc=0)
    assert result.stdout.count(b"\n") == 1
    rows = orjson.loads(result.stdout)
    assert rows[-1]["id"] == leaf and rows[0]["type"]
    assert all(list(row) == ["id", "type", "tokens_estimate", "input_tokens", "compaction"] for row in rows)
    assert {row["id"]: row["tokens_estimate"] for row in rows} == {row["id"]: estimates[row["id"]] for row in rows}
    assert any(row["compaction"] for row in rows) and any(row["input_tokens"] is None for row in rows)


def test_timeline_csv_for_a_chosen_leaf():
    result = run("timeline", FIXTURES / "blog-example.jsonl", "--leaf", "e8", "--format", "csv", check_rc=0)
    lines = result.stdout.decode().splitlines()
    assert lines[0] == "id,type,tokens_estimate,input_tokens,compaction"
    assert lines[1:] == [
        "e1,model_change,0,,false",
        "e2,thinking_level_change,0,,false",
        "e3,message,3,,false",
        "e4,message,5,,false",
        "e5,message,15,10,false",
        "e6,usage,15,,false",
        "e7,custom,15,,false",
        "e8,custom_message,17,,false",
    ]


def test_timeline_unknown_leaf_exits_1_with_one_line():
    result = run("timeline", FIXTURES / "blog-example.jsonl", "--leaf", "zz", check_rc=1)
    assert result.stderr.decode().splitlines() == [f"pibrowser: {FIXTURES / 'blog-example.jsonl'}: no entry with id 'zz'"]


def test_text_transcript_writes_tool_arguments_as_json_stringify_does(tmp_path):
    call = {"type": "toolCall", "id": "c1", "name": "read", "arguments": {"b": 2.0, "1": 4.1e-6, "n": 1e16}}
    session = write(tmp_path / "s.jsonl", message("u", None, "user", "go"), message("a", "u", "assistant", [call], second=1))
    text = run("context", session, "--format", "text", check_rc=0).stdout.decode()
    assert '→ read({"1":0.0000041,"b":2,"n":10000000000000000}) [c1]' in text


def test_timeline_csv_cells_never_start_a_formula(tmp_path):
    # A spreadsheet runs a cell starting with =, +, -, @ (or a tab or CR first) as a formula.
    starts = ["=HYPERLINK(1)", "+1+1", "-2", "@SUM(1)", "\tx", "\ry"]
    items = [message(key, starts[index - 1] if index else None, "user", second=index) for index, key in enumerate(starts)]
    items.append({**message("t", starts[-1], "user", second=9), "type": "=1+1"})
    path = write(tmp_path / "formulas.jsonl", *items)
    out = run("timeline", path, "--format", "csv", check_rc=0).stdout.decode()
    rows = list(csv.reader(io.StringIO(out)))[1:]
    assert [row[0] for row in rows] == ["'" + key.replace("\r", "\u240d") for key in starts] + ["t"]  # CR shown as ␍
    assert rows[-1][1] == "'=1+1"
    assert not [cell for row in rows for cell in row if cell[:1] in ("=", "+", "-", "@", "\t", "\r", "\u240d")]
