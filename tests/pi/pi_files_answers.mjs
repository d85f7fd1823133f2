// pi 1.6.0's own answers for file lists and token estimates, per entry of a session file.
//
//   node pi_files_answers.mjs PI_DIR FILE [files]      one NDJSON line per entry, in file order:
//       {"id", "read_files", "modified_files"}
//       = computeFileLists over extractFileOpsFromMessage(entry.message) for every `message`
//         entry of getBranch(id) (root first), all other entry types ignored.
//   node pi_files_answers.mjs PI_DIR FILE estimates    one NDJSON line per entry, in file order:
//       {"id", "tokens": [estimateTokens(m) for m in buildSessionContext().messages],
//        "roles": [m.role ...], "current_system_tokens": estimateTokens(getCurrentSystemMessage(messages)) | null,
//        "estimated_total": current_system_tokens + sum(tokens of non-system messages),
//        "projected": estimateProjectedContextTokens(projection, getBranch())}
//   node pi_files_answers.mjs PI_DIR FILE composition  like `estimates`, plus character counts:
//       {"id", "current_system": {tokens, chars, parts} | null, "messages": [{role, tokens, chars, parts}]}
//       chars is recovered from pi's own estimateTokens (ceil(chars/4)) by appending 1..4 probe
//       characters; parts splits a message by kind (the kinds of pibrowser/model/tokens/message_tokens.py), each part measured
//       the same way on a copy of the message holding only that part. The script checks that the
//       parts add up to chars and that ceil(chars/4) == tokens, and exits 1 if not.
//
// PI_DIR is the installed @earendil-works/pi-coding-agent package (version 1.6.0).
// The session file is never touched: pi's loader appends a missing final newline and rewrites
// migrated (v1/v2) files in place, so the file is copied to a scratch folder and opened there.
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

// node pi_files_answers.mjs PI_DIR --each MODE FILE...: the same for each FILE in one process (pi's
// modules load once), one line per file: a JSON array of its lines, or {"error"} where pi throws on it.
const [packageDir, first, ...rest] = process.argv.slice(2);
const each = first === "--each";
const mode = rest[0] ?? "files";
const files = each ? rest.slice(1) : [first];
if (!packageDir || !first) {
  process.stderr.write("usage: node pi_files_answers.mjs PI_DIR (FILE [MODE] | --each MODE FILE...)  MODE: files|estimates|composition\n");
  process.exit(2);
}
const load = (relative) => import(pathToFileURL(join(packageDir, relative)).href);
const { SessionManager } = await load("dist/core/session-manager.js");
const { computeFileLists, createFileOps, extractFileOpsFromMessage } = await load("dist/core/compaction/utils.js");
const { estimateTokens, estimateProjectedContextTokens } = await load("dist/core/compaction/compaction.js");

// pi-ai is a dependency of the coding agent; find it the way Node would from the package folder.
async function loadPiAi() {
  let dir = packageDir;
  for (;;) {
    const candidate = join(dir, "node_modules", "@earendil-works", "pi-ai", "dist", "index.js");
    if (existsSync(candidate)) return import(pathToFileURL(candidate).href);
    const sibling = join(dir, "..", "pi-ai", "dist", "index.js"); // hoisted: node_modules/@earendil-works/pi-ai
    if (existsSync(sibling)) return import(pathToFileURL(sibling).href);
    const parent = dirname(dir);
    if (parent === dir) throw new Error("cannot find @earendil-works/pi-ai next to " + packageDir);
    dir = parent;
  }
}

function openCopy(file) {
  const scratch = mkdtempSync(join(tmpdir(), "pi-files-"));
  const copy = join(scratch, basename(file));
  copyFileSync(file, copy);
  return { manager: SessionManager.open(copy, scratch), scratch };
}

function* entryIds(manager) {
  for (const entry of manager.getEntries()) yield entry.id;
}

function fileLists(manager) {
  const out = [];
  for (const id of entryIds(manager)) {
    const fileOps = createFileOps();
    for (const entry of manager.getBranch(id)) {
      if (entry.type === "message") extractFileOpsFromMessage(entry.message, fileOps);
    }
    const { readFiles, modifiedFiles } = computeFileLists(fileOps);
    out.push(JSON.stringify({ id, read_files: readFiles, modified_files: modifiedFiles }));
  }
  return out;
}

// ---- characters, recovered from pi's estimateTokens ------------------------------------------
const probeText = (k) => "x".repeat(k);
function padded(message, k) {
  const x = probeText(k);
  switch (message.role) {
    case "user":
    case "custom":
    case "toolResult":
      return typeof message.content === "string"
        ? { ...message, content: message.content + x }
        : { ...message, content: [...message.content, { type: "text", text: x }] };
    case "assistant":
      return { ...message, content: [...message.content, { type: "text", text: x }] };
    case "system":
      return { ...message, sections: { ...(message.sections ?? {}), "\u0000probe": x } };
    case "bashExecution":
      return { ...message, output: message.output + x };
    case "branchSummary":
    case "compactionSummary":
      return { ...message, summary: message.summary + x };
  }
  return undefined;
}
/** The character count estimateTokens divides by 4, from pi's own function: ceil((c+k)/4) first exceeds ceil(c/4) at k = 4*ceil(c/4) - c + 1. */
function charsOf(message) {
  const tokens = estimateTokens(message);
  for (let k = 1; k <= 4; k++) {
    const probe = padded(message, k);
    if (!probe) return null;
    if (estimateTokens(probe) > tokens) return 4 * tokens - k + 1;
  }
  throw new Error("probe failed for role " + message.role);
}

// Kind of a content block inside a message of a role; null = not counted by estimateTokens.
function blockKind(role, block, message) {
  if (typeof block !== "object" || block === null) return null;
  if (role === "assistant") {
    if (block.type === "text") return "assistant_text";
    if (block.type === "thinking") return "thinking";
    if (block.type === "toolCall") return `tool_call:${block.name}`;
    return null;
  }
  const prefix = { user: "user", custom: "custom", system: "system", toolResult: `tool_result:${message.toolName}` }[role];
  if (block.type === "text") return role === "toolResult" ? prefix : `${prefix}_text`;
  if (block.type === "image") return role === "toolResult" ? `tool_result_image:${message.toolName}` : `${prefix}_image`;
  return null;
}

function parts(message) {
  const result = {};
  const add = (kind, chars) => (result[kind] = (result[kind] ?? 0) + chars);
  switch (message.role) {
    case "user":
    case "custom":
    case "toolResult":
    case "assistant":
    case "system": {
      const content = message.content;
      if (typeof content === "string") {
        const kind = { user: "user_text", custom: "custom_text", toolResult: `tool_result:${message.toolName}`, system: "system_text", assistant: null }[message.role];
        if (kind) add(kind, charsOf({ ...message, content, sections: undefined, toolsAdded: undefined }));
      } else {
        const byKind = new Map();
        for (const block of content) {
          const kind = blockKind(message.role, block, message);
          if (kind === null) continue;
          if (!byKind.has(kind)) byKind.set(kind, []);
          byKind.get(kind).push(block);
        }
        for (const [kind, blocks] of byKind) {
          const only = message.role === "system" ? { ...message, content: blocks, sections: undefined, toolsAdded: undefined } : { ...message, content: blocks };
          add(kind, charsOf(only));
        }
      }
      if (message.role === "system") {
        if (message.sections) add("system_sections", charsOf({ ...message, content: "", toolsAdded: undefined }));
        if (message.toolsAdded) add("system_tools", charsOf({ ...message, content: "", sections: undefined }));
      }
      return result;
    }
    case "bashExecution":
      add("bash_execution", charsOf(message));
      return result;
    case "branchSummary":
      add("branch_summary", charsOf(message));
      return result;
    case "compactionSummary":
      add("compaction_summary", charsOf(message));
      return result;
  }
  return result;
}

let failures = 0;
function measured(message) {
  const tokens = estimateTokens(message);
  const chars = charsOf(message);
  const split = parts(message);
  if (chars !== null) {
    const sum = Object.values(split).reduce((a, b) => a + b, 0);
    if (sum !== chars || Math.ceil(chars / 4) !== tokens) {
      failures++;
      process.stderr.write(`mismatch: role ${message.role} tokens ${tokens} chars ${chars} parts ${JSON.stringify(split)}\n`);
    }
  }
  return { role: message.role, tokens, chars, parts: split };
}

async function estimates(manager, withComposition) {
  const { getCurrentSystemMessage } = await loadPiAi();
  const out = [];
  for (const id of entryIds(manager)) {
    manager.branch(id);
    const projection = manager.buildSessionProjection();
    const messages = projection.messages; // === buildSessionContext().messages
    const tokens = messages.map((m) => estimateTokens(m));
    const system = getCurrentSystemMessage(messages);
    const systemTokens = system ? estimateTokens(system) : null;
    const estimatedTotal = (systemTokens ?? 0) + messages.reduce((sum, m, i) => sum + (m.role === "system" ? 0 : tokens[i]), 0);
    const line = {
      id,
      roles: messages.map((m) => m.role),
      tokens,
      current_system_tokens: systemTokens,
      estimated_total: estimatedTotal,
      projected: estimateProjectedContextTokens(projection, manager.getBranch()),
    };
    if (withComposition) {
      line.current_system = system ? measured(system) : null;
      line.messages = messages.map(measured);
    }
    out.push(JSON.stringify(line));
  }
  return out;
}

async function answer(file) {
  const { manager, scratch } = openCopy(file);
  try {
    if (mode === "files") return fileLists(manager);
    if (mode === "estimates") return await estimates(manager, false);
    if (mode === "composition") return await estimates(manager, true);
    process.stderr.write(`unknown mode ${mode}\n`);
    process.exit(2);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

for (const file of files) {
  if (!each) {
    const lines = await answer(file);
    process.stdout.write(lines.join("\n") + (lines.length ? "\n" : ""));
    continue;
  }
  // One file pi throws on answers {"error": "Name: message"} in place of its array of lines.
  let written;
  try {
    written = "[" + (await answer(file)).join(",") + "]";
  } catch (error) {
    written = JSON.stringify({ error: `${error.name}: ${error.message}` });
  }
  process.stdout.write(written + "\n");
}
if (failures) {
  process.stderr.write(`${failures} composition mismatches\n`);
  process.exit(1);
}
