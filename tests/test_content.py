"""The one walker of message content (model.content), on the shapes a hand-edited file can hold."""

from __future__ import annotations

import pytest

from pibrowser.model.session.content import (
    BlockKind,
    ContentShape,
    block_kind,
    blocks,
    content_shape,
    first_text,
    has_text,
    image_count,
    texts,
    tool_calls,
)
from pibrowser.model.js.value import MISSING

CALL = {"type": "toolCall", "id": "c1", "name": "bash", "arguments": {}}
MIXED = [
    {"type": "thinking", "thinking": "hm"},
    {"type": "text", "text": 5},  # a text that is not a string
    {"type": "text", "text": "first"},
    CALL,
    {"type": "image", "data": "AAAA", "mimeType": "image/png"},
    {"type": "video"},
    {"type": 7},
    {"text": "no type"},
    "a bare string",
    None,
    {"type": "text", "text": "second"},
]


@pytest.mark.parametrize(
    "content, shape",
    [
        ("hi", ContentShape.STRING),
        ("", ContentShape.STRING),
        ([], ContentShape.BLOCKS),
        (MIXED, ContentShape.BLOCKS),
        (None, ContentShape.NONE),
        (MISSING, ContentShape.NONE),
        (5, ContentShape.VALUE),
        ({"text": "x"}, ContentShape.VALUE),
    ],
)
def test_content_shape(content, shape):
    assert content_shape(content) is shape


def test_every_item_of_a_list_gets_a_kind():
    assert [kind for kind, _ in blocks(MIXED)] == [
        BlockKind.THINKING,
        BlockKind.TEXT,
        BlockKind.TEXT,
        BlockKind.TOOL_CALL,
        BlockKind.IMAGE,
        BlockKind.OTHER,
        BlockKind.OTHER,
        BlockKind.OTHER,
        BlockKind.VALUE,
        BlockKind.VALUE,
        BlockKind.TEXT,
    ]
    assert block_kind({"type": ["text"]}) is BlockKind.OTHER  # an unhashable type is no known kind


@pytest.mark.parametrize("content", ["text", None, MISSING, 3, {"type": "text", "text": "x"}])
def test_only_a_list_has_blocks(content):
    assert list(blocks(content)) == []


def test_texts_are_string_content_or_string_texts_of_text_blocks():
    assert list(texts("whole")) == ["whole"]
    assert list(texts(MIXED)) == ["first", "second"]
    assert first_text(MIXED) == "first"
    assert first_text([CALL]) is None
    assert first_text(None) is None


@pytest.mark.parametrize(
    "content, expected",
    [
        ("x", True),
        ("  \n", False),
        ("\u3000", False),
        ([{"type": "text", "text": " a "}], True),
        ([{"type": "text", "text": "\ufeff"}], False),
        ([CALL], False),
        ([{"type": "thinking", "thinking": "deep"}], False),
        (MIXED, True),
        (None, False),
        (7, False),
    ],
)
def test_has_text_is_pis_has_text_content(content, expected):
    assert has_text(content) is expected


def test_tool_calls_and_images_are_counted_from_blocks_only():
    assert list(tool_calls(MIXED)) == [CALL]
    assert list(tool_calls("→ bash")) == []
    assert image_count(MIXED) == 1
    assert image_count([{"type": "image"}] * 3) == 3
    assert image_count("image") == 0
