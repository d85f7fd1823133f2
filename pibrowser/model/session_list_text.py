"""The session list as a table for a terminal: grouped by project, forks under their parent."""

from __future__ import annotations

from pathlib import Path

from .amounts import format_cost, format_count, human_size
from .inert_text import one_line, pad
from .session_list import SessionSummary
from .timefmt import format_millis

TITLE_WIDTH = 56


def group_by_project(summaries: list[SessionSummary]) -> dict[str, list[SessionSummary]]:
    """Projects in the order of their newest session; within each, the sessions as given (newest first)."""
    groups: dict[str, list[SessionSummary]] = {}
    for summary in summaries:
        groups.setdefault(summary.project, []).append(summary)
    return groups


def title_of(summary: SessionSummary) -> str:
    """What a row shows: the session's name, else its first words, else the file name."""
    return summary.name or summary.first_message or Path(summary.file).name


def sessions_text(summaries: list[SessionSummary], root: Path) -> str:
    if not summaries:
        return f"No session files under {one_line(str(root))}\n"
    lines: list[str] = []
    listed = {summary.file for summary in summaries}
    by_file = {summary.file: summary for summary in summaries}
    for project, members in group_by_project(summaries).items():
        tokens = sum(summary.tokens for summary in members)
        cost = sum(summary.cost for summary in members)
        count = f"{len(members):,} session{'s' if len(members) != 1 else ''}"
        lines.append(f"{one_line(project)}  ({count}, {format_count(tokens)} tokens, {format_cost(cost)})")
        for summary in members:
            # A fork is shown under its parent when the parent is listed in the same project.
            if summary.parent in listed and by_file[summary.parent].project == project:
                continue
            _rows(summary, by_file, lines, depth=1, seen=set())
        lines.append("")
    return "\n".join(lines)


def _rows(summary: SessionSummary, by_file: dict[str, SessionSummary], lines: list[str], depth: int, seen: set[str]) -> None:
    if summary.file in seen:
        return  # parentSession links that loop
    seen.add(summary.file)
    lines.append("  " * depth + ("↳ " if depth > 1 else "") + _row(summary))
    for fork in summary.forks:
        child = by_file.get(fork)
        if child is not None and child.project == summary.project:
            _rows(child, by_file, lines, depth + 1, seen)


def _row(summary: SessionSummary) -> str:
    when = format_millis(summary.modified_ms)[:16]
    name = Path(summary.file).name
    if summary.problem is not None:
        return f"{when}  {one_line(name)}  (not a session: {one_line(summary.problem)})"
    title = pad(one_line(title_of(summary), TITLE_WIDTH), TITLE_WIDTH)
    details = [
        f"{summary.messages:,} msgs",
        f"{summary.leaves:,} lea{'f' if summary.leaves == 1 else 'ves'}",
        human_size(summary.size),
        f"{format_count(summary.tokens)} tok",
        format_cost(summary.cost),
    ]
    if summary.warnings:
        details.append(f"{summary.warnings:,} warnings")
    return f"{when}  {title}  {'  '.join(details)}  {one_line(name)}"
