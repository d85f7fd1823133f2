"""The session list as a table for a terminal: grouped by project, forks under their parent."""

from __future__ import annotations

from pathlib import Path

from ..text.plural import counted
from ..text.amounts import format_cost, format_count, human_size
from ..text.terminal_text import one_line, pad
from .session_list import ForkNode, SessionSummary, group_by_project, nest_forks, title_of
from ..text.timefmt import format_millis

TITLE_WIDTH = 56


def sessions_text(summaries: list[SessionSummary], root: Path) -> str:
    if not summaries:
        return f"No session files under {one_line(str(root))}\n"
    lines: list[str] = []
    for project, members in group_by_project(summaries).items():
        tokens = sum(summary.tokens for summary in members)
        cost = sum(summary.cost for summary in members)
        lines.append(f"{one_line(project)}  ({_count(members)}, {format_count(tokens)} tokens, {format_cost(cost)})")
        _rows(nest_forks(members), lines, depth=1)
        lines.append("")
    return "\n".join(lines)


def _count(members: list[SessionSummary]) -> str:
    sessions = sum(1 for member in members if member.problem is None)
    others = len(members) - sessions
    return counted(sessions, "session") + (f", {counted(others, 'other file')}" if others else "")


def _rows(nodes: list[ForkNode], lines: list[str], depth: int) -> None:
    for summary, forks in nodes:
        lines.append("  " * depth + ("↳ " if depth > 1 else "") + _row(summary))
        _rows(forks, lines, depth + 1)


def _row(summary: SessionSummary) -> str:
    when = format_millis(summary.modified_ms)[:16]
    name = Path(summary.file).name
    if summary.problem is not None:
        return f"{when}  {one_line(name)}  ⚠ {one_line(summary.problem)}"
    title = pad(one_line(title_of(summary), TITLE_WIDTH), TITLE_WIDTH)
    details = [
        counted(summary.messages, "msg"),
        counted(summary.leaves, "leaf"),
        human_size(summary.size),
        f"{format_count(summary.tokens)} tok",
        format_cost(summary.cost),
    ]
    if summary.warnings:
        details.append(counted(summary.warnings, "warning"))
    return f"{when}  {title}  {'  '.join(details)}  {one_line(name)}"
