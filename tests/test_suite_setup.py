"""The suite's own machinery: what the tests rely on of pytest and its plugins, checked."""

import subprocess
import sys


def test_an_xdist_group_runs_on_one_worker(tmp_path):
    # The browser tests, the checks against pi and the tidy rules each set up something costly once
    # per worker and are grouped to set it up once; a pytest that loses the groups (9.2 with xdist
    # 3.8) spreads them over every worker, silently.
    (tmp_path / "test_grouped.py").write_text(
        "import os, pytest\n"
        "pytestmark = pytest.mark.xdist_group('one')\n"
        "@pytest.mark.parametrize('i', range(8))\n"
        "def test_grouped(i):\n"
        "    with open('workers.txt', 'a') as out:\n"
        "        out.write(os.environ['PYTEST_XDIST_WORKER'] + '\\n')\n"
    )
    (tmp_path / "test_loose.py").write_text("import pytest\n@pytest.mark.parametrize('i', range(8))\ndef test_loose(i):\n    pass\n")
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:pytestqt",
        "-p",
        "no:hypothesispytest",
        "-n",
        "2",
        "--dist",
        "loadgroup",
        "-c",
        "/dev/null",
    ]
    result = subprocess.run([*command, str(tmp_path)], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    workers = (tmp_path / "workers.txt").read_text().split()
    assert len(workers) == 8 and len(set(workers)) == 1, workers
