// pi 1.6.0's own HTML export of a session file (exportFromFile, as `pi --export` runs it), for bench_share.py.
// Usage: node pi_export.mjs PI_PACKAGE_DIR SESSION.jsonl OUT.html
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const [packageDir, input, output] = process.argv.slice(2);
const { exportFromFile } = await import(pathToFileURL(join(packageDir, "dist", "core", "export-html", "index.js")).href);
await exportFromFile(input, output);
