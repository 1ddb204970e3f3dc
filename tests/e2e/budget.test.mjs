// The size guard: what the page downloads before the editor's own chunk
// (html, css, js, wasm), gzipped, must stay under 480 KB (issue 38: a guard,
// not the goal; what a visitor waits for is measured beside it, in
// perf.test.mjs: the first result over 10 Mbit/s and 40 ms round trips).
// It was 480 KB until classes (the manifest reader, automatic parameter
// lookup and the Classes view, +26.9 KB) came in at 482.4 KB: the first
// result then came 18 ms later over that network, at 0.99 s of the 1.5 s
// the page allows itself (docs/performance.md). Review (the data reviewed
// over the document's nodes, as hiera-lookup lint does) took it from 487.8
// to 515.9 KB; the first result came at 1.000 s against 1.003 s for the
// build before, measured in one run. The tour (lessons fetched when it
// opens; their panel, checks and links in the page) took it to 526.9 KB
// (527.3 KB with lesson embeds and the compact embed mode): 1.020 s
// against 1.000 s for the build before Review and the tour. A minimal
// example of a lookup (the reduction, its button, the link in Report it)
// took it to 532.8 KB: the first result at 1.101 s against 0.997 s for the
// build before this session's changes, measured in one run. With 540 KB as
// the guard since, cutting the page's module at build time (wasm-split-cli,
// web/src/chunks.rs: the views most visits do not open, and the engine's code
// only they reach, fetched when first shown) took it from 534.7 to 469.2 KB,
// and the guard back to 480 KB (docs/performance.md has the times).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdir, readFile, stat } from "node:fs/promises";
import { gzipSync } from "node:zlib";
import path from "node:path";
import { ROOT } from "./helpers.mjs";

const BUDGET = 480 * 1024;
// Loaded later (the editor, the eyaml tools, the Nodes and All keys panels,
// with their styles, when opened),
// only for documents that use eyaml or HOCON (backends/), when a zip or a
// folder is opened or a zip made (extras/), when chosen (examples/, facts/,
// the tour's lessons/),
// the parts of the page's module cut off by wasm-split-cli when a view first needs
// them (app-HASH/split_NAME.wasm, with chunk_N.wasm, code two of them share),
// or not by the page at all.
const LATER = /^app-[0-9a-f]+\/(split|chunk)_[^/]+\.wasm$/;
const NOT_COUNTED = new Set(["blocks.html", "codemirror.js", "demo.html", "embed.js", "sw.js"]);
const NOT_COUNTED_DIRS = new Set(["backends", "facts", "extras", "lessons"]);

async function files(dir) {
  const out = [];
  for (const name of await readdir(dir)) {
    const p = path.join(dir, name);
    if ((await stat(p)).isDirectory()) {
      if (name !== "examples") out.push(...(await files(p)));
    } else out.push(p);
  }
  return out;
}

test("the page is under 480 KB gzipped before the editor arrives", async () => {
  const dist = `${ROOT}dist`;
  let total = 0;
  const sizes = [];
  for (const f of await files(dist)) {
    const name = path.relative(dist, f);
    const gz = gzipSync(await readFile(f), { level: 9 }).length;
    if (NOT_COUNTED.has(name) || NOT_COUNTED_DIRS.has(name.split(path.sep)[0]) || LATER.test(name)) {
      sizes.push(`${name} ${(gz / 1024).toFixed(1)} KB (not counted)`);
      continue;
    }
    total += gz;
    sizes.push(`${name} ${(gz / 1024).toFixed(1)} KB`);
  }
  console.log(`gzipped: ${sizes.join(", ")}; counted total ${(total / 1024).toFixed(1)} KB of ${BUDGET / 1024} KB`);
  assert.ok(total <= BUDGET, `the page is ${(total / 1024).toFixed(1)} KB gzipped, over the ${BUDGET / 1024} KB budget`);
});
