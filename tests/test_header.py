"""Every reader of the format finds a file's header the same way: the load (lazy and whole), the
command line's one-path index, the session list and the search index, as the app and the command
line use them, agree on which line it is, or that there is none."""

import orjson
import pytest

from pibrowser.model import Session
from pibrowser.model.session.path_index import PathIndex
from pibrowser.model.session.problems import SessionLoadError
from pibrowser.model.library.session_list import SummaryCache, scan_sessions
from pibrowser.model.library.search_index import SearchIndex

from .sessions import HEADER, chain, write

OTHER_CWD = {**HEADER, "cwd": "/elsewhere"}

CASES = {
    # name: (the lines before the entries, the header the load finds or None)
    "header first": ([HEADER], HEADER),
    "blank lines first": ([b"", b"  \t"], None),
    "garbage first": ([b"garbage", HEADER], HEADER),
    "falsy values first": ([b"0", b"null", b'""', b"false", OTHER_CWD], OTHER_CWD),
    "an entry first": ([chain(1)[0], HEADER], None),
    "an id that is not a string": ([{**HEADER, "id": 7}], None),
    "an array first": ([b"[1]", HEADER], None),
}


@pytest.mark.parametrize("name", CASES)
def test_every_reader_finds_the_same_header(tmp_path, name):
    before, header = CASES[name]
    folder = tmp_path / "sessions" / "--proj--"
    folder.mkdir(parents=True)
    path = write(folder / "s.jsonl", *before, *chain(3)[1:] if header is None else chain(3), header=None)
    if header is None:
        with pytest.raises(SessionLoadError) as refused:
            Session.load(path)
        # The one-path index refuses it in the same words (where it reads that far).
        try:
            PathIndex.scan(path)
        except SessionLoadError as error:
            assert str(error) == str(refused.value)
    else:
        assert Session.load(path).header == header and Session.load(path, lazy=False).header == header
        # The one-path index reads only clean files: it finds the same header or leaves the file to the load.
        index = PathIndex.scan(path)
        if index is not None:
            with index:
                assert index.header == header and before == [HEADER]
    # The session list (the Sessions dock, `pibrowser sessions`) says why a file is none, in the load's words,
    # and names the folder's project then.
    [info] = scan_sessions(tmp_path / "sessions", cache=SummaryCache(tmp_path / "list.json"))
    assert info.project == (header["cwd"] if header else "/proj")
    assert info.problem == (None if header else refused.value.reason)
    with SearchIndex(tmp_path / "index.sqlite3") as search:
        search.sync(tmp_path / "sessions")
        [problem] = search.indexed_files().values()
    assert (problem is None) == (header is not None)


def test_a_header_beyond_the_first_read_is_found_by_all(tmp_path, monkeypatch):
    # Many lines pi skips before the header: the readers go on past their first batch of lines.
    folder = tmp_path / "sessions" / "--proj--"
    folder.mkdir(parents=True)
    path = write(folder / "s.jsonl", *[b"0"] * 5000, OTHER_CWD, *chain(3), header=None)
    from pibrowser.model.session import reader

    monkeypatch.setattr(reader, "CHUNK", 4096)
    session = Session.load(path)
    assert session.header == OTHER_CWD and session.entries["m0"].line == 5002
    assert len(session.problems) == 5000
    [info] = scan_sessions(tmp_path / "sessions", cache=SummaryCache(tmp_path / "list.json"))
    assert info.cwd == "/elsewhere" and info.entries == 3
    assert orjson.loads(path.read_bytes().split(b"\n")[5000]) == OTHER_CWD
