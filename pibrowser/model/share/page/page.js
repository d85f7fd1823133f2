"use strict";
// The shared page's script. It follows tables pibrowser worked out (model/share): the rows of
// each filter, each node's context as a step from its parent's, the comparison, trace and files.
// It decides none of pi's rules. Session text only ever becomes text (textContent), never markup.
(() => {
  const $ = (id) => document.getElementById(id);
  const make = (tag, cls, text) => {
    const el = document.createElement(tag);
    if (cls) el.className = cls;
    if (text !== undefined) el.textContent = text;
    return el;
  };
  const D = JSON.parse($("data").textContent);
  const N = D.ids.length;
  // The messages come after this script in the page: a chunk is read once the browser has read it
  // whole (the next one has begun, or the document is done).
  const chunks = new Array(D.chunkStarts.length);
  let complete = document.readyState !== "loading";
  const NOT_YET = { notYet: true };
  function chunk(index) {
    if (!chunks[index]) {
      const el = document.getElementById("c" + index);
      if (document.readyState !== "loading") complete = true;
      if (!el || !(complete || document.getElementById("c" + (index + 1)))) throw NOT_YET;
      chunks[index] = JSON.parse(el.textContent);
    }
    return chunks[index];
  }
  const nodeOf = new Map();
  D.ids.forEach((id, node) => { if (!nodeOf.has(id)) nodeOf.set(id, node); });
  const stepAt = new Int32Array(N);
  for (let node = 0, at = 0; node < N; node++) { stepAt[node] = at; at += 2 + D.steps[at + 1]; }
  const labels = new Map(D.labels);
  // The nodes are numbered depth first, so a node's subtree is the nodes from it to it + size - 1:
  // "on the selected path" is then a comparison, not a set of up to 100,000 ancestors per click.
  const size = new Int32Array(N).fill(1);
  for (let node = N - 1; node > 0; node--) if (D.parent[node] >= 0) size[D.parent[node]] += size[node];
  const onPath = (node) => node <= selected && selected < node + size[node];
  const ROW = 20, TRACE_ROW = 18;

  // ---- blocks: each message's text, read a chunk at a time when first needed --------------------
  function chunkOf(block) {
    let low = 0, high = D.chunkStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (D.chunkStarts[mid] <= block) low = mid; else high = mid - 1;
    }
    return [chunk(low), block - D.chunkStarts[low]];
  }
  const blockText = (block) => { const [c, at] = chunkOf(block); return c[0][at]; };

  // ---- a node's context: its parent's first `keep` blocks, then its own ------------------------
  const cache = new Map();
  function contextBlocks(node) {
    const chain = [];
    let base = null;
    for (let at = node; at >= 0; at = D.parent[at]) {
      if (cache.has(at)) { base = cache.get(at); break; }
      chain.push(at);
      if (D.steps[stepAt[at]] === 0) break;
    }
    const list = base ? base.slice() : [];
    for (let k = chain.length - 1; k >= 0; k--) {
      const at = stepAt[chain[k]], keep = D.steps[at], count = D.steps[at + 1];
      if (keep >= 0) list.length = keep;
      for (let a = 0; a < count; a++) list.push(D.steps[at + 2 + a]);
    }
    cache.set(node, list);
    if (cache.size > 16) cache.delete(cache.keys().next().value);
    return list;
  }

  function withMarks(parent, text) {
    // «redacted: KIND» stands out; the text stays the same.
    const marker = /«redacted: [^»\n]*»/g;
    let last = 0, found;
    while ((found = marker.exec(text)) !== null) {
      if (found.index > last) parent.append(text.slice(last, found.index));
      parent.append(make("span", "redacted", found[0]));
      last = found.index + found[0].length;
    }
    if (last < text.length) parent.append(text.slice(last));
  }

  function card(block, text, own) {
    const [c, at] = chunkOf(block);
    const el = make("div", "msg r-" + c[1][at] + (own ? " own" : ""));
    el.dataset.block = block;
    if (c[4][at] !== undefined) el.dataset.edit = c[4][at];  // shown by the style sheet, outside the text
    const end = text.indexOf("\n");
    const title = end < 0 ? text : text.slice(0, end + 1);
    const head = make("span", "mt");
    if (title.startsWith("--- ")) { head.append(make("span", "dash", "--- ")); head.append(title.slice(4)); } else head.append(title);
    el.append(head);
    if (end >= 0) withMarks(el, text.slice(end + 1));
    for (const uri of c[3][at] || []) {
      const img = make("img");
      img.alt = "";
      img.src = uri;
      el.append(img);
    }
    return el;
  }

  // A context shows its last cards at once (the leaf's end is what is looked at) and the ones above
  // in batches after; `data-pending` is on the view until every card is in, and then its text is
  // the whole context's.
  const FIRST_CARDS = 40, BATCH = 400;
  let drawing = 0, waiting = -1;
  function showContext(node) {
    const view = $("context");
    const generation = ++drawing;
    let blocks, first;
    try {
      blocks = contextBlocks(node);
      first = Math.max(0, blocks.length - FIRST_CARDS);
      for (let k = first; k < blocks.length; k++) blockText(blocks[k]);  // the chunks the first paint needs
    } catch (error) {
      if (error !== NOT_YET) {
        delete view.dataset.pending;
        view.replaceChildren(make("div", "empty", "This page's messages could not be read: " + error));
        throw error;
      }
      waiting = node;
      view.dataset.pending = "1";
      view.replaceChildren(make("div", "empty", "Reading the messages of this page…"));
      return;
    }
    waiting = -1;
    const total = blocks.length;
    const id = (D.idText && D.idText[node]) || D.ids[node];
    let settings = D.settings[D.setting[node]];
    if (!total && D.settingsCut[D.setting[node]] !== undefined) settings = settings.slice(0, D.settingsCut[D.setting[node]]);
    const head = make("div", "ctxhead", "== leaf " + id + ": " + total + (total === 1 ? " message, " : " messages, ") + settings + "\n");
    const cardAt = (k) => {
      const block = blocks[k];
      let text = blockText(block);
      if (k === total - 1) text = text.slice(0, D.blockTail[block] !== undefined ? D.blockTail[block] : text.length - 1);
      const [c, at] = chunkOf(block);
      return card(block, text, c[2][at] === node);
    };
    // header, then "\n" before each card, then a blank line (as the command prints it)
    let from = first;
    const tail = [];
    for (let k = from; k < total; k++) tail.push("\n", cardAt(k));
    tail.push(total ? "\n\n" : "\n");
    view.replaceChildren(head, ...tail);
    view.scrollTop = view.scrollHeight;
    if (!from) { delete view.dataset.pending; return; }
    view.dataset.pending = "1";
    const more = () => {
      if (generation !== drawing) return;
      const atBottom = view.scrollHeight - view.scrollTop - view.clientHeight < 4;
      const before = view.scrollHeight;
      const start = Math.max(0, from - BATCH), parts = [];
      try {
        for (let k = start; k < from; k++) parts.push("\n", cardAt(k));
      } catch (error) {
        if (error !== NOT_YET) throw error;
        setTimeout(more, 100);  // the rest of the page is still being read
        return;
      }
      head.after(...parts);
      from = start;
      view.scrollTop = atBottom ? view.scrollHeight : view.scrollTop + view.scrollHeight - before;
      if (from) setTimeout(more, 0);
      else delete view.dataset.pending;
    };
    requestAnimationFrame(() => setTimeout(more, 0));  // after the first paint
  }

  // ---- the outline: pi's /tree rows under the filter on, drawn only where they show ------------
  const outline = $("outline"), rowsEl = $("rows");
  let filter = 0, F = null, rowOf = new Int32Array(N), kids = null, firstKid = null;
  let selected = D.shared >= 0 ? D.shared : D.leaf, hits = new Set();
  const pool = [];

  function useFilter(index) {
    filter = index;
    F = D.outline.filters[index];
    rowOf.fill(-1);
    F.rows.forEach((node, row) => { rowOf[node] = row; });
    kids = new Int32Array(F.rows.length);
    firstKid = new Int32Array(F.rows.length).fill(-1);
    F.up.forEach((up, row) => { if (up >= 0) { kids[up]++; if (firstKid[up] < 0) firstKid[up] = row; } });
    rowsEl.style.height = F.rows.length * ROW + "px";
    for (const button of $("filters").children) button.setAttribute("aria-pressed", String(Number(button.dataset.index) === index));
    status();
    reveal(selected);
    draw();
  }

  function shownRow(node) {
    for (let at = node; at >= 0; at = D.parent[at]) if (rowOf[at] >= 0) return rowOf[at];
    return -1;
  }

  function draw() {
    const top = outline.scrollTop, height = outline.clientHeight || 600;
    const first = Math.max(0, Math.floor(top / ROW) - 8), last = Math.min(F.rows.length, Math.ceil((top + height) / ROW) + 8);
    const selRow = shownRow(selected);
    let used = 0;
    for (let row = first; row < last; row++, used++) {
      let el = pool[used];
      if (!el) { el = make("div", "row"); pool.push(el); rowsEl.append(el); }
      const node = F.rows[row];
      el.hidden = false;
      el.style.transform = "translateY(" + row * ROW + "px)";
      el.dataset.row = row;
      el.dataset.id = D.ids[node];
      el.className = "row" + (row === selRow ? " sel" : onPath(node) ? " onpath" : "") + (hits.has(node) ? " hit" : "");
      const parts = [make("span", "rail", D.outline.prefixes[F.prefix[row]])];
      parts.push(make("span", "t k-" + D.kinds[D.kind[node]], D.titles[node]));
      if (labels.has(node)) parts.push(make("span", "lab", "  [" + labels.get(node) + "]"));
      if (node === D.leaf) parts.push(make("span", "leafmark", "  ← leaf"));
      el.replaceChildren(...parts);
      el.title = D.ids[node];
    }
    for (let k = used; k < pool.length; k++) pool[k].hidden = true;
  }

  function reveal(node) {
    const row = shownRow(node);
    if (row < 0) return;
    const top = row * ROW, height = outline.clientHeight || 600;
    if (top < outline.scrollTop) outline.scrollTop = Math.max(0, top - height / 3);
    else if (top + ROW > outline.scrollTop + height) outline.scrollTop = top - (2 * height) / 3;
  }

  function select(node, how = {}) {
    if (node < 0 || node >= N) return;
    selected = node;
    if (!how.keepHash) history.replaceState(null, "", "#entry=" + encodeURIComponent(D.ids[node]));
    reveal(node);
    draw();
    showPanel();
    status();
  }

  rowsEl.addEventListener("click", (event) => {
    const el = event.target.closest(".row");
    if (el) select(F.rows[Number(el.dataset.row)]);
    outline.focus({ preventScroll: true });
  });
  outline.addEventListener("scroll", () => draw(), { passive: true });
  window.addEventListener("resize", () => { draw(); drawTrace(); });

  // ---- keys: pi's /tree keys on the outline ----------------------------------------------------
  function moveRow(step) {
    const count = F.rows.length;
    if (!count) return;
    const row = shownRow(selected);
    select(F.rows[(((row < 0 ? 0 : row + step) % count) + count) % count]);
  }
  const page = () => Math.max(1, Math.floor(outline.clientHeight / ROW) - 1);
  function branchUp(row) {
    let at = row;
    while (F.up[at] >= 0) {
      if (at !== row && kids[F.up[at]] > 1) return at;
      at = F.up[at];
    }
    return at;
  }
  function branchDown(row) {
    let at = row;
    while (kids[at] > 0) {
      if (kids[at] > 1) return firstKid[at];
      at = firstKid[at];
    }
    return at;
  }
  document.addEventListener("keydown", (event) => {
    if (event.target === $("search")) {
      if (event.key === "Enter") runSearch($("search").value);
      if (event.key === "Escape") { $("search").value = ""; runSearch(""); outline.focus(); }
      return;
    }
    const chord = event.ctrlKey || event.altKey || event.metaKey;
    const letter = event.key.length === 1 ? event.key.toLowerCase() : "";
    const command = chord && letter ? D.outline.keys[(event.shiftKey ? "shift+" : "") + letter] : undefined;
    if (command) {
      const next = D.outline.commands[F.mode][command];
      useFilter(D.outline.filters.findIndex((f) => f.mode === next));
      event.preventDefault();
      return;
    }
    const row = shownRow(selected);
    let done = true;
    if ((event.ctrlKey || event.altKey) && event.key === "ArrowLeft" && row >= 0) select(F.rows[branchUp(row)]);
    else if ((event.ctrlKey || event.altKey) && event.key === "ArrowRight" && row >= 0) select(F.rows[branchDown(row)]);
    else if (chord) done = false;
    else if (event.key === "ArrowUp") moveRow(-1);
    else if (event.key === "ArrowDown") moveRow(1);
    else if (event.key === "ArrowLeft" || event.key === "PageUp") moveRow(-Math.min(page(), Math.max(row, 1)));
    else if (event.key === "ArrowRight" || event.key === "PageDown") moveRow(Math.min(page(), Math.max(F.rows.length - 1 - row, 1)));
    else if (event.key === "Home" && row >= 0) { let at = row; while (F.up[at] >= 0) at = F.up[at]; select(F.rows[at]); }
    else if (event.key === "End" && D.leaf >= 0) select(D.leaf);
    else done = false;
    if (done) event.preventDefault();
  });

  // ---- search over the messages' text ----------------------------------------------------------
  let pendingSearch = null;
  function runSearch(query) {
    const results = $("results");
    hits = new Set();
    const words = query.toLowerCase().trim();
    if (!words) { results.hidden = true; $("hits").textContent = ""; draw(); return; }
    if (!complete) { $("hits").textContent = "reading the page…"; pendingSearch = query; return; }
    for (let c = 0; c < chunks.length; c++) {
      const [texts, , owners] = chunk(c);
      for (let k = 0; k < texts.length; k++) if (owners[k] >= 0 && texts[k].toLowerCase().includes(words)) hits.add(owners[k]);
    }
    D.titles.forEach((title, node) => { if (title.toLowerCase().includes(words) || (labels.get(node) || "").toLowerCase().includes(words)) hits.add(node); });
    const found = [...hits].sort((a, b) => a - b);
    $("hits").textContent = found.length + (found.length === 1 ? " hit" : " hits");
    const list = found.slice(0, 1000).map((node) => {
      const el = make("div", "k-" + D.kinds[D.kind[node]], D.ids[node] + "  " + D.titles[node]);
      el.dataset.node = node;
      return el;
    });
    if (found.length > 1000) list.push(make("div", "empty", "… " + (found.length - 1000) + " more"));
    results.replaceChildren(...list);
    results.hidden = false;
    draw();
  }
  $("results").addEventListener("click", (event) => {
    const el = event.target.closest("[data-node]");
    if (el) select(Number(el.dataset.node));
  });

  // ---- the other views: compare, trace, files ---------------------------------------------------
  const TABS = [["context", "Context"], ["compare", "Compare"], ["trace", "Trace"], ["files", "Files"]];
  let tab = "context";
  function showTab(name) {
    tab = name;
    for (const [key] of TABS) $(key).hidden = key !== name;
    for (const button of $("tabs").children) button.setAttribute("aria-selected", String(button.dataset.tab === name));
    showPanel();
  }
  function showPanel() {
    if (tab === "context") showContext(selected);
    else if (tab === "trace") drawTrace();
  }
  function linkTo(id) {
    const a = make("a", "", id);
    a.addEventListener("click", () => { if (nodeOf.has(id)) { showTab("context"); select(nodeOf.get(id)); } });
    return a;
  }
  function buildCompare() {
    const view = $("compare");
    if (!D.compare) { view.replaceChildren(make("div", "empty", "No comparison in this page: share with --compare LEFT RIGHT (or from the window while comparing).")); return; }
    const classes = { "-": "c-minus", "+": "c-plus", "~": "c-tilde", "=": "c-same" };
    const lines = D.compare.lines.map((line) => {
      const head = line.startsWith("---") || line.startsWith("+++") || line.startsWith("@@");
      const el = make("div", head ? "c-head" : classes[line[0]] || "");
      if (line[0] === "~") {
        const marks = /\[-([\s\S]*?)-\]|\{\+([\s\S]*?)\+\}/g;
        let last = 0, found;
        while ((found = marks.exec(line)) !== null) {
          if (found.index > last) el.append(line.slice(last, found.index));
          el.append(make(found[1] !== undefined ? "del" : "ins", "", found[0]));
          last = found.index + found[0].length;
        }
        if (last < line.length) el.append(line.slice(last));
      } else el.textContent = line;
      return el;
    });
    const pick = make("div", "c-head");
    pick.append("left ", linkTo(D.ids[D.compare.left]), "   right ", linkTo(D.ids[D.compare.right]));
    view.replaceChildren(pick, ...lines);
  }
  // The trace: a header row, one row per entry of the shared path, then the totals (drawn where they show).
  const traceView = $("trace"), traceRows = $("tracerows"), tracePool = [];
  const traceLines = () => 1 + D.trace.rows.length + 1 + D.trace.totals.length + (D.trace.first ? 1 : 0);
  function traceLine(el, k) {
    const rows = D.trace.rows;
    el.className = "line";
    if (k === 0) { el.classList.add("th"); fillCells(el, ["entry", ...D.trace.columns]); return; }
    if (k <= rows.length) {
      fillCells(el, [D.trace.entries[k - 1], ...rows[k - 1]]);
      if (D.trace.entries[k - 1] === D.ids[selected]) el.classList.add("sel");
      if (/ERROR: /.test(rows[k - 1][rows[k - 1].length - 1])) el.classList.add("err");
      return;
    }
    el.classList.add("tot");
    const at = k - rows.length - 2;
    if (at === D.trace.totals.length) {
      el.replaceChildren("The path's last whole runs, from its entry " + (D.trace.first + 1) + " on (runs numbered from there); pibrowser trace FILE --leaf ID traces the whole path.");
      return;
    }
    el.replaceChildren(k === rows.length + 1 ? "" : D.trace.totals[at]);
  }
  function fillCells(el, cells) {
    el.replaceChildren(...cells.map((cell, c) => make("span", "c" + c, cell)));
  }
  function drawTrace() {
    if (tab !== "trace") return;
    const count = traceLines();
    traceRows.style.height = count * TRACE_ROW + "px";
    const top = traceView.scrollTop, height = traceView.clientHeight || 600;
    const first = Math.max(0, Math.floor(top / TRACE_ROW) - 8), last = Math.min(count, Math.ceil((top + height) / TRACE_ROW) + 8);
    let used = 0;
    for (let k = first; k < last; k++, used++) {
      let el = tracePool[used];
      if (!el) { el = make("div", "line"); tracePool.push(el); traceRows.append(el); }
      el.hidden = false;
      el.style.transform = "translateY(" + k * TRACE_ROW + "px)";
      el.dataset.line = k;
      traceLine(el, k);
    }
    for (let k = used; k < tracePool.length; k++) tracePool[k].hidden = true;
  }
  traceView.addEventListener("scroll", () => drawTrace(), { passive: true });
  traceRows.addEventListener("click", (event) => {
    const el = event.target.closest(".line");
    const id = el ? D.trace.entries[Number(el.dataset.line) - 1] : undefined;
    if (id !== undefined && nodeOf.has(id)) select(nodeOf.get(id));
  });
  function buildFiles() {
    const view = $("files"), parts = [];
    for (const [title, list] of [["Modified", D.files.modified], ["Read", D.files.read]]) {
      parts.push(make("h3", "", title + " (" + list.length + ")"));
      if (!list.length) parts.push(make("div", "empty", "none"));
      for (const [path, calls] of list) {
        const line = make("div", "", path + "  ");
        calls.forEach(([op, id], k) => { line.append((k ? ", " : "") + op + " in "); line.append(linkTo(id)); });
        parts.push(line);
      }
    }
    view.replaceChildren(...parts);
  }

  // ---- the bar, the status line, links -----------------------------------------------------------
  function status() {
    const bits = [N + " entries", (F ? F.title + " filter, " + F.hidden + " hidden" : "")];
    if (selected >= 0) bits.push("selected " + D.ids[selected]);
    if (D.redactions) bits.push(D.redactions);
    bits.push("shared with pibrowser: opens offline, fetches nothing");
    $("status").textContent = bits.filter(Boolean).join(" · ");
  }
  $("title").textContent = D.title;
  $("title").title = D.file;
  D.outline.filters.forEach((f, index) => {
    const button = make("button", "", f.title);
    button.type = "button";
    button.title = f.description;
    button.dataset.index = index;
    button.addEventListener("click", () => useFilter(index));
    $("filters").append(button);
  });
  for (const [key, title] of TABS) {
    const button = make("button", "", title);
    button.type = "button";
    button.dataset.tab = key;
    button.setAttribute("role", "tab");
    button.addEventListener("click", () => showTab(key));
    $("tabs").append(button);
  }
  $("theme").addEventListener("click", () => {
    const dark = document.documentElement.dataset.theme ? document.documentElement.dataset.theme === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
    document.documentElement.dataset.theme = dark ? "light" : "dark";
  });
  function fromHash() {
    const found = /(?:^#|&)entry=([^&]*)/.exec(location.hash);
    if (!found) return false;
    let id;
    try { id = decodeURIComponent(found[1]); } catch (error) { return false; }
    if (!nodeOf.has(id)) return false;
    select(nodeOf.get(id), { keepHash: true });
    return true;
  }
  window.addEventListener("hashchange", () => fromHash());
  const whenRead = () => {
    complete = true;
    if (waiting >= 0 && tab === "context") showContext(waiting);
    if (pendingSearch !== null) runSearch(pendingSearch);
    pendingSearch = null;
  };
  document.addEventListener("DOMContentLoaded", whenRead);
  window.addEventListener("load", () => { if (waiting >= 0 || pendingSearch !== null) whenRead(); });

  buildCompare();
  buildFiles();
  useFilter(0);
  showTab("context");
  if (!fromHash() && selected >= 0) select(selected, { keepHash: true });
  outline.focus({ preventScroll: true });
  document.body.dataset.ready = String(performance.now());
})();
