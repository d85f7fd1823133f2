// Writes sort_cases.json: V8's own answers for pi's sort of siblings by timestamp.
//
// pi orders an entry's children with
//   children.sort((a, b) => new Date(a.timestamp).getTime() - new Date(b.timestamp).getTime())
// A timestamp that does not parse makes that difference NaN, so the order V8 gives
// depends on every step of its TimSort; pibrowser replays those steps
// (pibrowser/model/js/sort.py) and tests/test_js_sort.py checks it against these
// answers. Run with Node (any version whose V8 sorts with TimSort, 11+):
//   node tests/v8/sort_cases.mjs > tests/v8/sort_cases.json
// The cases are seeded, so running it again gives the same file. sort_rare_inputs.json
// adds inputs that reach the rarest steps of V8's merges, which random lists seldom do.

import { readFileSync } from "node:fs";
import { seeded } from "./random.mjs";

const random = seeded(20261203);
const below = (n) => Math.floor(random() * n);

// Times in seconds from a base; null stands for a timestamp that does not parse.
const SHAPES = {
  // scattered times with a few NaNs: short runs, binary insertion, ordinary merges
  scattered: (n, bad) => Array.from({ length: n }, () => (random() < bad ? null : below(n))),
  // long ascending and descending stretches: run detection, reversal, galloping
  runs: (n, bad) => {
    const out = [];
    while (out.length < n) {
      const length = 1 + below(90);
      const start = below(1000);
      const step = random() < 0.5 ? 1 : -1;
      for (let i = 0; i < length && out.length < n; i++) out.push(random() < bad ? null : start + step * i);
    }
    return out;
  },
  // two sorted halves interleaving in blocks: merge_low / merge_high with galloping
  blocks: (n, bad) => {
    const out = [];
    let low = 0, high = 0;
    while (out.length < n) {
      const length = 1 + below(30);
      const which = random() < 0.5;
      for (let i = 0; i < length && out.length < n; i++) {
        if (random() < bad) out.push(null);
        else out.push(which ? (low += 1 + below(3)) : (high += 1 + below(3)));
      }
    }
    return out;
  },
  // many equal times: stability and the "not less" sides of every comparison
  ties: (n, bad) => Array.from({ length: n }, () => (random() < bad ? null : below(4))),
  // sorted but for a NaN or two, at a random place
  almost: (n, bad) => Array.from({ length: n }, (_, i) => (random() < bad / 8 ? null : i)),
  // reversed with NaNs: one long descending run broken by them
  reversed: (n, bad) => Array.from({ length: n }, (_, i) => (random() < bad / 4 ? null : n - i)),
};

function v8Order(times) {
  const items = times.map((time, index) => ({
    index,
    timestamp: time === null ? "not a time" : new Date(Date.UTC(2026, 0, 1) + time * 1000).toISOString(),
  }));
  items.sort((a, b) => new Date(a.timestamp).getTime() - new Date(b.timestamp).getTime());
  return items.map((item) => item.index);
}

const cases = [];
for (const [shape, make] of Object.entries(SHAPES)) {
  for (const bad of [0.02, 0.1, 0.3]) {
    for (let k = 0; k < 6; k++) {
      const n = 64 + below(237);  // 64..300 siblings
      const times = make(n, bad);
      if (!times.includes(null)) times[below(n)] = null;  // always at least one NaN: the replayed path
      cases.push({ shape, times, order: v8Order(times) });
    }
  }
}
// A few longer lists, for the merge policy's deeper stacks of runs.
for (const n of [700, 1500, 3000]) {
  const times = SHAPES.runs(n, 0.05);
  cases.push({ shape: "runs", times, order: v8Order(times) });
}
const rare = JSON.parse(readFileSync(new URL("./sort_rare_inputs.json", import.meta.url), "utf8"));
for (const { reaches, times } of rare.inputs) cases.push({ shape: "rare", reaches, times, order: v8Order(times) });
process.stdout.write(JSON.stringify({ node: process.version, cases }) + "\n");
