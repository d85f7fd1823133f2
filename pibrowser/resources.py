"""Where the files shipped beside the code live: the demo session and the application icon."""

from __future__ import annotations

from pathlib import Path

RESOURCES = Path(__file__).resolve().parent.parent / "resources"
DEMO_SESSION = RESOURCES / "demo-session.jsonl"
ICON = RESOURCES / "pibrowser.svg"
