"""Where a user's files go by the XDG base-directory spec (the log, the cache, the desktop entry)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path


def xdg_dir(variable: str, default: str, environ: Mapping[str, str] = os.environ) -> Path:
    """An XDG base directory: $variable, or `default` under the home folder. The spec: a relative
    or empty value is ignored."""
    configured = environ.get(variable, "")
    return Path(configured) if configured and os.path.isabs(configured) else Path.home() / default
