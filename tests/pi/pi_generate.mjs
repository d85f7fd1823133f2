// Write random sessions through pi's own SessionManager: the differential check's inputs.
//
//   node pi_generate.mjs PI_PACKAGE_DIR OUT_DIR SEED COUNT
//
// Each session is a random walk of pi's own operations (messages of every role, branching with and
// without a summary, compactions, context edits, labels set and cleared, model and thinking-level
// changes, names, custom entries), with usage numbers in the spellings real sessions carry.
// Prints the written files' paths, one per line. The same seed writes the same operations.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [packageDir, outDir, seedText, countText] = process.argv.slice(2);
const { SessionManager } = await import(pathToFileURL(join(packageDir, "dist/core/session-manager.js")).href);

let state = Number(seedText) >>> 0 || 1;
function random() {
  // xorshift32: reproducible across runs and machines.
  state ^= state << 13;
  state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5;
  state >>>= 0;
  return state / 2 ** 32;
}
// pi stamps entries with the wall clock; a fake one that runs at a random pace, and now and then
// jumps back, gives siblings distinct, equal and out-of-order times, as long sessions have.
let clock = Date.UTC(2026, 9, 30, 9, 0, 0);
const RealDate = Date;
globalThis.Date = class extends RealDate {
  constructor(...args) {
    super(...(args.length ? args : [clock]));
  }
  static now() {
    return clock;
  }
};
function tick() {
  const roll = random();
  clock += roll < 0.3 ? 0 : roll < 0.95 ? Math.floor(random() * 300000) : -Math.floor(random() * 3600000);
}

const pick = (items) => items[Math.floor(random() * items.length)];
const words = ["read", "the", "config", "日本語", "fix", "tests", "😀", "path/to/file.ts", "<b>bold</b>", "é", "\t", "quote\"d"];
const text = (n = 1 + Math.floor(random() * 12)) => Array.from({ length: n }, () => pick(words)).join(" ");
const odd = () => pick([0.0000375, 4.1e-6, 2, 1e21, 123.5, 0, 1e-7, 0.1 + 0.2, 17, 2 ** 53 + 2]);

function usage() {
  return { input: Math.floor(random() * 5000), output: Math.floor(random() * 900), cacheRead: 0, cacheWrite: 0,
    totalTokens: Math.floor(random() * 6000), cost: { input: odd(), output: odd(), cacheRead: 0, cacheWrite: 0, total: odd() } };
}

const messages = {
  user: () => ({ role: "user", content: random() < 0.5 ? text() : [{ type: "text", text: text() }], timestamp: Date.now() }),
  assistant: () => ({ role: "assistant", content: [
      ...(random() < 0.3 ? [{ type: "thinking", thinking: text() }] : []),
      { type: "text", text: text() },
      ...(random() < 0.4 ? [{ type: "toolCall", id: `call_${Math.floor(random() * 1e6)}`, name: pick(["read", "bash", "edit"]), arguments: { path: text(1), n: odd() } }] : []),
    ], api: "anthropic-messages", provider: pick(["anthropic", "openai"]), model: pick(["claude-sonnet-4-5", "gpt-5.1-codex"]),
    usage: usage(), stopReason: "stop", timestamp: Date.now() }),
  toolResult: () => ({ role: "toolResult", toolCallId: `call_${Math.floor(random() * 1e6)}`, toolName: pick(["read", "bash"]),
    content: [{ type: "text", text: text() }], isError: random() < 0.2, details: random() < 0.5 ? { lines: odd() } : undefined, timestamp: Date.now() }),
  bashExecution: () => ({ role: "bashExecution", command: text(3), output: text(), exitCode: 0, cancelled: false, truncated: false, timestamp: Date.now() }),
  system: () => ({ role: "system", content: text(), timestamp: Date.now() }),
};

function step(manager) {
  const ids = manager.getEntries().map((entry) => entry.id);
  const branch = manager.getBranch();
  const roll = random();
  if (roll < 0.45 || ids.length === 0) return manager.appendMessage(messages[pick(["user", "assistant", "assistant", "toolResult", "bashExecution", "system"])]());
  if (roll < 0.55) return manager.branch(pick(ids));
  if (roll < 0.59) return manager.branchWithSummary(pick(ids), random() < 0.8 ? text() : "", undefined, random() < 0.5, undefined);
  if (roll < 0.64 && branch.length > 1) {
    return manager.appendCompaction(text(), pick(branch).id, Math.floor(random() * 90000), random() < 0.5 ? { files: [text(1)] } : undefined, random() < 0.3, random() < 0.5 ? usage() : undefined);
  }
  if (roll < 0.70) {
    const editable = branch.filter((entry) => entry.type === "custom_message" || (entry.type === "message" && ["user", "assistant", "toolResult"].includes(entry.message.role)));
    if (editable.length) return manager.appendContextEdit(pick(editable).id, random() < 0.3 ? null : { content: random() < 0.5 ? text() : [{ type: "text", text: text() }] });
  }
  if (roll < 0.77) return manager.appendLabelChange(pick(ids), random() < 0.75 ? text(2) : undefined);
  if (roll < 0.80) return manager.appendModelChange(pick(["anthropic", "openai"]), pick(["claude-opus-4", "gpt-5"]));
  if (roll < 0.83) return manager.appendThinkingLevelChange(pick(["off", "low", "high"]));
  if (roll < 0.86) return manager.appendSessionInfo(random() < 0.8 ? ` ${text(3)} ` : "");
  if (roll < 0.91) return manager.appendCustomMessageEntry("note", random() < 0.5 ? text() : [{ type: "text", text: text() }], random() < 0.5, random() < 0.5 ? { n: odd() } : undefined);
  if (roll < 0.94) return manager.appendCustomEntry("state", { n: odd() });
  if (roll < 0.96) return manager.resetLeaf();
  return manager.appendUsage("side", "openai", "gpt-5", usage(), random() < 0.5 ? text(2) : undefined);
}

const count = Number(countText);
for (let index = 0; index < count; index++) {
  const manager = SessionManager.create(`/home/user/project-${index % 3}`, outDir);
  manager.appendMessage(messages.user());
  const steps = 5 + Math.floor(random() * 120);
  for (let n = 0; n < steps; n++) {
    tick();
    step(manager);
  }
}
for (const name of readdirSync(outDir).sort()) if (name.endsWith(".jsonl")) console.log(join(outDir, name));
