"""What an install that is not editable gets: the wheel carries the demo session and the icon, and the
code in it finds them with nothing of the checkout beside it (issue 30, item 4).

The wheel is built here without a network (the build backend is in the test extra); CI also builds
a wheel and an sdist, installs the wheel in a fresh virtual environment and opens the demo from it.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from .conftest import REPO

SHIPPED = ("pibrowser/assets/demo-session.jsonl", "pibrowser/assets/pibrowser.svg")


def test_the_wheel_carries_the_demo_and_the_icon_and_its_code_finds_them(tmp_path):
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path / "dist"), str(REPO)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert built.returncode == 0, built.stderr
    [wheel] = (tmp_path / "dist").glob("pibrowser-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        assert set(SHIPPED) <= names
        for name in SHIPPED:
            assert archive.read(name) == (REPO / name).read_bytes()
        archive.extractall(tmp_path / "installed")
    # The wheel's own code, ahead of the checkout on the path, from a folder with nothing beside it.
    code = (
        "import sys; sys.path.insert(0, sys.argv[1])\n"
        "import pibrowser, pibrowser.resources as r\n"
        "assert pibrowser.__file__.startswith(sys.argv[1]), pibrowser.__file__\n"
        "print(r.DEMO_SESSION.read_bytes() == open(sys.argv[2], 'rb').read(), r.ICON.is_file())\n"
    )
    shown = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "installed"), str(REPO / SHIPPED[0])],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert shown.returncode == 0 and shown.stdout == "True True\n", shown.stderr
    listed = subprocess.run(
        [sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); from pibrowser.cli.main import main; main(sys.argv[2:])",
         str(tmp_path / "installed"), "tree", str(tmp_path / "installed" / SHIPPED[0])],
        capture_output=True, timeout=120, cwd=tmp_path,
    )  # fmt: skip
    assert listed.returncode == 0 and b"leaf" in listed.stdout, listed.stderr


def test_nothing_the_app_reads_is_left_outside_the_package():
    assert not [path.name for path in (REPO / "resources").iterdir() if path.name != "README.md"]
    from pibrowser.resources import DEMO_SESSION, ICON

    package = Path(__file__).resolve().parent.parent / "pibrowser"
    assert DEMO_SESSION.is_relative_to(package) and ICON.is_relative_to(package)
