// pi's own answers for a session file, from pi's own code: the differential check's oracle.
//
//   node pi_answers.mjs PI_PACKAGE_DIR context FILE    one line, the current leaf's: what `pibrowser context FILE` prints
//   node pi_answers.mjs PI_PACKAGE_DIR contexts FILE   one line per entry in file order:
//                                                     JSON.stringify({leaf, ...buildSessionContext})
//   node pi_answers.mjs PI_PACKAGE_DIR expected FILE   {leaf, name, labels: {id: label}, tree: [{id, label, children}],
//                                                     contexts: {"__default__" | id: buildSessionContext}}: a
//                                                     fixture's *.expected.json (tests/fixtures/README.md)
//   node pi_answers.mjs PI_PACKAGE_DIR estimates FILE  {id: REP of estimateProjectedContextTokens(...).tokens}
//   node pi_answers.mjs PI_PACKAGE_DIR branches FILE   {id: entries createBranchedSession(id) writes | null},
//                                                     label entries with id and parentId null
//   node pi_answers.mjs PI_PACKAGE_DIR usage FILE.json  FILE.json: a JSON array of usage values, any shapes.
//                                                     One object per value: {calculateContextTokens: REP, gt0,
//                                                     trusted, usageTokens: REP (when trusted)} where trusted is
//                                                     what getAssistantUsage decided (through estimateContextTokens
//                                                     on one assistant message), or {error} where pi throws
//   node pi_answers.mjs PI_PACKAGE_DIR migrate FILE OUT  the bytes pi leaves in FILE once it has opened it
//                                                     (header check, newline repair, migration and rewrite),
//                                                     written to OUT; prints {opened, error, rewritten}. Ids pi
//                                                     mints come out 00000001, 00000002, ... in minting order.
//   node pi_answers.mjs PI_PACKAGE_DIR list DIR        SessionManager.listAll(DIR): the order /resume lists
//                                                     one folder's sessions in, one path per line
//   node pi_answers.mjs PI_PACKAGE_DIR tree FILE       {filter mode: [[id, display indent, connector, gutters], ...]}:
//                                                     the rows of pi's /tree selector, connector 0 none, 1 ├─, 2 └─
//   node pi_answers.mjs PI_PACKAGE_DIR MODE --each FILE...   MODE's answer for each FILE in one process (pi's
//                                                     modules load once): one line per file, the answer as a JSON string,
//                                                     or {"error": "Name: message"} where pi throws on that file
//   node pi_answers.mjs PI_PACKAGE_DIR treekeys FILE   {filters: {filter mode: {command: the mode its key leaves}},
//                                                     moves: {filter mode: [[id, Ctrl+← target | null, Ctrl+→ target], ...]}}:
//                                                     pi's /tree filter keys (commands named as pi's app.tree.filter.*
//                                                     bindings) from each mode, and where Ctrl+← and Ctrl+→ take
//                                                     the selection from each row (null where Ctrl+← folds instead)
//
// REP keeps what JSON.stringify would lose: {"type": typeof v, "value": v (not for numbers, whose
// String(v) says it exactly, NaN and Infinity too), "string": String(v)}.
//
// pi's SessionManager rewrites a file it opens (an old format is migrated, a missing final newline
// added): every mode opens a scratch copy, never FILE itself.
//
// PI_PACKAGE_DIR is the installed @earendil-works/pi-coding-agent package (version 1.6.0).
import crypto from "node:crypto";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire, syncBuiltinESMExports } from "node:module";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [packageDir, mode, ...rest] = process.argv.slice(2);
let [file, output] = rest;
const load = (relative) => import(pathToFileURL(join(packageDir, relative)).href);

if (mode === "migrate") {
  // pi's generateId slices crypto.randomUUID (a live binding of the builtin module): a counter
  // instead, set before pi's modules load, so ids can be matched by position.
  let minted = 0;
  crypto.randomUUID = () => `${(++minted).toString(16).padStart(8, "0")}-0000-4000-8000-000000000000`;
  syncBuiltinESMExports();
}
const { SessionManager } = await load("dist/core/session-manager.js");

/** Run `work` on a scratch copy of FILE (in a scratch folder, also given to pi as its session folder). */
function onCopy(work) {
  const scratch = mkdtempSync(join(tmpdir(), "pi-answers-"));
  try {
    const copy = join(scratch, basename(file));
    copyFileSync(file, copy);
    return work(copy, scratch);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function openCopy(work) {
  return onCopy((copy, scratch) => work(SessionManager.open(copy, scratch)));
}

function entryIds(manager) {
  return manager.getEntries().map((entry) => entry.id);
}

function rep(value) {
  const out = { type: typeof value };
  if (typeof value !== "number") out.value = value;
  out.string = String(value);
  return out;
}

function attempt(work) {
  try {
    return work();
  } catch (error) {
    return { error: `${error.name}: ${error.message}` };
  }
}

function contexts() {
  return openCopy((manager) => {
      const lines = [];
      for (const id of entryIds(manager)) {
        manager.branch(id);
        lines.push(JSON.stringify({ leaf: id, ...manager.buildSessionContext() }));
      }
      return lines.join("\n") + (lines.length ? "\n" : "");
    });
  }

  function context() {
    return openCopy((manager) => JSON.stringify({ leaf: manager.getLeafId(), ...manager.buildSessionContext() }) + "\n");
  }

  // A fixture's answers file: the tree and labels as pi's SessionManager gives them, and every context.
  function expected() {
    return openCopy((manager) => {
      const treeOf = (node) => ({ id: node.entry.id, label: node.label ?? null, children: node.children.map(treeOf) });
      const labels = {};
      for (const id of entryIds(manager)) {
        const label = manager.getLabel(id);
        if (label !== undefined) labels[id] = label;
      }
      const leaf = manager.getLeafId();
      const contexts = { __default__: manager.buildSessionContext() };
      for (const id of entryIds(manager)) {
        manager.branch(id);
        contexts[id] = manager.buildSessionContext();
      }
      const name = manager.getSessionName() ?? null;
      return JSON.stringify({ leaf, name, labels, tree: manager.getTree().map(treeOf), contexts }) + "\n";
    });
  }

  async function estimates() {
    const { estimateProjectedContextTokens } = await load("dist/core/compaction/compaction.js");
    return openCopy((manager) => {
      const answers = {};
      for (const id of entryIds(manager)) {
        manager.branch(id);
        answers[id] = attempt(() => rep(estimateProjectedContextTokens(manager.buildSessionProjection(), manager.getBranch()).tokens));
      }
      return JSON.stringify(answers) + "\n";
    });
  }

  async function usage() {
    const { calculateContextTokens, estimateContextTokens } = await load("dist/core/compaction/compaction.js");
    const values = JSON.parse(readFileSync(file, "utf8"));
    const answers = values.map((value) => {
      const answer = {
        calculateContextTokens: attempt(() => rep(calculateContextTokens(value))),
        gt0: attempt(() => calculateContextTokens(value) > 0),
      };
      const estimate = attempt(() => estimateContextTokens([{ role: "assistant", content: [], usage: value, stopReason: "stop", timestamp: 0 }]));
      answer.trusted = estimate.error ? estimate : estimate.lastUsageIndex === 0;
      if (answer.trusted === true) answer.usageTokens = rep(estimate.usageTokens);
      return answer;
    });
    return JSON.stringify(answers) + "\n";
  }

  function migrate() {
    let rewritten = false;
    const rewrite = SessionManager.prototype._rewriteFile;
    SessionManager.prototype._rewriteFile = function (...rest) {
      rewritten = true;
      return rewrite.apply(this, rest);
    };
    return onCopy((copy, scratch) => {
      let error = null;
      try {
        SessionManager.open(copy, scratch);
      } catch (thrown) {
        error = `${thrown.name}: ${thrown.message}`.split(copy).join(resolve(file));
      }
      writeFileSync(output, readFileSync(copy));
      return JSON.stringify({ opened: error === null, error, rewritten }) + "\n";
    });
  }

  async function list() {
    // listAll(DIR) reads the files without opening them through a SessionManager: nothing is written.
    const sessions = await SessionManager.listAll(resolve(file));
    return sessions.map((session) => session.path + "\n").join("");
  }

  function branches() {
    return onCopy((copy, folder) => {
      const answers = {};
      const ids = entryIds(SessionManager.open(copy, folder));
      const opened = readFileSync(copy); // as pi left it (an old format is rewritten on opening)
      for (const id of ids) {
        // A fresh manager per branch, writing into a scratch folder.
        const scratch = mkdtempSync(join(tmpdir(), "pi-branch-"));
        try {
          const manager = SessionManager.open(copy, scratch);
          const written = manager.createBranchedSession(id);
          // pi writes the file only once the path holds an assistant reply.
          answers[id] = existsSync(written) ? readFileSync(written, "utf8").trimEnd().split("\n").slice(1).map(mintedAsNull) : null;
        } finally {
          rmSync(scratch, { recursive: true, force: true });
        }
      }
      if (!readFileSync(copy).equals(opened)) throw new Error("the session file changed");
      return JSON.stringify(answers) + "\n";
    });
  }

  // Label entries get random ids from pi; the answers hold null there, as the fixtures do.
  function mintedAsNull(line) {
    const entry = JSON.parse(line);
    return entry.type === "label" ? { ...entry, id: null, parentId: null } : entry;
  }

  // The rows pi's /tree selector shows under each filter mode, in its order, with its indentation and rails.
  async function tree() {
    const { initTheme } = await load("dist/modes/interactive/theme/theme.js");
    const { TreeSelectorComponent } = await load("dist/modes/interactive/components/tree-selector.js");
    initTheme("dark");
    return openCopy((manager) => {
    const answers = {};
    for (const mode of ["default", "no-tools", "user-only", "labeled-only", "all"]) {
      const selector = new TreeSelectorComponent(manager.getTree(), manager.getLeafId(), 40, () => {}, () => {}, () => {}, undefined, mode);
      const list = selector.getTreeList();
      answers[mode] = list.filteredNodes.map((row) => [
        row.node.entry.id,
        list.multipleRoots ? Math.max(0, row.indent - 1) : row.indent,
        row.showConnector && !row.isVirtualRootChild ? (row.isLast ? 2 : 1) : 0,
        row.gutters.map((gutter) => [gutter.position, gutter.show]),
      ]);
    }
    return JSON.stringify(answers) + "\n";
  });
}

// What pi's /tree keys do: the filter each filter key leaves, and each row's Ctrl+← and Ctrl+→ moves.
async function treekeys() {
  const { initTheme } = await load("dist/modes/interactive/theme/theme.js");
  const { TreeSelectorComponent } = await load("dist/modes/interactive/components/tree-selector.js");
  const { KeybindingsManager } = await load("dist/core/keybindings.js");
  // pi's own key bindings at their defaults (no user file), set in the pi-tui module its selector reads.
  const tui = await import(pathToFileURL(createRequire(join(packageDir, "package.json")).resolve("@earendil-works/pi-tui")).href);
  tui.setKeybindings(new KeybindingsManager());
  initTheme("dark");
  // The terminal's bytes for pi's default keys (keybindings.js); Shift+Ctrl+O in the kitty protocol.
  const filterKeys = {
    default: "\x04", noTools: "\x14", userOnly: "\x15", labeledOnly: "\x0c", all: "\x01",
    cycleForward: "\x0f", cycleBackward: "\x1b[111;6u",
  };
  const [foldOrUp, unfoldOrDown] = ["\x1b[1;5D", "\x1b[1;5C"];
  return openCopy((manager) => {
    const listIn = (mode) =>
      new TreeSelectorComponent(manager.getTree(), manager.getLeafId(), 40, () => {}, () => {}, () => {}, undefined, mode).getTreeList();
    const idAt = (list) => list.filteredNodes[list.selectedIndex].node.entry.id;
    const filters = {};
    const moves = {};
    for (const mode of ["default", "no-tools", "user-only", "labeled-only", "all"]) {
      filters[mode] = {};
      for (const [command, key] of Object.entries(filterKeys)) {
        const list = listIn(mode);
        list.handleInput(key);
        filters[mode][command] = list.filterMode;
      }
      const list = listIn(mode);
      const ids = list.filteredNodes.map((row) => row.node.entry.id);
      moves[mode] = ids.map((id, index) => {
        list.selectedIndex = index;
        list.handleInput(foldOrUp);
        const folded = list.foldedNodes.size > 0;
        const up = folded ? null : idAt(list);
        if (folded) {
          list.foldedNodes.clear();
          list.applyFilter();
        }
        list.selectedIndex = index;
        list.handleInput(unfoldOrDown);
        if (list.filteredNodes.length !== ids.length) throw new Error("the rows changed");
        return [id, up, idAt(list)];
      });
    }
    return JSON.stringify({ filters, moves }) + "\n";
  });
}

const modes = { context, contexts, expected, estimates, branches, usage, migrate, list, tree, treekeys };
if (!modes[mode]) {
  process.stderr.write(`unknown mode ${mode}\n`);
  process.exit(2);
}
if (file === "--each") {
  for (const each of rest.slice(1)) {
    file = each;
    // A file pi throws on answers {error}, an object, where every other answer is a string.
    let answer;
    try {
      answer = await modes[mode]();
    } catch (error) {
      answer = { error: `${error.name}: ${error.message}` };
    }
    process.stdout.write(JSON.stringify(answer) + "\n");
  }
} else {
  process.stdout.write(await modes[mode]());
}
