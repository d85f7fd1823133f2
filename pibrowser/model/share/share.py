"""A share from start to end: find the secrets, let the caller review them, write the page, record it.

The command line and the window both go through `find_for_share` (nothing written) and
`write_share` (the page and its record); the window runs both off its GUI thread.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..session.gcpause import gc_paused
from ..session.problems import SessionLoadError
from ..session.session import Session
from .page import write_page
from .page_data import ShareRequest, page_data
from ..writing.share_record import record_share
from .redaction import Findings, find_secrets, redacted_copy
from .secrets import Detectors

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class ShareOptions:
    request: ShareRequest = ShareRequest()
    redact: bool = True  # find secrets with the detectors (the user's patterns and list apply either way)
    patterns: tuple[str, ...] = ()
    listed: tuple[str, ...] = ()
    home: bool = False


@dataclass(slots=True)
class Shared:
    out: Path
    sha256: str
    size: int
    removed: dict[str, int] = field(default_factory=dict)


def find_for_share(path: Path, options: ShareOptions, progress: Progress = lambda done, total: None) -> Findings:
    """The secrets the share would remove (none looked for with redact off and nothing of the user's)."""
    if not options.redact and not options.patterns and not options.listed:
        return Findings()
    detectors = Detectors(options.patterns, options.listed)
    if not options.redact:
        detectors.regex_plugins, detectors.other_plugins = [], []  # only what the user named
    return find_secrets(path, detectors, progress)


def write_share(
    path: Path, out: Path, options: ShareOptions, findings: Findings, progress: Progress = lambda done, total: None, parallel: bool = False
) -> Shared:
    """Write the page of the session at `path` to `out`, without the findings not kept, and record it
    (`parallel`: see page_data; for a process without threads)."""
    folder = Path(tempfile.mkdtemp(prefix="pibrowser-share-"))
    try:
        source = path
        if findings.removed() or options.home:
            source = redacted_copy(path, findings, options.home, folder)
        session = Session.load(source, lazy=True)
        _check_known(session, path, options.request)
        with gc_paused():  # a million objects made and kept until the page is written, no cycle among them
            data = page_data(session, options.request, progress, name=path.name, parallel=parallel)
        removed = findings.by_kind()
        data.main["redactions"] = (
            ("redacted: " + ", ".join(f"{kind} {count}" for kind, count in removed.items()) if removed else "no secrets found to remove")
            if options.redact or options.patterns or options.listed
            else "not redacted"
        )
        sha256, size = write_page(data, out)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    request = options.request
    record_share(
        {
            "source": str(path),
            "output": str(out.resolve()),
            "leaf": request.leaf,
            "pair": list(request.pair) if request.pair else None,
            "removed": removed,
            "home": options.home,
            "sha256": sha256,
            "bytes": size,
        }
    )
    return Shared(out, sha256, size, removed)


def _check_known(session: Session, path: Path, request: ShareRequest) -> None:
    asked = [request.leaf, *(request.pair or ())]
    unknown = [key for key in asked if key is not None and key not in session.entries]
    if unknown:
        raise SessionLoadError(path, f"no entry with id {unknown[0]!r}")
