"""Fuzzing the command line: every fixture with one field given a hostile value (tests/hostile.py,
`mutations`), and every command asked about it. Each answers, or refuses the file in one line (a
header that is no longer one); none fails on a value ("cannot be processed") or prints a traceback.

Seeded: the same mutations every run. By default a sample of each fixture's; all of them (each kind
of field × each hostile value, per fixture) with --slow or PIBROWSER_SLOW_TESTS=1. The window's own
fuzz test is tests/ui/test_fuzz_window.py.
"""

from __future__ import annotations

import pytest

from pibrowser.cli.main import main

from . import conftest
from .conftest import FIXTURES
from .hostile import mutations

SEED = 30
PER_FIXTURE = 3  # mutations of each fixture in a default run
SOURCES = sorted(FIXTURES.glob("*.jsonl")) + sorted((FIXTURES / "bytes").glob("*.jsonl"))
COMMANDS = [  # not `context --all`: a 100,000-block message in every context of a thousand entries prints gigabytes
    ("context",),
    ("context", "--format", "markdown"),
    ("tree",),
    ("tree", "--format", "json"),
    ("timeline",),
    ("timeline", "--format", "csv"),
    ("trace", "--format", "text"),
    ("composition",),
    ("files",),
    ("graph",),
]


def _cases():
    count = None if conftest.SLOW else PER_FIXTURE
    return [
        pytest.param(source, mutation, id=f"{source.stem}: {mutation}") for source in SOURCES for mutation in mutations(source, SEED, count)
    ]


@pytest.mark.parametrize("source, mutation", _cases())
def test_every_command_answers_a_file_with_one_hostile_value(tmp_path, capsys, source, mutation):
    path = mutation.apply(source, tmp_path / source.name)
    for command in COMMANDS:
        status = main([command[0], str(path), *command[1:]])
        err = capsys.readouterr().err
        assert "Traceback" not in err and "cannot be processed" not in err, (command, err)
        if status == 1:  # refused: the file is no longer a session (its header was the field changed)
            assert mutation.kind == "header" and err.startswith(f"pibrowser: {path}: ") and err.count("\n") == 1, err
        else:
            assert status == 0, (command, err)
