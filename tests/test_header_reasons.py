"""Messages that say what is wrong (issue 25, item 5): a file pi refuses names the line and its fault.

pi checks two fields of the first JSON value (`type === "session"`, a string `id`) and skips
lines that are blank, do not parse, or parse to null, false, 0 or "".
"""

from __future__ import annotations

import pytest

from pibrowser.model import Session
from pibrowser.model.session.problems import SessionLoadError


@pytest.mark.parametrize(
    "data, reason",
    [
        (b'{"type":"session","cwd":"/w"}\n', "line 1, its first JSON line, is a session header without an id"),
        (b'{"type":"session","id":5}\n', "line 1, its first JSON line, is a session header whose id is a number, not a string"),
        (b'{"type":"sessio","id":"x"}\n', 'line 1, its first JSON line, has type "sessio", where a session header has type "session"'),
        (b'{"id":"x"}\n', 'line 1, its first JSON line, has no type, where a session header has type "session"'),
        (b"garbage\n\n7\n", "line 3, its first JSON line, is a number, not a session header"),
        (b"null\n0\n", 'its only JSON values are null, false, 0 or "", which pi skips'),
        (b"not json\n", "no line parses as JSON"),
    ],
)
def test_a_refused_file_says_what_is_wrong_with_it(tmp_path, data, reason):
    path = tmp_path / "s.jsonl"
    path.write_bytes(data)
    with pytest.raises(SessionLoadError) as refused:
        Session.load(path)
    assert refused.value.reason == f"not a pi session: {reason}"
