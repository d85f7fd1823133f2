"""Random trees and random corruptions: loading never raises, every context terminates."""

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import examples

from pibrowser.model import Session, SessionLoadError, resolve

from .consistency import check_session, check_validation
from .sessions import HEADER

KINDS = [
    "message",
    "compaction",
    "context_edit",
    "branch_summary",
    "label",
    "model_change",
    "thinking_level_change",
    "custom_message",
    "weird",
]
ROLES = ["user", "assistant", "toolResult", "system", "custom", "bashExecution", None]


@st.composite
def sessions(draw):
    count = draw(st.integers(1, 40))
    ids = [f"e{i}" for i in range(count)]
    lines = [orjson.dumps(HEADER)]
    for key in ids:
        # Parents anywhere (cycles, self-parents, forward references) or missing.
        parent = draw(st.one_of(st.none(), st.sampled_from(ids), st.just("ghost")))
        kind = draw(st.sampled_from(KINDS))
        target = draw(st.sampled_from(ids + ["ghost"]))
        item = {
            "type": kind,
            "id": draw(st.sampled_from([key, key, key, ids[0]])),
            "parentId": parent,
            "timestamp": draw(st.sampled_from(["2026-10-30T09:00:00.000Z", "2026-10-30T09:00:01.000Z", "bad", None])),
        }
        if kind == "message":
            item["message"] = {
                "role": draw(st.sampled_from(ROLES)),
                "content": draw(st.sampled_from(["t", None, [{"type": "text", "text": "x"}], 5])),
            }
        elif kind == "compaction":
            item.update(
                summary="s",
                firstKeptEntryId=target,
                tokensBefore=1,
                systemMessage=draw(st.sampled_from([None, {"role": "system", "content": "p"}])),
            )
        elif kind == "context_edit":
            item.update(
                targetId=target,
                replacement=draw(st.sampled_from([None, {"content": "r"}, {"content": [{"type": "text", "text": "r"}]}, "odd"])),
            )
        elif kind == "label":
            item.update(targetId=target, label=draw(st.sampled_from(["a", "", None])))
        elif kind == "branch_summary":
            item.update(fromId=target, summary=draw(st.sampled_from(["", "went"])))
        lines.append(orjson.dumps(item))
    # Corruptions: cut a line short, insert garbage, drop the final newline.
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(1, len(lines) - 1)) if len(lines) > 1 else 0
        corruption = draw(st.sampled_from(["cut", "garbage", "binary", "blank"]))
        if corruption == "cut" and at:
            lines[at] = lines[at][: draw(st.integers(0, len(lines[at])))]
        elif corruption == "garbage":
            lines.insert(at + 1, b"not json {")
        elif corruption == "binary":
            lines.insert(at + 1, bytes(draw(st.lists(st.integers(0, 255), max_size=20))))
        else:
            lines.insert(at + 1, b"   ")
    return b"\n".join(lines) + draw(st.sampled_from([b"\n", b""]))


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=sessions())
def test_loading_never_raises_and_every_context_terminates(tmp_path, data):
    path = tmp_path / "s.jsonl"
    path.write_bytes(data)
    for lazy in (True, False):
        try:
            session = Session.load(path, lazy=lazy)
        except SessionLoadError:
            continue
        check_session(session, strict=not lazy)
    assert path.read_bytes() == data


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=sessions())
def test_lazy_loading_agrees_with_strict_loading_once_validated(tmp_path, data):
    path = tmp_path / "s.jsonl"
    path.write_bytes(data)
    try:
        strict = Session.load(path, lazy=False)
    except SessionLoadError:
        return
    lazy = Session.load(path)
    invalid = check_validation(lazy, strict=False)
    if invalid:
        return  # the app reloads strictly in this case
    assert list(lazy.entries) == list(strict.entries)
    assert lazy.labels == strict.labels and lazy.leaf_id == strict.leaf_id
    for key in strict.entries:
        assert orjson.dumps(resolve(lazy, key).to_pi(), default=str) == orjson.dumps(resolve(strict, key).to_pi(), default=str)
