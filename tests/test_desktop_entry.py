"""`--install-desktop-entry` writes each file whole or not at all, and an Exec= line the desktop reads back as written."""

import os
import subprocess
import sys

import pytest

from pibrowser.cli.desktop_entry import exec_line, install

# Files may grow to `limit` bytes at most (RLIMIT_FSIZE): a disk that fills up mid-install.
FULL_DISK = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
limit = int(sys.argv[2])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
from pibrowser.cli.desktop_entry import install
try:
    install({"XDG_DATA_HOME": sys.argv[1]}, refresh=False)
except OSError as error:
    print("failed", error.errno)
else:
    print("installed")
"""


def installed_files(share):
    return {path.relative_to(share): path.read_bytes() for path in share.rglob("*") if path.is_file()}


def install_on_full_disk(share, limit):
    result = subprocess.run([sys.executable, "-c", FULL_DISK, str(share), str(limit)], capture_output=True, timeout=60)
    assert result.returncode == 0, result.stderr.decode()
    return result.stdout.decode().split()[0]


@pytest.fixture(scope="module")
def complete(tmp_path_factory):
    share = tmp_path_factory.mktemp("complete")
    install({"XDG_DATA_HOME": str(share)}, refresh=False)
    return installed_files(share)


@pytest.mark.parametrize("limit", [0, 64, 400, 1000])
def test_a_full_disk_leaves_no_partial_file(tmp_path, complete, limit):
    share = tmp_path / "share"
    outcome = install_on_full_disk(share, limit)
    found = installed_files(share)
    assert outcome == "failed" or found == complete
    for name, data in found.items():
        assert data == complete[name], f"{name} is {len(data)} bytes of {len(complete[name])}"


def test_a_full_disk_leaves_an_earlier_install_as_it_was(tmp_path, complete):
    share = tmp_path / "share"
    install({"XDG_DATA_HOME": str(share)}, refresh=False)
    before = installed_files(share)
    assert install_on_full_disk(share, 0) == "failed"
    assert installed_files(share) == before


@pytest.mark.parametrize(
    "python, expected",
    [
        ("/usr/bin/python3", "/usr/bin/python3 -m pibrowser %f"),
        ("/opt/100%/bin/python", "/opt/100%%/bin/python -m pibrowser %f"),  # % starts a field code: a literal one is %%
        ("/opt/my python/bin/python3", '"/opt/my python/bin/python3" -m pibrowser %f'),
        # In a quoted argument \\ is the quoting rule's backslash, and a string value's backslashes are escaped again.
        ("/opt/a b\\c/python", '"/opt/a b\\\\\\\\c/python" -m pibrowser %f'),
        ("/opt/$HOME x/python", '"/opt/\\\\$HOME x/python" -m pibrowser %f'),
    ],
)
def test_exec_escapes_what_the_desktop_would_take_for_a_field_code_or_an_escape(python, expected):
    assert exec_line(python) == expected


def test_the_install_writes_no_temporary_files(tmp_path, complete):
    share = tmp_path / "share"
    install({"XDG_DATA_HOME": str(share)}, refresh=False)
    assert installed_files(share) == complete
    assert not [path for path in share.rglob(".*")]
    assert os.stat(share / "applications" / "pibrowser.desktop").st_mode & 0o044  # readable by the desktop's tools
