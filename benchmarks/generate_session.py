#!/usr/bin/env python3
"""Write a large synthetic pi session file (format v3) for benchmarks.

The file resembles a long, heavy real session: user/assistant turns with thinking
blocks and tool calls, tool results whose sizes have a long tail (most are small,
a few are 20-200 KB), a few branches (the leaf moves back to an earlier turn, some
with a branch summary), a compaction every few thousand entries, and occasional
model_change, thinking_level_change, label, context_edit, session_info, custom,
custom_message, usage and bashExecution entries.

Lines are serialised the way pi writes them (``JSON.stringify`` of each entry:
compact separators, pi's key order, raw UTF-8, JavaScript number formatting).
The output depends only on the arguments, never on the clock.

    python benchmarks/generate_session.py OUT.jsonl --entries 100000 --seed 0
"""

from __future__ import annotations

import argparse
import base64
import random
import time
import zlib
from decimal import Decimal
from pathlib import Path

import orjson

START_MS = 1_772_438_400_000  # 2026-03-02T08:00:00.000Z
CWD = "/home/dev/work/atlas-monorepo"

MODELS = [
    # (provider, model, api, $/M input, output, cacheRead, cacheWrite)
    ("anthropic", "claude-sonnet-4-5", "anthropic-messages", 3.0, 15.0, 0.3, 3.75),
    ("openai", "gpt-5.1-codex", "openai-responses", 1.25, 10.0, 0.125, 0.0),
    ("google", "gemini-2.5-pro", "google-generative-ai", 1.25, 10.0, 0.31, 0.0),
]
THINKING_LEVELS = ["off", "minimal", "low", "medium", "high"]
LABELS = ["checkpoint", "bug found", "good state", "before refactor", "perf baseline", "todo", "ask later", "wip"]
SESSION_NAMES = ["Atlas: ingest pipeline rewrite", "Atlas: fix flaky ingest tests", "Atlas: query planner perf", "Atlas: release 2.4 prep"]

WORDS = (
    "the a to of and in is for on with that this it be as by from at are was config parser cache index "
    "query request handler worker queue retry timeout error value result field schema table column row "
    "batch stream buffer token session branch commit test fixture mock client server route middleware "
    "render component state props hook effect memo context store reducer action payload event listener "
    "build bundle module import export default async await promise resolve reject throw catch finally "
    "should would could will can may must need check update create delete read write parse format"
).split()
IDENTS = (
    "userId sessionId payload options ctx req res data items entry entries node nodes parent child children "
    "leaf path cursor offset limit total count index key value result err retries timeoutMs batchSize "
    "maxLines encoder decoder reader writer queue cache store logger metrics span"
).split()
FUNCS = (
    "parseEntry loadSession buildIndex resolvePath flushQueue retryRequest handleError formatOutput "
    "computeDiff applyPatch readChunk writeChunk validateSchema normalizeRow mergeConfig createClient "
    "fetchPage renderTree walkPath collectLabels scheduleJob drainBuffer encodeFrame decodeFrame"
).split()
DIRS = ["src/ingest", "src/query", "src/api", "src/ui/components", "src/lib", "packages/core/src", "packages/cli/src", "test", "scripts"]
EXTS = [".ts", ".ts", ".tsx", ".py", ".rs", ".json", ".md"]
UNICODE_BITS = [
    "é",
    "ü",
    "ß",
    "→",
    "✓",
    "✗",
    "…",
    "—",
    "日本語",
    "中文",
    "😀",
    "🚀",
    "Ω",
    "\t",
    '"quoted"',
    "back\\slash",
    "<tag>",
    "&amp;",
]
B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


class _Done(Exception):
    """Raised once the requested number of entries has been written."""


# --------------------------------------------------------------------------- JSON like JSON.stringify
def js_num(x: float) -> float | int | orjson.Fragment:
    """Make orjson print a float the way JavaScript does (integral floats without '.0',
    no exponent from 1e-6 up)."""
    if x == 0 or (x.is_integer() and abs(x) < 1e21):
        return int(x)
    if 1e-6 <= abs(x) < 1e-5:  # orjson uses an exponent here, JavaScript does not
        return orjson.Fragment(format(Decimal(repr(x)), "f").encode())
    return x


def iso(ms: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms // 1000)) + f".{ms % 1000:03d}Z"


# --------------------------------------------------------------------------- corpora
def _build_corpora(rng: random.Random) -> tuple[str, str, str]:
    """Return (code/log text, prose, base64 noise): long strings to slice content from."""
    code_lines: list[str] = []
    choice = rng.choice
    for _ in range(60_000):
        kind = rng.random()
        if kind < 0.35:
            line = f"{'  ' * rng.randint(0, 4)}const {choice(IDENTS)} = {choice(FUNCS)}({choice(IDENTS)}, {{ {choice(IDENTS)}: {rng.randint(0, 9999)} }});"
        elif kind < 0.55:
            line = f'{"  " * rng.randint(0, 3)}if ({choice(IDENTS)}.{choice(IDENTS)} === "{choice(WORDS)}") return {choice(FUNCS)}({choice(IDENTS)});'
        elif kind < 0.70:
            line = f"{rng.randint(1, 2400):>6}\t{choice(DIRS)}/{choice(FUNCS)}{choice(EXTS)}: {' '.join(rng.choices(WORDS, k=rng.randint(3, 12)))}"
        elif kind < 0.82:
            ts = iso(START_MS + rng.randint(0, 9_000_000_000))
            line = f"[{ts}] {choice(['INFO', 'DEBUG', 'WARN', 'ERROR'])} {choice(FUNCS)}: {' '.join(rng.choices(WORDS, k=rng.randint(4, 14)))} ({choice(IDENTS)}={rng.randint(0, 99999)})"
        elif kind < 0.90:
            line = f"  {choice(['✓', '✗', '✔', '✖'])} {' '.join(rng.choices(WORDS, k=rng.randint(3, 8)))} ({rng.random() * 40:.3f}ms)"
        elif kind < 0.97:
            line = f"// {' '.join(rng.choices(WORDS, k=rng.randint(4, 16)))}"
        else:
            line = f'    "{choice(IDENTS)}": "{choice(UNICODE_BITS)} {" ".join(rng.choices(WORDS, k=3))}",'
        if rng.random() < 0.02:
            line += " " + choice(UNICODE_BITS)
        code_lines.append(line)
    prose_parts: list[str] = []
    for _ in range(12_000):
        sentence = " ".join(rng.choices(WORDS, k=rng.randint(6, 22)))
        sentence = sentence[0].upper() + sentence[1:] + rng.choice([".", ".", ".", ":", "?"])
        r = rng.random()
        if r < 0.08:
            sentence = f"\n\n## {sentence.rstrip('.:?').title()}\n\n"
        elif r < 0.25:
            sentence = f"\n- `{choice(FUNCS)}()` {sentence}"
        elif r < 0.30:
            sentence = f"\n\n```ts\n{choice(code_lines)}\n{choice(code_lines)}\n```\n\n"
        elif r < 0.32:
            sentence += " " + choice(UNICODE_BITS)
        prose_parts.append(sentence)
    noise = "".join(rng.choices(B64, k=400_000))
    return "\n".join(code_lines) + "\n", " ".join(prose_parts), noise


def _tiny_png(rng: random.Random, side: int = 48) -> str:
    """A valid RGB PNG of random-ish pixels, base64 encoded."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return len(data).to_bytes(4, "big") + kind + data + zlib.crc32(kind + data).to_bytes(4, "big")

    rows = b"".join(b"\x00" + bytes(rng.getrandbits(8) & 0xF0 for _ in range(side * 3)) for _ in range(side))
    ihdr = side.to_bytes(4, "big") * 2 + bytes([8, 2, 0, 0, 0])
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")
    return base64.b64encode(png).decode()


# --------------------------------------------------------------------------- generator
def generate(
    path: str | Path,
    entries: int = 100_000,
    seed: int = 0,
    branch_every: int = 4_000,
    compaction_every: int = 3_000,
) -> dict:
    """Write a synthetic session with exactly ``entries`` entries (plus the header) to ``path``.

    ``branch_every`` / ``compaction_every`` are the average number of entries between
    branches / compactions. Returns a few statistics about the file."""
    t0 = time.perf_counter()
    rng = random.Random(seed)
    R = rng.random
    randint = rng.randint
    choice = rng.choice
    code, prose, noise = _build_corpora(random.Random(seed * 7919 + 1))
    png_b64 = _tiny_png(random.Random(seed + 17))
    files = [f"{choice(DIRS)}/{choice(FUNCS)}{choice(EXTS)}" for _ in range(400)]

    def take(corpus: str, n: int) -> str:
        n = min(n, len(corpus) - 1)
        start = randint(0, len(corpus) - n - 1)
        return corpus[start : start + n]

    def code_text(n: int) -> str:
        s = take(code, n + 200)
        cut = s.find("\n")
        return s[cut + 1 : cut + 1 + n] if 0 <= cut < 200 else s[:n]

    def prose_text(n: int) -> str:
        return take(prose, n).strip() or "Done."

    def tool_result_size() -> int:
        r = R()
        if r < 0.013:  # the long tail: huge file reads, logs, test output
            return int(20_000 * 10 ** R())  # 20 KB .. 200 KB, log-uniform
        if r < 0.08:
            return randint(1_500, 8_000)
        return int(60 * 10 ** (R() * 1.6))  # 60 B .. 2.4 KB, log-uniform

    used_ids: set[str] = set()

    def new_id() -> str:
        while True:
            i = f"{rng.getrandbits(32):08x}"
            if i not in used_ids:
                used_ids.add(i)
                return i

    out = open(path, "wb", buffering=1 << 20)
    dumps = orjson.dumps
    clock = START_MS
    count = 0
    total_bytes = 0

    # tree state: the current path (root..leaf) with parallel metadata
    path_ids: list[str] = []
    path_kinds: list[str] = []  # "user", "assistant", "assistant_stop", "toolResult", "custom_message", other types
    path_bytes: list[int] = []  # cumulative bytes of context-bearing lines along the path
    compactions_on_path: list[tuple[int, int]] = []  # (path index of compaction, path index of first kept)
    all_ids: list[str] = []
    labelled: list[str] = []
    stats = {
        "branches": 0,
        "branch_summaries": 0,
        "compactions": 0,
        "context_edits": 0,
        "labels": 0,
        "label_clears": 0,
        "large_tool_results": 0,
    }

    def emit(entry: dict, kind: str, context_bytes: bool = True) -> str:
        nonlocal count, total_bytes
        line = dumps(entry) + b"\n"
        out.write(line)
        count += 1
        total_bytes += len(line)
        eid = entry["id"]
        path_ids.append(eid)
        path_kinds.append(kind)
        path_bytes.append((path_bytes[-1] if path_bytes else 0) + (len(line) if context_bytes else 0))
        all_ids.append(eid)
        if count >= entries:
            raise _Done
        return eid

    def base(kind: str) -> dict:
        return {"type": kind, "id": new_id(), "parentId": path_ids[-1] if path_ids else None, "timestamp": iso(clock)}

    def tick(lo: int, hi: int) -> None:
        nonlocal clock
        clock += randint(lo, hi)

    def context_start() -> int:
        return compactions_on_path[-1][1] if compactions_on_path else 0

    def context_tokens() -> int:
        start = context_start()
        return 2_900 + (path_bytes[-1] - (path_bytes[start - 1] if start > 0 else 0)) // 4

    model_idx = 0
    thinking_level = "medium"

    def usage(output: int) -> dict:
        _, _, _, p_in, p_out, p_cr, p_cw = MODELS[model_idx]
        total = min(context_tokens(), 198_000)
        if MODELS[model_idx][0] == "anthropic":
            cache_read = int(total * (0.75 + 0.2 * R()))
            inp = randint(1, 12)
            cache_write = max(0, total - cache_read - inp)
        else:
            cache_read = (int(total * (0.6 + 0.3 * R())) // 128) * 128
            inp = total - cache_read
            cache_write = 0
        c_in, c_out, c_cr, c_cw = inp * p_in / 1e6, output * p_out / 1e6, cache_read * p_cr / 1e6, cache_write * p_cw / 1e6
        return {
            "input": inp,
            "output": output,
            "cacheRead": cache_read,
            "cacheWrite": cache_write,
            "totalTokens": inp + output + cache_read + cache_write,
            "cost": {
                "input": js_num(c_in),
                "output": js_num(c_out),
                "cacheRead": js_num(c_cr),
                "cacheWrite": js_num(c_cw),
                "total": js_num(c_in + c_out + c_cr + c_cw),
            },
        }

    def tool_call_id() -> str:
        provider = MODELS[model_idx][0]
        if provider == "anthropic":
            return "toolu_01" + "".join(rng.choices(B62, k=22))
        if provider == "openai":
            return "call_" + "".join(rng.choices(B62, k=24)) + "|fc_" + f"{rng.getrandbits(192):048x}"
        return f"call_{rng.getrandbits(64):016x}"

    def thinking_block() -> dict:
        block = {"type": "thinking", "thinking": prose_text(randint(50, 900))}
        provider = MODELS[model_idx][0]
        if provider == "anthropic":
            block["thinkingSignature"] = take(noise, randint(150, 500))
        elif provider == "openai":
            block["thinkingSignature"] = orjson.dumps(
                {"id": f"rs_{rng.getrandbits(192):048x}", "type": "reasoning", "encrypted_content": take(noise, randint(150, 600))}
            ).decode()
        return block

    def make_tool_call() -> tuple[dict, str]:
        r = R()
        f = choice(files)
        if r < 0.35:
            name, args = "read", {"path": f}
        elif r < 0.65:
            name, args = (
                "bash",
                {
                    "command": choice(["npm test -- ", "pnpm -w run lint ", "rg -n ", "git diff ", "ls -la ", "cargo test ", "pytest -q "])
                    + choice(IDENTS)
                },
            )
        elif r < 0.82:
            name, args = (
                "edit",
                {
                    "path": f,
                    "edits": [
                        {"oldText": code_text(randint(30, 400)), "newText": code_text(randint(30, 600))} for _ in range(randint(1, 2))
                    ],
                },
            )
        elif r < 0.88:
            name, args = "write", {"path": f, "content": code_text(randint(200, 5_000))}
        elif r < 0.95:
            name, args = "grep", {"pattern": choice(FUNCS), "path": choice(DIRS)}
        else:
            name, args = "find", {"pattern": "*" + choice(EXTS), "path": choice(DIRS)}
        return {"type": "toolCall", "id": tool_call_id(), "name": name, "arguments": args}, name

    def assistant(blocks: list, stop_reason: str) -> str:
        tick(400, 1_500)
        started = clock
        out_tokens = max(8, sum(len(orjson.dumps(b)) for b in blocks) // 4)
        tick(out_tokens * 12, out_tokens * 30)
        provider, model, api = MODELS[model_idx][:3]
        e = base("message")
        e["message"] = {
            "role": "assistant",
            "content": blocks,
            "api": api,
            "provider": provider,
            "model": model,
            "usage": usage(out_tokens),
            "stopReason": stop_reason,
            "timestamp": started,
        }
        if stop_reason == "aborted":
            e["message"]["errorMessage"] = "Request was aborted"
        return emit(e, "assistant_stop" if stop_reason == "stop" else "assistant")

    def user_message() -> str:
        tick(5_000, 150_000)
        text = prose_text(randint(20, 900)) if R() < 0.9 else code_text(randint(500, 6_000))
        content: object = text if R() < 0.25 else [{"type": "text", "text": text}]
        e = base("message")
        e["message"] = {"role": "user", "content": content, "timestamp": clock}
        return emit(e, "user")

    def tool_result(call: dict, name: str) -> str:
        dur = randint(5, 4_000)
        tick(dur, dur + 40)
        is_error = R() < 0.04
        if is_error:
            text = choice(
                [
                    f"ENOENT: no such file or directory, access '{CWD}/{call['arguments'].get('path', 'x')}'",
                    code_text(randint(200, 3_000)) + f"\n\nCommand exited with code {choice([1, 2, 101, 127])}",
                    "Could not find the exact text in the file. The old text must match exactly including all whitespace and newlines.",
                ]
            )
            content = [{"type": "text", "text": text}]
        elif name == "edit":
            content = [
                {
                    "type": "text",
                    "text": f"Successfully replaced {len(call['arguments']['edits'])} block(s) in {call['arguments']['path']}.",
                }
            ]
        elif name == "write":
            content = [{"type": "text", "text": f"Successfully wrote to {call['arguments']['path']}"}]
        elif name == "read" and R() < 0.004:
            content = [{"type": "text", "text": "Read image file [image/png]"}, {"type": "image", "data": png_b64, "mimeType": "image/png"}]
        else:
            size = tool_result_size()
            if size >= 20_000:
                stats["large_tool_results"] += 1
            content = [{"type": "text", "text": code_text(size)}]
        e = base("message")
        e["message"] = {
            "role": "toolResult",
            "toolCallId": call["id"],
            "toolName": name,
            "content": content,
            "isError": is_error,
            "timestamp": clock,
        }
        return emit(e, "toolResult")

    def turn() -> None:
        user_message()
        for _ in range(randint(0, 7)):
            blocks: list = []
            if thinking_level != "off" and R() < 0.55:
                blocks.append(thinking_block())
            if R() < 0.6:
                blocks.append({"type": "text", "text": prose_text(randint(30, 500))})
            calls = [make_tool_call() for _ in range(1 if R() < 0.7 else randint(2, 4))]
            blocks.extend(c for c, _ in calls)
            assistant(blocks, "toolUse")
            for c, name in calls:
                tool_result(c, name)
        blocks = []
        if thinking_level != "off" and R() < 0.4:
            blocks.append(thinking_block())
        blocks.append({"type": "text", "text": prose_text(randint(80, 1_800))})
        r = R()
        assistant(blocks, "stop" if r < 0.97 else ("aborted" if r < 0.99 else "length"))

    def system_message(ts: int) -> dict:
        tools = "\n".join(
            f"- {n}: {d}"
            for n, d in [
                ("read", "Read file contents"),
                ("bash", "Execute bash commands (ls, grep, find, etc.)"),
                ("edit", "Make precise file edits with exact text replacement, including multiple disjoint edits in one call"),
                ("write", "Create or overwrite files"),
                ("grep", "Search file contents"),
                ("find", "Find files by glob pattern"),
            ]
        )
        return {
            "role": "system",
            "content": "",
            "sections": {
                "preamble": "You are a coding assistant running inside pi, a coding agent harness. Help users inspect files, run commands, and modify code.",
                "tools": f"<tools>\n{tools}\n\nAdditional tools may be available.\n</tools>",
                "rules": "<rules>\n- Use read to examine files instead of cat or sed.\n- Use edit for targeted changes. Batch changes to one file in a single call.\n- Use write only for new files or complete rewrites.\n- Be concise in your responses\n- Show file paths clearly when working with files\n</rules>",
                "project_context": '<project_context>\nProject-specific instructions and guidelines:\n\n<project_instructions path="'
                + CWD
                + '/AGENTS.md">\n'
                + prose_text(1_500)
                + "\n</project_instructions>\n</project_context>",
                "cwd": f"<cwd>\n{CWD}\n</cwd>",
            },
            "timestamp": ts,
        }

    # ------------------------------------------------------------------ episodes
    def do_branch() -> None:
        # move the leaf back to the end of an earlier turn (5..400 entries back)
        n = len(path_ids)
        candidates = [i for i in range(max(0, n - 400), n - 5) if path_kinds[i] == "assistant_stop"]
        if not candidates:
            return
        target = choice(candidates)
        old_leaf = path_ids[-1]
        del path_ids[target + 1 :], path_kinds[target + 1 :], path_bytes[target + 1 :]
        while compactions_on_path and compactions_on_path[-1][0] > target:
            compactions_on_path.pop()
        stats["branches"] += 1
        tick(10_000, 120_000)
        if R() < 0.4:
            stats["branch_summaries"] += 1
            e = base("branch_summary")
            fs = rng.sample(files, 4)
            e["fromId"] = old_leaf
            e["summary"] = (
                "The user explored a different conversation branch before returning here.\nSummary of that exploration:\n\n## Goal\n"
                + prose_text(randint(300, 1_500))
                + f"\n\n<read-files>\n{fs[0]}\n{fs[1]}\n</read-files>\n\n<modified-files>\n{fs[2]}\n{fs[3]}\n</modified-files>"
            )
            e["details"] = {"readFiles": sorted(fs[:2]), "modifiedFiles": sorted(fs[2:])}
            e["fromHook"] = False
            emit(e, "branch_summary")

    def do_compaction() -> None:
        n = len(path_ids)
        lo = max(context_start() + 1, n - 80)
        kept = [i for i in range(lo, n - 8) if path_kinds[i] == "user"]
        if not kept:
            return
        first_kept = choice(kept)
        tick(30_000, 120_000)
        stats["compactions"] += 1
        tokens_before = min(context_tokens(), 199_000) + randint(0, 5_000)
        fs = rng.sample(files, 7)
        e = base("compaction")
        e["summary"] = (
            "## Goal\n"
            + prose_text(randint(300, 900))
            + "\n\n## Progress\n### Done\n"
            + "\n".join(f"- [x] {prose_text(randint(40, 160))}" for _ in range(randint(3, 9)))
            + "\n\n## Next Steps\n1. "
            + prose_text(randint(80, 300))
            + "\n\n<read-files>\n"
            + "\n".join(sorted(fs[:3]))
            + "\n</read-files>\n\n<modified-files>\n"
            + "\n".join(sorted(fs[3:]))
            + "\n</modified-files>"
        )
        e["firstKeptEntryId"] = path_ids[first_kept]
        e["tokensBefore"] = tokens_before
        e["details"] = {"readFiles": sorted(fs[:3]), "modifiedFiles": sorted(fs[3:])}
        out_tokens = randint(600, 2_000)
        p = MODELS[model_idx]
        cost_in, cost_out = tokens_before * p[3] / 1e6, out_tokens * p[4] / 1e6
        e["usage"] = {
            "input": tokens_before,
            "output": out_tokens,
            "cacheRead": 0,
            "cacheWrite": 0,
            "totalTokens": tokens_before + out_tokens,
            "cost": {
                "input": js_num(cost_in),
                "output": js_num(cost_out),
                "cacheRead": 0,
                "cacheWrite": 0,
                "total": js_num(cost_in + cost_out),
            },
        }
        e["fromHook"] = False
        e["systemMessage"] = {**system, "timestamp": clock}  # pi copies the path's current system message
        idx = len(path_ids)
        emit(e, "compaction")
        compactions_on_path.append((idx, first_kept))

    def do_context_edit() -> None:
        start = context_start()
        n = len(path_ids)
        for _ in range(12):
            i = randint(start, n - 1)
            kind = path_kinds[i]
            if kind in ("user", "assistant", "assistant_stop", "toolResult", "custom_message"):
                break
        else:
            return
        tick(1_000, 20_000)
        stats["context_edits"] += 1
        e = base("context_edit")
        e["targetId"] = path_ids[i]
        if R() < 0.35:
            e["replacement"] = None
        else:
            text = "[trimmed] " + prose_text(randint(30, 200))
            e["replacement"] = {"content": text if kind in ("user", "custom_message") else [{"type": "text", "text": text}]}
        emit(e, "context_edit", context_bytes=False)

    def do_label() -> None:
        tick(1_000, 30_000)
        e = base("label")
        if labelled and R() < 0.25:
            e["targetId"] = labelled.pop(randint(0, len(labelled) - 1))
            stats["label_clears"] += 1
        else:
            target = all_ids[randint(max(0, len(all_ids) - 3_000), len(all_ids) - 1)]
            e["targetId"] = target
            e["label"] = choice(LABELS)
            labelled.append(target)
            stats["labels"] += 1
        emit(e, "label", context_bytes=False)

    def do_misc() -> None:
        nonlocal model_idx, thinking_level
        r = R()
        if r < 0.22:
            tick(1_000, 20_000)
            model_idx = (model_idx + randint(1, len(MODELS) - 1)) % len(MODELS)
            e = base("model_change")
            e["provider"], e["modelId"] = MODELS[model_idx][:2]
            emit(e, "model_change", context_bytes=False)
        elif r < 0.40:
            tick(500, 10_000)
            thinking_level = choice([t for t in THINKING_LEVELS if t != thinking_level])
            e = base("thinking_level_change")
            e["thinkingLevel"] = thinking_level
            emit(e, "thinking_level_change", context_bytes=False)
        elif r < 0.60:
            do_label()
        elif r < 0.78:
            do_context_edit()
        elif r < 0.86:
            tick(5_000, 60_000)
            e = base("message")
            exit_code = 0 if R() < 0.8 else 1
            e["message"] = {
                "role": "bashExecution",
                "command": choice(["git status --short", "git log --oneline -20", "npm test", "ls -la src"]),
                "output": code_text(tool_result_size()),
                "exitCode": exit_code,
                "cancelled": False,
                "truncated": False,
                "timestamp": clock,
            }
            emit(e, "bashExecution")
        elif r < 0.91:
            tick(100, 2_000)
            b = base("custom")  # pi writes custom entries as type, customType, data, id, parentId, timestamp
            data = {"items": [{"id": k, "text": prose_text(randint(20, 80)), "done": R() < 0.5} for k in range(randint(1, 6))]}
            e = {
                "type": "custom",
                "customType": choice(["todo", "plan-mode", "git-guard"]),
                "data": data,
                "id": b["id"],
                "parentId": b["parentId"],
                "timestamp": b["timestamp"],
            }
            emit(e, "custom", context_bytes=False)
        elif r < 0.96:
            tick(100, 2_000)
            e = {
                "type": "custom_message",
                "customType": choice(["git-guard", "reminder", "ci-status"]),
                "content": prose_text(randint(40, 400)),
                "display": R() < 0.8,
                "details": {"source": "extension", "n": randint(1, 99)},
            }
            b = base("custom_message")
            e["id"], e["parentId"], e["timestamp"] = b["id"], b["parentId"], b["timestamp"]
            emit(e, "custom_message")
        else:
            tick(100, 2_000)
            provider, model = MODELS[model_idx][:2]
            e = base("usage")
            e["kind"], e["provider"], e["model"], e["usage"] = "cache_warm", provider, model, usage(1)
            emit(e, "usage", context_bytes=False)

    # ------------------------------------------------------------------ write
    rand_a, rand_b = rng.getrandbits(12), rng.getrandbits(62)  # a UUIDv7 like pi's session ids
    session_id = f"{START_MS >> 16:08x}-{START_MS & 0xFFFF:04x}-7{rand_a:03x}-{0x8000 | (rand_b >> 48):04x}-{rand_b & 0xFFFFFFFFFFFF:012x}"
    header = {"type": "session", "version": 3, "id": session_id, "timestamp": iso(clock), "cwd": CWD}
    line = dumps(header) + b"\n"
    out.write(line)
    total_bytes += len(line)

    system = system_message(clock + 1_000)
    next_branch = branch_every * (0.5 + R())
    next_compaction = compaction_every * (0.5 + R())
    next_name = randint(5, 60)
    try:
        if entries > 0:
            e = base("model_change")
            e["provider"], e["modelId"] = MODELS[0][:2]
            emit(e, "model_change", context_bytes=False)
            tick(100, 900)
            e = base("thinking_level_change")
            e["thinkingLevel"] = thinking_level
            emit(e, "thinking_level_change", context_bytes=False)
            tick(100, 900)
            e = base("message")
            e["message"] = system
            emit(e, "system")
            while True:
                turn()
                if count >= next_name:
                    tick(1_000, 10_000)
                    e = base("session_info")
                    e["name"] = choice(SESSION_NAMES)
                    emit(e, "session_info", context_bytes=False)
                    next_name = count + randint(15_000, 40_000)
                if count >= next_compaction:
                    do_compaction()
                    next_compaction = count + compaction_every * (0.5 + R())
                if count >= next_branch:
                    do_branch()
                    next_branch = count + branch_every * (0.5 + R())
                while R() < 0.25:
                    do_misc()
    except _Done:
        pass
    finally:
        out.close()
    stats.update(entries=count, bytes=total_bytes, seconds=round(time.perf_counter() - t0, 2))
    return stats


def add_source_arguments(parser: argparse.ArgumentParser) -> None:
    """The benchmarks' common options: a generated session of --entries, or --file."""
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--file", type=Path, help="benchmark this file instead of generating one")
    parser.add_argument("--repeat", type=int, default=3)


def source_path(args: argparse.Namespace) -> Path:
    """--file, or the generated session of --entries (written once, then reused from the temp folder)."""
    if args.file is not None:
        return args.file
    import tempfile

    path = Path(tempfile.gettempdir()) / f"pibrowser-bench-{args.entries}.jsonl"
    if not path.exists():
        start = time.perf_counter()
        generate(path, entries=args.entries, seed=0)
        print(f"generated {path.name} in {time.perf_counter() - start:.1f} s")
    return path


def generate_siblings(path: str | Path, children: int = 1_000_000, seed: int = 0) -> dict:
    """The stress case: one root (a user message) with ``children`` replies to it, each a
    short user message, timestamps a millisecond apart, written the way pi writes them."""
    t0 = time.perf_counter()
    rng = random.Random(seed)
    dumps = orjson.dumps
    root = f"{rng.getrandbits(32):08x}"
    total_bytes = 0
    with open(path, "wb", buffering=1 << 20) as out:

        def write(entry: dict) -> None:
            nonlocal total_bytes
            line = dumps(entry) + b"\n"
            out.write(line)
            total_bytes += len(line)

        write({"type": "session", "version": 3, "id": f"{rng.getrandbits(128):032x}", "timestamp": iso(START_MS), "cwd": CWD})
        for index in range(children + 1):
            ms = START_MS + index
            text = "the root" if index == 0 else f"sibling {index}"
            message = {"role": "user", "content": text, "timestamp": ms}
            key = root if index == 0 else f"{index:08x}"
            write({"type": "message", "id": key, "parentId": None if index == 0 else root, "timestamp": iso(ms), "message": message})
    return {"entries": children + 1, "bytes": total_bytes, "seconds": round(time.perf_counter() - t0, 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write a large synthetic pi session file (format v3) for benchmarks.")
    parser.add_argument("out", type=Path, help="output .jsonl path")
    parser.add_argument("--entries", type=int, default=100_000, help="number of entries after the header (default 100000)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (same seed, same file)")
    parser.add_argument("--branch-every", type=int, default=4_000, help="average entries between branches")
    parser.add_argument("--compaction-every", type=int, default=3_000, help="average entries between compactions")
    parser.add_argument("--siblings", type=int, metavar="N", help="instead: one root with N children (the stress case)")
    args = parser.parse_args(argv)
    if args.siblings is not None:
        stats = generate_siblings(args.out, children=args.siblings, seed=args.seed)
        print(f"wrote {args.out}: {stats['entries']} entries, {stats['bytes'] / 1e6:.1f} MB in {stats['seconds']} s")
        return 0
    stats = generate(args.out, entries=args.entries, seed=args.seed, branch_every=args.branch_every, compaction_every=args.compaction_every)
    print(f"wrote {args.out}: {stats['entries']} entries, {stats['bytes'] / 1e6:.1f} MB in {stats['seconds']} s")
    print(", ".join(f"{k}={v}" for k, v in stats.items() if k not in ("entries", "bytes", "seconds")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
