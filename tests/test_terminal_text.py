"""Text output never drives the terminal: control characters from a session are shown, not obeyed."""

import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pibrowser.cli.main import main
from pibrowser.model import Session
from pibrowser.model.text.describe import LABEL_WIDTH, short_label
from pibrowser.model.text.terminal_text import _HIDDEN, _stand_in, one_line, pad, padded, table_lines, visible, visible_line, visible_lines

from .conftest import examples
from .hostile import LONG_LABEL, NASTY, make

# What must never reach the terminal raw: C0 but tab and newline, DEL, C1, bidi controls.
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def test_every_control_character_gets_a_visible_stand_in():
    assert visible("a\x1b[2Jb") == "a\u241b[2Jb"
    assert visible("\x00\x07\x08\r\x7f") == "\u2400\u2407\u2408\u240d\u2421"
    assert visible("\x9b31m\x85") == "\\x9b31m\\x85"
    assert visible("abc\u202edef\u2066\u2069") == "abc\\u202edef\\u2066\\u2069"
    assert visible("line\n\tindented · 配置 🙂 é") == "line\n\tindented · 配置 🙂 é"
    assert visible_line("a\nb\tc") == "a\u240ab\u2409c"
    for code in [*range(0x20), *range(0x7F, 0xA0), 0x202A, 0x202E, 0x2066, 0x2069, 0x200E, 0x200F, 0x061C]:
        shown = visible_line(chr(code))
        assert not RAW.search(shown) and "\n" not in shown and "\t" not in shown


@given(st.text(st.sampled_from("ab \n\t·é\xa0\xff\x00\x1b\x7f\x85\x9f\u202e配🙂")))
def test_text_of_any_width_shows_what_the_rule_shows(text):
    # Text of Latin-1 characters is checked in C first; whatever it holds, the answer is the rule's.
    assert visible(text) == _HIDDEN.sub(_stand_in, text)


@pytest.mark.parametrize(
    "args",
    [
        ["context"],
        ["context", "--format", "text", "--all"],
        ["context", "--format", "markdown", "--all"],
        ["tree"],
        ["tree", "--format", "text"],
    ],
    ids=lambda args: "-".join(args),
)
def test_text_output_of_a_hostile_session_holds_no_raw_control_character(tmp_path, capsys, args):
    path = make(tmp_path, "control_characters")
    if args[0] == "context" and "--format" not in args:
        args = [*args, "--format", "text"]
    assert main([args[0], str(path), *args[1:]]) == 0
    out, err = capsys.readouterr()
    assert not RAW.search(out), RAW.search(out)
    assert not RAW.search(err)
    assert "\u241b[2J" in out and "\u241b]0;pwned\u2407" in out


def test_each_tree_node_stays_on_one_line_with_its_label_shortened(tmp_path, capsys):
    path = make(tmp_path, "control_characters")
    session = Session.load(path)
    assert main(["tree", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(list(session.walk()))  # an id with a newline does not split its node
    node = next(line for line in lines if "a\u240a1 " in line)
    shown = short_label(LONG_LABEL)
    assert f"[{visible_line(shown)}]" in node
    assert len(shown) == LABEL_WIDTH and shown.endswith("…") and NASTY not in node


def test_problems_and_errors_on_stderr_are_shown_not_obeyed(tmp_path, capsys):
    path = tmp_path / "s\x1b]0;title\x07.jsonl"  # file names are text from outside too
    path.write_bytes(
        make(tmp_path, "control_characters").read_bytes()
        + b'{"type":"label","id":"x","parentId":"u3","timestamp":"t","targetId":"\\u001b[2Jghost"}\n'
    )
    assert main(["tree", str(path)]) == 0
    err = capsys.readouterr().err
    assert "ghost" in err and not RAW.search(err)
    assert main(["context", str(path), "--leaf", "no\x1b[2Jsuch"]) == 1
    err = capsys.readouterr().err
    assert err.splitlines()[-1].startswith("pibrowser: ") and "no entry with id" in err and not RAW.search(err)


def test_every_command_names_a_hostile_path_visibly(tmp_path, capsys):
    missing = tmp_path / "no\x1b[2Jsuch\x9b"
    for args in (["sessions", str(missing)], ["search", "x", str(missing)], ["tree", str(missing)], ["label", str(missing), "m1", "x"]):
        assert main(args) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "no\u241b[2Jsuch\\x9b" in err and not RAW.search(err), (args, err)


def test_timeline_csv_shows_control_characters_in_ids(tmp_path, capsys):
    path = make(tmp_path, "control_characters")
    session = Session.load(path)
    assert main(["timeline", str(path), "--format", "csv"]) == 0  # to the current leaf, whose id holds half an emoji
    out, err = capsys.readouterr()
    assert not RAW.search(out) and not RAW.search(err)
    assert len(out.splitlines()) == 1 + len(session.path_to(session.leaf_id))
    assert "r\u241b[2J" in out


def test_extract_prints_the_new_path_visibly(tmp_path, capsys):
    path = make(tmp_path, "control_characters")
    folder = tmp_path / "out\x1b]0;pwned\x07\x9b"
    assert main(["extract", str(path), "u2", "--output", str(folder)]) == 0
    out, err = capsys.readouterr()
    assert not RAW.search(out) and not RAW.search(err)
    [written] = folder.iterdir()
    assert out == visible_line(str(written)) + "\n"


# ---- what is left as it is, told in C (one_line, padded, visible): the same as the whole rules say -----

# Characters the rules treat apart: controls and escapes, every kind of white space, bidi marks,
# wide and narrow non-ASCII, a lone surrogate, and the "|" padded joins cells with.
TRICKY = st.text(
    st.sampled_from(list(" ab|%\x1b[]0;\x07\x00\t\n\r\x0b\x85\xa0\u1680\u2000\u2028\u3000\u200e\u202e é…→中🙂\ud800")) | st.characters(),
    max_size=12,
)


def test_every_kind_of_character_alone_and_between_words_is_one_line_as_the_whole_rule_makes_it():
    # One character of each kind the rules can tell apart (its category, and whether it is space,
    # printable or starts an escape), the first and the last of its kind. A NUL at the end takes
    # one_line the whole way (it is shown as white space, and dropped at the end).
    kinds: dict[tuple, list[str]] = {}
    for code in range(0x110000):
        char = chr(code)
        kinds.setdefault((unicodedata.category(char), char.isspace(), char.isprintable(), char in "\x1b\x9b"), []).append(char)
    assert len(kinds) > 30
    for chars in kinds.values():
        for char in (chars[0], chars[-1]):
            for text in (char, f"a{char}b", f"{char} ", f" {char}"):
                assert one_line(text) == one_line(text + "\x00"), hex(ord(char))


@settings(max_examples=examples(2000), deadline=None)
@given(TRICKY, st.integers(0, 14))
def test_text_is_one_line_as_the_whole_rule_makes_it(text, limit):
    assert one_line(text) == one_line(text + "\x00")
    assert one_line(text, limit) == one_line(text + "\x00", limit)


@settings(max_examples=examples(2000), deadline=None)
@given(st.lists(st.tuples(TRICKY, st.integers(0, 8)), min_size=1, max_size=6))
def test_a_row_is_padded_as_each_cell_would_be(cells):
    texts, widths = [text for text, _ in cells], tuple(width for _, width in cells)
    assert padded(texts, widths) == "  ".join(pad(one_line(text, width), width) for text, width in cells)


PLAIN = st.text(st.sampled_from(list("ab |%é→ ")), max_size=6)  # mostly rows the batch tells at once


@settings(max_examples=examples(1000), deadline=None)
@given(st.integers(1, 4).flatmap(lambda size: st.tuples(
    st.lists(st.integers(0, 6), min_size=size, max_size=size),
    st.lists(st.lists(PLAIN | TRICKY, min_size=size + 1, max_size=size + 1), max_size=5),
)))  # fmt: skip
def test_the_lines_of_a_table_are_each_row_padded_but_the_last_cell_on_one_line(table):
    widths, rows = table
    widths = tuple(widths)
    assert table_lines(rows, widths) == [(padded(row[:-1], widths) + "  " + one_line(row[-1])).rstrip() for row in rows]


def test_a_table_of_plain_rows_is_laid_out_whole_and_a_row_that_does_not_fit_cell_by_cell():
    rows = [["ab", "c", "x → y"], ["abcd", "c", "z"], ["a", "", ""]]
    assert table_lines(rows, (3, 2)) == ["ab   c   x → y", "ab…  c   z", "a"]


def test_a_row_of_plain_cells_that_fit_is_laid_out_whole_and_one_that_does_not_fit_is_cut():
    assert padded(["ab", "c", "%s"], (3, 2, 2)) == "ab   c   %s"
    assert padded(["abcd", "c"], (3, 2)) == "ab…  c "
    assert padded(["a  b", " c"], (4, 2)) == "a b   c "


@settings(max_examples=examples(2000), deadline=None)
@given(TRICKY)
def test_text_is_visible_as_the_whole_rule_makes_it(text):
    # A NUL at the end takes visible the whole way (it is shown as ␀).
    assert visible(text) == visible(text + "\x00")[:-1]
    assert visible(text + "→") == visible(text + "→\x00")[:-1]


@pytest.mark.parametrize(
    "texts",
    [
        [],
        ["plain", "ids e1 e2", "中文 → …"],
        ["no\u00a0break space", "\u2007 and \u3000"],  # white space Python does not print, and nothing to show
        ["a", "new\nline", "b"],
        ["tab\there", "esc \x1b[2J", "c1 \x85", "bidi \u202e", "lone \ud800"],
    ],
)
def test_visible_lines_is_visible_line_of_each(texts):
    assert visible_lines(texts) == [visible_line(text) for text in texts]
