"""Search inside text written without spaces (Chinese, Japanese, Korean): issue 25, item 3.

FTS5's tokenizer makes one token of an unbroken run of such characters, so "开始工作"
found nothing in "请立刻开始工作". Each such character is now a token of its own and a
term of them a phrase: any substring matches, one and two characters included, while
words in other scripts are still matched whole.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pibrowser.model.library.search_index import MARK_END, MARK_START, SearchIndex
from pibrowser.model.library.search_query import UNSPACED, spaced_out, unspaced

from .sessions import linked, write


@pytest.fixture
def found(tmp_path):
    folder = tmp_path / "sessions"
    folder.mkdir()
    texts = [
        "请立刻开始工作",
        "今日は東京で会議があります。カタカナも",
        "用pytest运行测试 and the parser",
        "한국어로 검색합니다",
        "工作工作工作",  # the same word three times in a short text: the best hit for it
        "这是一段很长的说明文字，其中只有一次提到了工作，其余都是别的内容，" * 8,
        "开。始",  # punctuation between: a phrase skips it, as FTS5 phrases of words do
    ]
    write(folder / "s.jsonl", *linked([{"role": "user", "content": text, "timestamp": 1} for text in texts]))
    index = SearchIndex(tmp_path / "index.sqlite3")

    def search(query: str) -> list[tuple[str, str]]:
        index.sync(folder)
        return [(hit.entry, hit.marked) for hit in index.search(query, folder)]

    yield search
    index.close()


def entries(hits):
    return [entry for entry, _ in hits]


@pytest.mark.parametrize(
    "query, expected",
    [
        ("开始工作", {"e0"}),
        ("刻", {"e0"}),  # one character
        ("开始", {"e0", "e6"}),  # two
        ("東京", {"e1"}),
        ("カタカナ", {"e1"}),
        ("会議 東京", {"e1"}),  # both terms, any order
        ("运行测试", {"e2"}),
        ("pytest", {"e2"}),  # a word that touches Chinese characters is still a word
        ("검색", {"e3"}),
        ("工作", {"e0", "e4", "e5"}),
        ('"开始工作"', {"e0"}),
        ("作开", set()),  # not side by side anywhere
    ],
)
def test_text_without_spaces_is_searched_by_substring(found, query, expected):
    assert set(entries(found(query))) == expected


def test_words_in_other_scripts_are_still_whole_words(found):
    assert entries(found("parser")) == ["e2"]
    assert entries(found("pars")) == []
    assert entries(found("test")) == []  # part of "pytest"


def test_the_best_hit_comes_first_and_its_words_are_marked(found):
    hits = found("工作")
    assert hits[0][0] == "e4"  # three times in a short text, before once in a long one
    assert hits[-1][0] == "e5"
    marked = dict(hits)["e0"]
    assert marked == f"请立刻开始{MARK_START}工作{MARK_END}"
    assert dict(found("pytest"))["e2"].startswith(f"用{MARK_START}pytest{MARK_END}运行")


@given(st.text(alphabet=st.sampled_from(list("ab 1_.\n\t\u3000。开始工作カ한")), max_size=40))
def test_the_index_gives_back_the_text_as_written(text):
    # The index keeps only the spaced-out text; snippets are made from the text as written.
    spaced = spaced_out(text)
    assert unspaced(spaced) == text
    assert all(len(token) == 1 for token in spaced.split() if re.search(f"[{UNSPACED}]", token))
