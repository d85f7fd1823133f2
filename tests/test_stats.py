"""Token estimates and usage totals, checked against numbers worked out by hand from the fixtures."""

import math

import pytest

from pibrowser.model import Session, resolve
from pibrowser.model.fold import path_fold
from pibrowser.model.fold.path_fold import PathFold
from pibrowser.model.fold.spine import Spine
from pibrowser.model.tokens.context_estimate import estimate_context_tokens, projected_context_tokens
from pibrowser.model.js.stringify import js_stringify, json_number
from pibrowser.model.js.value import js_length
from pibrowser.model.tokens.stats import context_stats
from pibrowser.model.context.system_prompt import current_system_message
from pibrowser.model.tokens.message_tokens import ESTIMATED_IMAGE_CHARS, estimate_tokens
from pibrowser.model.tokens.usage import path_usage

from .conftest import DEMO, FIXTURES
from .sessions import message, write


@pytest.fixture(scope="module")
def blog():
    return Session.load(FIXTURES / "blog-example.jsonl")


@pytest.fixture(scope="module")
def demo():
    return Session.load(DEMO)


# ---- JavaScript lengths and JSON.stringify ------------------------------------------------


def test_js_length_counts_utf16_code_units():
    assert js_length("abc") == 3
    assert js_length("配置") == 2  # BMP: one unit each
    assert js_length("😀") == 2  # astral: a surrogate pair
    assert js_length("a😀b") == 4


@pytest.mark.parametrize(
    "value, text",
    [
        (1.0, "1"),
        (0.1, "0.1"),
        (-2.5, "-2.5"),
        (1e21, "1e+21"),
        (1.5e20, "150000000000000000000"),
        (1e-7, "1e-7"),
        (0.000001, "0.000001"),
        (12345678901234567890, "12345678901234567000"),
        (0.0, "0"),
    ],
)
def test_js_number_matches_javascript(value, text):
    assert json_number(value) == text


def test_js_stringify_matches_javascript():
    assert js_stringify({"path": "src/a.js"}) == '{"path":"src/a.js"}'
    assert js_stringify([1, 2.0, None, True]) == "[1,2,null,true]"
    # Array-index keys come first in a JavaScript object.
    assert js_stringify({"b": 1, "2": 2, "a": 3, "1": 4}) == '{"1":4,"2":2,"b":1,"a":3}'
    assert js_stringify('a"b\n\x01') == '"a\\"b\\n\\u0001"'
    assert js_stringify("\ud800") == '"\\ud800"'
    assert js_stringify(math.nan) == "null"
    assert js_stringify("配") == '"配"'  # not escaped, as JSON.stringify leaves it


# ---- estimateTokens, role by role ------------------------------------------------------------


def test_user_text_and_images():
    assert estimate_tokens({"role": "user", "content": "abcde"}) == 2  # ceil(5/4)
    assert estimate_tokens({"role": "user", "content": "😀😀😀"}) == 2  # 6 code units
    image = {"type": "image", "data": "x" * 10_000_000, "mimeType": "image/png"}
    # An image counts 4800 chars however large its data.
    assert estimate_tokens({"role": "user", "content": [{"type": "text", "text": "abc"}, image]}) == math.ceil((3 + 4800) / 4)
    assert ESTIMATED_IMAGE_CHARS == 4800


def test_assistant_counts_text_thinking_and_tool_calls_but_not_images():
    message = {
        "role": "assistant",
        "content": [
            {"type": "text", "text": "12345678"},  # 8
            {"type": "thinking", "thinking": "1234"},  # 4
            {"type": "toolCall", "id": "c1", "name": "read", "arguments": {"path": "a"}},  # 4 + len('{"path":"a"}') = 4 + 12
            {"type": "image", "data": "xx", "mimeType": "image/png"},  # not counted for assistants
        ],
    }
    assert estimate_tokens(message) == math.ceil((8 + 4 + 4 + 12) / 4)  # 28 → 7


def test_other_roles():
    assert estimate_tokens({"role": "bashExecution", "command": "ls -la", "output": "a\nb"}) == math.ceil((6 + 3) / 4)
    assert estimate_tokens({"role": "compactionSummary", "summary": "x" * 9, "tokensBefore": 1}) == 3
    assert estimate_tokens({"role": "branchSummary", "summary": "x" * 8, "fromId": "a"}) == 2
    assert estimate_tokens({"role": "toolResult", "content": [{"type": "text", "text": "x" * 5}]}) == 2
    assert estimate_tokens({"role": "custom", "customType": "n", "content": "x" * 4}) == 1
    system = {"role": "system", "content": "x" * 3, "sections": {"a": "x" * 4, "b": None}, "toolsAdded": [{"name": "t"}]}
    assert estimate_tokens(system) == math.ceil((3 + 4 + len('[{"name":"t"}]')) / 4)  # 21 → 6
    assert estimate_tokens({"role": "somethingNew", "content": "x" * 100}) == 0


def test_malformed_messages_count_what_is_there():
    assert estimate_tokens({"role": "assistant", "content": "a string, not blocks"}) == 0  # pi iterates characters
    assert estimate_tokens({"role": "bashExecution", "command": "ls"}) == 1
    assert estimate_tokens({"role": "user"}) == 0
    assert estimate_tokens("not a message") == 0


def test_demo_tool_call_and_image_result(demo):
    # d1f0de86: thinking (206 ASCII chars) + text "That smells like … the list component." (116)
    # + read {"path":"src/components/TaskList.js"}
    call = demo.entries["d1f0de86"].message
    thinking = call["content"][0]["thinking"]
    text = call["content"][1]["text"]
    assert (len(thinking), len(text)) == (206, 116)
    # '{"path":"src/components/TaskList.js"}' is 37 characters; "read" 4.
    assert estimate_tokens(call) == math.ceil((206 + 116 + 4 + 37) / 4) == 91
    # e5e70f51: "Read image file [image/png]" (27) and one image (4800).
    assert estimate_tokens(demo.entries["e5e70f51"].message) == math.ceil((27 + 4800) / 4) == 1207


# ---- whole contexts ---------------------------------------------------------------------------


def test_blog_example_leaf(blog):
    # compaction e12 first: its systemMessage "你是一个编程助手。" (9 → 3) and the summary (21 → 6),
    # kept e5 "我读取了配置文件。" (9 → 3), e8 custom "扩展注入的上下文" (8 → 2), then
    # branch summary e13 (17 → 5).
    stats = context_stats(resolve(blog, "e13"))
    assert stats.messages == 5
    assert stats.message_tokens == [3, 6, 3, 2, 5]
    assert stats.estimated_tokens == 19
    # The usage of e5 came before the compaction, so pi does not trust it.
    assert stats.pi_estimate.last_usage_index is None
    assert stats.pi_estimate.tokens == 19


def test_blog_example_before_the_edit_trusts_the_last_usage(blog):
    # At e8: e3 system (3), e4 "读取配置文件" (6 → 2), e5 (3), e8 (2).
    context = resolve(blog, "e8")
    stats = context_stats(context)
    assert stats.message_tokens == [3, 2, 3, 2]
    # e5's usage (totalTokens 15) is trusted; e8 (2) comes after it.
    assert stats.pi_estimate.tokens == 15 + 2
    assert stats.pi_estimate.usage_tokens == 15
    assert stats.pi_estimate.last_usage_index == 2


def test_blog_example_edit_invalidates_the_usage(blog):
    # At e11 the context_edit comes after e5, so everything is chars/4 again;
    # e4 now reads "检查项目配置文件" (8 → 2).
    stats = context_stats(resolve(blog, "e11"))
    assert stats.message_tokens == [3, 2, 3, 2]
    assert stats.pi_estimate.last_usage_index is None
    assert stats.pi_estimate.tokens == 10


def test_usage_skips_aborted_and_error_replies():
    ok = {"role": "assistant", "content": [], "usage": {"totalTokens": 100}, "stopReason": "stop"}
    bad = {"role": "assistant", "content": [], "usage": {"totalTokens": 900}, "stopReason": "error"}
    after = {"role": "user", "content": "x" * 8}
    estimate = estimate_context_tokens([ok, bad, after])
    assert (estimate.tokens, estimate.usage_tokens, estimate.trailing_tokens, estimate.last_usage_index) == (100 + 0 + 2, 100, 2, 0)
    # Without totalTokens, the four counts are added.
    assert (
        estimate_context_tokens(
            [{"role": "assistant", "content": [], "usage": {"input": 1, "output": 2, "cacheRead": 3, "cacheWrite": 4}}]
        ).tokens
        == 10
    )


def test_system_messages_fold_into_one():
    first = {"role": "system", "content": "ab", "sections": {"x": "1234"}, "timestamp": 5}
    second = {
        "role": "system",
        "content": [{"type": "text", "text": "cd"}],
        "sections": {"x": None, "y": "zz"},
        "toolsAdded": [{"name": "t"}],
    }
    folded = current_system_message([first, {"role": "user", "content": "u"}, second])
    assert folded == {"role": "system", "content": "ab\n\ncd", "sections": {"y": "zz"}, "toolsAdded": [{"name": "t"}], "timestamp": 5}


def test_a_system_messages_text_is_its_content_then_its_sections_as_pi_renders_it():
    from pibrowser.model.context.system_prompt import system_message_text
    from pibrowser.model.text.transcript import message_body

    message = {"role": "system", "content": "", "sections": {"preamble": "You are pi.", "gone": None, "empty": "", "tools": "<tools>"}}
    assert system_message_text(message) == "You are pi.\n\n<tools>"  # pi-ai's getSystemMessageText
    assert message_body(message) == "You are pi.\n\n<tools>"  # what a transcript and a card's Copy Text give
    blocks = {"role": "system", "content": [{"type": "text", "text": "a"}, {"type": "image"}, {"type": "text", "text": "b"}]}
    assert system_message_text(blocks) == "a\nb"


def test_projected_estimate_at_the_demo_leaf(demo):
    context = resolve(demo, demo.leaf_id)
    estimate = projected_context_tokens(context)
    # The last reply (5c753be3) came after the compaction and the edits: its usage stands.
    assert estimate.last_usage_index == len(context.messages) - 1
    assert estimate.usage_tokens == 6896
    assert estimate.tokens == 6896


# ---- usage and cost on a path -----------------------------------------------------------------


def test_usage_of_two_replies(demo):
    # d1f0de86: in 5, out 194, cache 2786/835, $0.00689205; 753cca39: in 4, out 84, cache 3606/381, $0.00378255.
    usage = path_usage(resolve(demo, "753cca39").path)
    total = usage.total
    assert (total.input, total.output, total.cache_read, total.cache_write, total.records) == (9, 278, 6392, 1216, 2)
    assert total.tokens == 9 + 278 + 6392 + 1216
    assert total.cost == pytest.approx(0.00689205 + 0.00378255)
    assert usage.assistant.records == 2 and usage.usage_entries.records == 0 and usage.other.records == 0
    assert set(usage.by_model) == {"anthropic/claude-sonnet-4-5"}


def test_usage_entries_and_summaries_count(demo):
    # The branch summary 2d94e732 records its own usage: in 3, out 187, cache write 4810, $0.0208515.
    usage = path_usage(resolve(demo, "2d94e732").path)
    assert (usage.other.input, usage.other.output, usage.other.cache_write, usage.other.records) == (3, 187, 4810, 1)
    assert usage.other.cost == pytest.approx(0.0208515)
    assert "Tools/summaries" in usage.by_model
    # The cache-warming usage entry 5397fd0f: out 1, cache write 6397, $0.02400375.
    warm = path_usage(resolve(demo, "5397fd0f").path).usage_entries
    assert (warm.input, warm.output, warm.cache_write, warm.records) == (0, 1, 6397, 1)
    assert warm.cost == pytest.approx(0.02400375)


def test_blog_example_usage(blog):
    # e5 (assistant) and e6 (usage entry) each record in 10, out 5, $0.
    usage = path_usage(resolve(blog, "e13").path)
    assert (usage.total.input, usage.total.output, usage.total.cost, usage.total.records) == (20, 10, 0, 2)
    assert (usage.assistant.records, usage.usage_entries.records) == (1, 1)
    assert path_usage(resolve(blog, "e4").path).total.records == 0


@pytest.mark.parametrize("name", ["generated-s3", "generated-s5", "legacy-v1", "blog-example"])
def test_usage_read_from_raw_lines_equals_usage_from_parsed_lines(name):
    # Lazily loaded lines give their usage from the raw bytes; it must equal a full parse.
    path = FIXTURES / f"{name}.jsonl"
    lazy, strict = Session.load(path), Session.load(path, lazy=False)
    # Migrating a v1 file mints fresh ids on every load, so pair the two loads by file position.
    lazy_id = {s.id: z.id for s, z in zip(strict.file_order, lazy.file_order, strict=True)}
    leaves = list(strict.leaves())
    assert leaves
    for leaf in leaves:
        fast = path_usage([lazy.entries[key] for key in lazy.path_to(lazy_id[leaf])])
        full = path_usage([strict.entries[key] for key in strict.path_to(leaf)])
        assert fast == full, leaf


def test_usage_from_raw_lines_on_the_demo_session():
    path = DEMO
    lazy, strict = Session.load(path), Session.load(path, lazy=False)
    leaf = strict.leaf_id
    fast = path_usage([lazy.entries[key] for key in lazy.path_to(leaf)])
    assert fast == path_usage([strict.entries[key] for key in strict.path_to(leaf)])
    assert fast.assistant.records > 10 and fast.total.cost > 0
    # Most assistant lines were settled without parsing them.
    assert sum(not lazy.entries[key].is_parsed for key in lazy.path_to(leaf) if lazy.entries[key].role == "assistant") > 5


def test_usage_sums_as_javascript_numbers(tmp_path):
    # pi adds usage in doubles: past 2**53 a count rounds (to even), as Python's integers would not.
    items = [
        message("a", None, "assistant", [], 0, provider="p", model="m", usage={"input": 2**53 + 2, "cost": {"total": 2**53 + 2}}),
        message("b", "a", "assistant", [], 1, provider="p", model="m", usage={"input": 9, "cost": {"total": 9}}),
    ]
    session = Session.load(write(tmp_path / "s.jsonl", *items))
    total = path_usage(session.path_entries("b")).total
    assert total.input == total.cost == 9007199254741004.0 and total.records == 2


@pytest.mark.parametrize("name", ["generated-s5", "blog-example"])
def test_at_selection_time_only_edited_messages_are_estimated(name, monkeypatch):
    session = Session.load(FIXTURES / f"{name}.jsonl")  # lazy: entries are read back from the file
    fold = PathFold(session)
    fold.fold_spine()
    counted = []
    monkeypatch.setattr(path_fold, "estimate_tokens", lambda message: counted.append(message) or estimate_tokens(message))
    for leaf in session.leaves():
        context = fold.context(leaf)
        several = sum(len(item.messages) for item in context.entries if item.edit is not None or len(item.messages) > 1)
        counted.clear()
        stats = fold.stats(leaf, context)
        assert stats.message_tokens == [estimate_tokens(message) for message in context.messages], leaf
        assert len(counted) == several, leaf  # the rest come from the fold


def test_a_stopped_fold_resumes_where_it_stopped(monkeypatch):
    monkeypatch.setattr(Spine, "ASK_EVERY", 4)
    session = Session.load(FIXTURES / "generated-s5.jsonl")
    fold = PathFold(session)
    asked = []
    assert not fold.fold_spine(stop=lambda: asked.append(1) or len(asked) > 1)
    assert 0 < fold.spine.folded < fold.spine.end and fold.figures(session.leaf_id) is None
    paced = []
    assert fold.fold_spine(pace=lambda: paced.append(1))
    assert paced and fold.spine.folded == fold.spine.end
    whole = PathFold(session)
    whole.fold_spine()
    assert fold.rows(session.leaf_id) == whole.rows(session.leaf_id)


def test_a_tool_result_that_records_usage_counts_when_loaded_lazily(tmp_path):
    usage = {"input": 7, "output": 2, "cacheRead": 0, "cacheWrite": 0, "cost": {"total": 0.5}}
    items = [
        message("u", None, "user", "hi"),
        message("a", "u", "assistant", [{"type": "toolCall", "id": "c1", "name": "ls", "arguments": {}}], 1, provider="p", model="m"),
        message("r1", "a", "toolResult", [{"type": "text", "text": "x"}], 2, toolCallId="c1", usage=usage),
        message("r2", "r1", "toolResult", [{"type": "text", "text": "y"}], 3, toolCallId="c1"),
    ]
    path = write(tmp_path / "s.jsonl", *items)
    lazy, strict = Session.load(path), Session.load(path, lazy=False)
    assert lazy.entries["r2"].records_no_usage and not lazy.entries["r1"].records_no_usage
    fast, full = (path_usage(session.path_entries("r2")) for session in (lazy, strict))
    assert fast == full and fast.other.records == 1 and fast.other.input == 7
