"""The context window of a session's model, where it can be known.

Sessions record the provider and model id, never the window. pi's built-in
model catalog is compiled into pi itself; what a user can see on disk is the
agent folder's `models.json`, where custom models (`providers.P.models[]`) and
overrides of built-in ones (`providers.P.modelOverrides[id]`) may give a
`contextWindow`. That is the one source read here; any other model's window
is unknown, and the timeline says so rather than guess.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import orjson

from .discovery import agent_dir
from ..session.regular_file import open_regular

log = logging.getLogger(__name__)


def context_window(model: Any, models_file: Path | None = None) -> int | None:
    """The window (tokens) for a context's `model` ({provider, modelId}), or None."""
    if not isinstance(model, dict):
        return None
    provider, model_id = model.get("provider"), model.get("modelId")
    if not isinstance(provider, str) or not isinstance(model_id, str):
        return None
    config = _read(models_file or agent_dir() / "models.json")
    providers = config.get("providers") if isinstance(config, dict) else None
    entry = providers.get(provider) if isinstance(providers, dict) else None
    if not isinstance(entry, dict):
        return None
    overrides = entry.get("modelOverrides")
    if isinstance(overrides, dict) and _window(overrides.get(model_id)) is not None:
        return _window(overrides.get(model_id))
    for definition in entry.get("models") or ():
        if isinstance(definition, dict) and definition.get("id") == model_id:
            # pi's default for a custom model that names no window.
            return _window(definition) or 128_000
    return None


def _window(definition: Any) -> int | None:
    value = definition.get("contextWindow") if isinstance(definition, dict) else None
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
        return int(value)
    return None


def _read(path: Path) -> Any:
    try:
        with open_regular(path) as handle:  # a FIFO named models.json must not stop the window
            return orjson.loads(handle.read().removeprefix(b"\xef\xbb\xbf"))
    except FileNotFoundError:
        return None  # no models of the user's own: every window is pi's, unknown here
    except (OSError, orjson.JSONDecodeError) as error:
        # Unreadable, or with comments we do not strip: the windows it gives are unknown (the timeline says so).
        log.info("%s cannot be read: %s", path, error)
        return None
