"""What a lane of the trace says: its name in the waterfall, and its figures in full.

Names and texts come from the session (prompts, arguments, errors): they are
made one line and shown as plain text only. Each entry's texts are read from its
line when a lane first shows it (model/trace/facts.py) and kept while the trace is.
"""

from __future__ import annotations

from collections.abc import Callable

from ...model.js.date import js_iso
from ...model.text.amounts import usage_text
from ...model.text.terminal_text import one_line, shorten
from ...model.text.timefmt import format_duration, format_millis
from ...model.trace.facts import Facts
from ...model.trace.rows import call_arguments, reply_error, result_error, totals_text
from ...model.trace.spans import Event, Run, ToolCall, Trace, Turn
from .lanes import Node

DETAIL_LINE = 2_000  # characters of one line of the details: a few lines' worth of the label wrapped

EVENT_NAMES = {
    "user": "Steering",
    "custom_message": "Custom message",
    "custom": "Extension data",
    "system": "System prompt update",
    "compaction": "Compaction",
    "branch_summary": "Branch summary",
    "context_edit": "Context edit",
    "model_change": "Model",
    "thinking_level_change": "Thinking level",
    "label": "Label",
    "session_info": "Session name",
    "bashExecution": "Shell (!cmd)",
    "usage": "Usage",
    "toolResult": "Tool result without its call",
}


class Describer:
    """Names and details of lanes of one trace; `facts_of(entry id)` reads an entry's texts.
    `numbered`: False for the trace of a stretch of the path (model/trace/stretch.py), whose runs
    are not numbered as on the path: they are named without a number."""

    def __init__(self, trace: Trace, facts_of: Callable[[str], Facts], numbered: bool = True) -> None:
        self.trace = trace
        self.numbered = numbered
        self._facts_of = facts_of
        self._facts: dict[str, Facts] = {}

    def _run_name(self, number: int) -> str:
        return f"Run {number}" if self.numbered else "Run"

    def facts(self, key: str) -> Facts:
        found = self._facts.get(key)
        if found is None:
            found = self._facts[key] = self._facts_of(key)
        return found

    # ---- the name in the waterfall -------------------------------------------------------

    def label(self, node: Node) -> str:
        if isinstance(node, Run):
            words = self.facts(node.entry).text if node.kind != "assistant" else "(no prompt on this path)"
            took = format_duration(node.wall_ms)
            name = self._run_name(node.number)
            return one_line(f"{name} · {took} · {words}" if took else f"{name} · {words}")
        if isinstance(node, Turn):
            took = format_duration(node.model_ms)
            stop = f" · {node.stop_reason}" if node.stop_reason not in (None, "toolUse", "stop") else ""
            return f"Turn {node.number} · {took or '?'} · {_short_model(node.model)}{stop}"
        if isinstance(node, ToolCall):
            arguments = call_arguments(node, self.facts)
            took = format_duration(node.duration) if node.duration is not None else (node.note or "")
            return one_line(f"{node.name} {took} {arguments}")
        return one_line(f"{EVENT_NAMES.get(node.kind, node.kind)} {self._event_words(node)}")

    def _event_words(self, event: Event) -> str:
        facts = self.facts(event.entry)
        if event.kind == "model_change":
            return f"→ {facts.model}"
        if event.kind == "thinking_level_change":
            return f"→ {facts.thinking}"
        return facts.text

    # ---- everything about it -------------------------------------------------------------

    def details(self, node: Node) -> str:
        """Several lines: what it is, when, how long, the model, tokens, cost, stop reason, error;
        each at most DETAIL_LINE characters (a turn of 200,000 calls named them all: 1.2 million
        characters the details' label took seconds to wrap)."""
        return "\n".join(shorten(line, DETAIL_LINE) for line in self._details(node).split("\n"))

    def _details(self, node: Node) -> str:
        if isinstance(node, Run):
            return self._run_details(node)
        if isinstance(node, Turn):
            return self._turn_details(node)
        if isinstance(node, ToolCall):
            return self._call_details(node)
        return self._event_details(node)

    def _run_details(self, run: Run) -> str:
        lines = [f"{self._run_name(run.number)} — started by {run.kind} {run.entry} at {_when(run.start)}", totals_text(run.totals)]
        words = self.facts(run.entry).text if run.kind != "assistant" else ""
        if words:
            lines.insert(1, f"“{words}”")
        return "\n".join(lines)

    def _turn_details(self, turn: Turn) -> str:
        measured = "durationMs" if turn.measured else "request start to appended"
        lines = [
            f"Turn {turn.number}{self._of_run(turn.run)} — reply {turn.entry}",
            f"{turn.model} · thinking {turn.thinking} · started {_when(turn.start)} · model {format_duration(turn.model_ms) or '?'} ({measured})"
            f" · turn {format_duration(_span(turn.start, turn.end)) or '?'} · stop {turn.stop_reason or '?'}",
        ]
        if turn.calls:
            lines.append(
                f"{len(turn.calls)} tool call{'s' if len(turn.calls) != 1 else ''}: " + ", ".join(call.name for call in turn.calls)
            )
        return self._with_usage_and_error(lines, turn, reply_error(turn, self.facts))

    def _of_run(self, number: int, joint: str = " of") -> str:
        return f"{joint} run {number}" if self.numbered else ""

    def _call_details(self, call: ToolCall) -> str:
        how = "in the tool (durationMs)" if call.measured else "at most: reply end to result appended"
        took = f"{format_duration(call.duration)} {how}" if call.duration is not None else (call.note or "")
        lines = [
            f"{call.name} call {call.id or '(no id)'} of turn {call.turn.number}{self._of_run(call.turn.run, ',')}"
            + (f" — result {call.result}, {call.result_chars:,} characters" if call.result else ""),
            f"started {_when(call.start)} · {took}",
            one_line(call_arguments(call, self.facts), 600),
        ]
        return self._with_usage_and_error(lines, call, result_error(call, self.facts))

    def _event_details(self, event: Event) -> str:
        lines = [f"{EVENT_NAMES.get(event.kind, event.kind)} — {event.entry} at {_when(event.time)}"]
        words = self._event_words(event)
        if words:
            lines.append(words)
        return self._with_usage_and_error(lines, event, result_error(event, self.facts))

    def _with_usage_and_error(self, lines: list[str], node: Node, error: str | None) -> str:
        """The lines, then the usage the node's entry recorded and its error, where there are."""
        usage = self.trace.usage(node)
        if usage is not None:
            lines.append(usage_text(*usage))
        if error:
            lines.append(f"Error: {error}")
        return "\n".join(lines)


def _short_model(model: str) -> str:
    return model.split("/", 1)[-1] if "/" in model else model


def _span(start: float | None, end: float | None) -> float | None:
    return end - start if start is not None and end is not None else None


def _when(ms: float | None) -> str:
    if ms is None:
        return "an unknown time"
    text = format_millis(ms)
    iso = js_iso(round(ms))
    return f"{text}.{iso[20:23]}" if text and iso else text or "an unknown time"
