// pi's own answers for a session file, from pi's own code: the differential check's oracle.
//
//   node pi_answers.mjs PI_PACKAGE_DIR context FILE    one line, the current leaf's: what `pibrowser context FILE` prints
//   node pi_answers.mjs PI_PACKAGE_DIR contexts FILE   one line per entry in file order:
//                                                     JSON.stringify({leaf, ...buildSessionContext})
//   node pi_answers.mjs PI_PACKAGE_DIR estimates FILE  {id: estimateProjectedContextTokens(...).tokens}
//   node pi_answers.mjs PI_PACKAGE_DIR branches FILE   {id: entries createBranchedSession(id) writes | null},
//                                                     label entries with id and parentId null
//   node pi_answers.mjs PI_PACKAGE_DIR tree FILE       {filter mode: [[id, display indent, connector, gutters], ...]}:
//                                                     the rows of pi's /tree selector, connector 0 none, 1 ├─, 2 └─
//
// PI_PACKAGE_DIR is the installed @earendil-works/pi-coding-agent package (version 1.6.0).
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [packageDir, mode, file] = process.argv.slice(2);
const load = (relative) => import(pathToFileURL(join(packageDir, relative)).href);
const { SessionManager } = await load("dist/core/session-manager.js");

function entryIds(manager) {
  return manager.getEntries().map((entry) => entry.id);
}

function contexts() {
  const manager = SessionManager.open(file);
  const lines = [];
  for (const id of entryIds(manager)) {
    manager.branch(id);
    lines.push(JSON.stringify({ leaf: id, ...manager.buildSessionContext() }));
  }
  return lines.join("\n") + (lines.length ? "\n" : "");
}

function context() {
  const manager = SessionManager.open(file);
  return JSON.stringify({ leaf: manager.getLeafId(), ...manager.buildSessionContext() }) + "\n";
}

async function estimates() {
  const { estimateProjectedContextTokens } = await load("dist/core/compaction/compaction.js");
  const manager = SessionManager.open(file);
  const answers = {};
  for (const id of entryIds(manager)) {
    manager.branch(id);
    answers[id] = estimateProjectedContextTokens(manager.buildSessionProjection(), manager.getBranch()).tokens;
  }
  return JSON.stringify(answers) + "\n";
}

function branches() {
  const answers = {};
  const original = readFileSync(file);
  for (const id of entryIds(SessionManager.open(file))) {
    // A fresh manager per branch, writing into a scratch folder: the original stays as it was.
    const scratch = mkdtempSync(join(tmpdir(), "pi-branch-"));
    try {
      const manager = SessionManager.open(file, scratch);
      const written = manager.createBranchedSession(id);
      // pi writes the file only once the path holds an assistant reply.
      answers[id] = existsSync(written) ? readFileSync(written, "utf8").trimEnd().split("\n").slice(1).map(mintedAsNull) : null;
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  if (!readFileSync(file).equals(original)) throw new Error("the original file changed");
  return JSON.stringify(answers) + "\n";
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
  const manager = SessionManager.open(file);
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
}

const modes = { context, contexts, estimates, branches, tree };
if (!modes[mode]) {
  process.stderr.write(`unknown mode ${mode}\n`);
  process.exit(2);
}
process.stdout.write(await modes[mode]());
