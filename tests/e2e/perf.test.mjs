// Figures, not pass/fail: the time from a keystroke in the editor to every
// lookup re-evaluated and drawn, for every gallery example and for the
// shared bench's large preset (about 1,000 files, 2 MB), and the time from
// navigation to the first result with a cold cache, and the same over a
// throttled network (10 Mbit/s, 40 ms round trip, with the time Review then
// takes to show, its code fetched when first shown; PERF_DIST=DIR measures
// another build the same way, for a figure before and after a change).
import { after, before, test } from "node:test";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { ROOT, gotoReady, openPage, start } from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Types `n` characters at the end of the open file; resolves to each keystroke's
 * milliseconds, split where the time goes: `editor`, from the key to CodeMirror's
 * text updated (the browser's input handling and CodeMirror's); `app`, from there
 * to every result drawn again (the engine and the results' rendering); `total`,
 * from the key to the frame after the results changed, when they are on screen.
 */
async function keystrokes(page, n) {
  await page.evaluate(() => {
    if (window.__hp) {
      window.__hp.times = [];
      // The editor may be a new element since the last call.
      window.__hp.watchEditor();
      return;
    }
    window.__hp = { times: [], down: 0, edited: null };
    document.addEventListener("keydown", (e) => {
      window.__hp.down = e.timeStamp;
      window.__hp.edited = null;
    }, true);
    // Observers run in the order their changes came: CodeMirror's text before the
    // app, which hears of an edit once CodeMirror's update is done.
    const editor = new MutationObserver(() => {
      window.__hp.edited ??= performance.now() - window.__hp.down;
    });
    window.__hp.watchEditor = () => {
      editor.disconnect();
      editor.observe(document.querySelector("[data-testid=editor]"), { childList: true, subtree: true, characterData: true });
    };
    window.__hp.watchEditor();
    const root = document.querySelector("[data-revision]");
    new MutationObserver(() => {
      const { down, edited } = window.__hp;
      const drawn = performance.now() - down;
      // The frame after the change is when the result is on screen.
      requestAnimationFrame(() => window.__hp.times.push({ editor: edited ?? drawn, app: drawn - (edited ?? drawn), total: performance.now() - down }));
    }).observe(root, { attributes: true, attributeFilter: ["data-revision"] });
  });
  await page.locator("[data-testid=editor] .cm-content").click();
  await page.keyboard.press("Control+End");
  for (let i = 0; i < n; i++) {
    const before = await page.evaluate(() => window.__hp.times.length);
    await page.keyboard.type(i % 2 ? "#" : "\n");
    await page.waitForFunction((b) => window.__hp.times.length > b, before);
  }
  return page.evaluate(() => window.__hp.times);
}

/**
 * Keystrokes left out of the figures: the browser compiles the editor's and the
 * app's code over the first ones, and the first example measured without them took
 * half again as long in CodeMirror (8 to 10 ms) as when measured again later (5 to 6).
 */
const warmUp = (page) => keystrokes(page, 9);

/** Opens the last data file, where most examples keep their common data. */
async function openLastDataFile(page) {
  const paths = await page.$$eval("[data-testid=file-entry]", (els) => els.map((e) => e.dataset.path));
  const target = paths.filter((p) => p.endsWith(".yaml") && !p.endsWith("hiera.yaml")).pop() ?? paths[0];
  await page.locator(`[data-testid=file-entry][data-path="${target}"]`).click();
  await page.locator("[data-testid=editor] .cm-editor").waitFor();
}

/** The medians of `times`' parts, and "total (editor + app)" of them in ms. */
function medians(times) {
  const [total, editor, app] = ["total", "editor", "app"].map((part) => median(times.map((t) => t[part])));
  return { total, app, text: `${total.toFixed(1)} (${editor.toFixed(1)} + ${app.toFixed(1)})` };
}

test("keystroke to result, every gallery example", async () => {
  const index = (await readFile(`${ROOT}www/examples/index.txt`, "utf8")).split("\n").filter(Boolean);
  const { page, context } = await openPage(env.browser, env.server.url);
  await openLastDataFile(page);
  await warmUp(page);
  const figures = [];
  for (const file of index) {
    const previous = await page.locator("[data-testid=description]").innerText();
    await page.selectOption("[data-testid=gallery]", file);
    if (file !== "00-welcome.yaml") {
      await page.waitForFunction((p) => document.querySelector("[data-testid=description]")?.innerText !== p, previous);
    }
    await openLastDataFile(page);
    const times = await keystrokes(page, 9);
    figures.push({ file, ...medians(times) });
  }
  const worst = figures.reduce((a, b) => (b.total > a.total ? b : a));
  const apps = figures.map((f) => f.app);
  console.log(
    `keystroke to result on screen (median of 9, ms; in brackets the key to the editor's text, then to the results drawn): ` +
      `${figures.map((f) => `${f.file} ${f.text}`).join(", ")}; slowest ${worst.file} ${worst.total.toFixed(1)}; ` +
      `the app's share ${Math.min(...apps).toFixed(1)} to ${Math.max(...apps).toFixed(1)}`,
  );
  await context.close();
});

async function tree(dir, base = dir) {
  const out = [];
  for (const name of await readdir(dir)) {
    const p = path.join(dir, name);
    if ((await stat(p)).isDirectory()) out.push(...(await tree(p, base)));
    else out.push([path.relative(base, p), await readFile(p, "utf8")]);
  }
  return out;
}

test("keystroke to result on the large preset", { timeout: 300_000 }, async () => {
  const repo = `${ROOT}target/perf-repo-large`;
  if (!existsSync(`${repo}/keys.txt`)) {
    execFileSync("python3", [`${ROOT}tests/bench/gen-control-repo`, "--preset", "large", repo]);
  }
  const files = (await tree(repo)).filter(([p]) => p === "hiera.yaml" || p.startsWith("data/"));
  const facts = await readFile(`${repo}/facts.yaml`, "utf8");
  const keys = (await readFile(`${repo}/keys.txt`, "utf8")).split("\n").filter(Boolean).slice(0, 7);
  const indent = (t) => t.replace(/\n$/, "").split("\n").map((l) => (l ? `    ${l}` : l)).join("\n");
  const doc = [
    "description: The shared bench's large preset",
    "facts:",
    facts.replace(/^---\n/, "").split("\n").map((l) => (l ? `  ${l}` : l)).join("\n"),
    "files:",
    ...files.map(([p, t]) => `  ${JSON.stringify(p)}: |-\n${indent(t) || "    "}`),
    "lookups:",
    ...keys.map((k) => `  - key: ${JSON.stringify(k)}`),
  ].join("\n");
  const docPath = `${ROOT}target/perf-large.yaml`;
  await writeFile(docPath, doc);
  const { page, context } = await openPage(env.browser);
  // The start script (web/js/app.mjs) announces the wasm instance's exports, its memory among them.
  await page.addInitScript(() => addEventListener("playground-started", (e) => (window.__wasm = e.detail.wasm)));
  await gotoReady(page, env.server.url);
  const started = Date.now();
  await page.setInputFiles("[data-testid=open-case]", docPath);
  await page.waitForFunction((k) => document.querySelector("[data-testid=lookup-row]")?.dataset.key === k, keys[0], { timeout: 120_000 });
  const opened = Date.now() - started;
  const figures = [];
  // A node's own file (the usual edit), and common.yaml, the largest file (0.8 MB).
  const node = files.map(([p]) => p).find((p) => p.startsWith("data/nodes/")) ?? "data/common.yaml";
  const open = async (file) => {
    await page.locator(`[data-testid=file-entry][data-path="${file}"]`).click();
    await page.locator("[data-testid=editor] .cm-editor").waitFor();
  };
  await open(node);
  await warmUp(page);
  for (const file of [node, "data/common.yaml"]) {
    await open(file);
    const times = await keystrokes(page, 9);
    figures.push(`editing ${file}: median ${medians(times).text} ms (of ${times.map((t) => t.total.toFixed(0)).join(", ")})`);
  }
  console.log(`large preset (${files.length} files, ${(doc.length / 1e6).toFixed(1)} MB): opened in ${opened} ms; keystroke to result, ${figures.join("; ")}`);
  // Memory: the JS heap after a collection (DevTools protocol) and the wasm
  // instance's linear memory, with the preset open, then with the Nodes tab too.
  const cdp = await context.newCDPSession(page);
  const memory = async () => {
    await cdp.send("HeapProfiler.collectGarbage");
    const { usedSize } = await cdp.send("Runtime.getHeapUsage");
    const wasm = await page.evaluate(() => window.__wasm?.memory.buffer.byteLength ?? 0);
    return `JS heap ${(usedSize / 2 ** 20).toFixed(1)} MB + wasm memory ${(wasm / 2 ** 20).toFixed(1)} MB`;
  };
  const open_ = await memory();
  await page.locator("[data-testid=tab-nodes]").click();
  await page.locator("[data-testid=fleet-cell]").first().waitFor({ timeout: 60_000 });
  console.log(`large preset memory: ${open_} with it open; ${await memory()} with the Nodes tab on show too`);
  await context.close();
});

test("load: navigation to the first result, cold cache", async () => {
  const { page, context } = await openPage(env.browser);
  const t0 = Date.now();
  await gotoReady(page, env.server.url);
  const wall = Date.now() - t0;
  const paint = await page.evaluate(() => performance.now());
  console.log(`first result on screen ${wall} ms after navigation (page clock ${paint.toFixed(0)} ms, CodeMirror included)`);
  await context.close();
});

test("load over a throttled network (10 Mbit/s, 40 ms round trip): navigation to the first result, median of 5 cold loads", async () => {
  const { serve } = await import("./server.mjs");
  const builds = [["this build", env.server]];
  if (process.env.PERF_DIST) builds.push([process.env.PERF_DIST, await serve(process.env.PERF_DIST)]);
  for (const [name, server] of builds) {
    const times = [];
    const reviews = [];
    for (let i = 0; i < 5; i++) {
      const { page, context } = await openPage(env.browser);
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.emulateNetworkConditions", {
        offline: false,
        latency: 40,
        downloadThroughput: (10e6 / 8) | 0,
        uploadThroughput: (10e6 / 8) | 0,
      });
      const t0 = Date.now();
      await page.goto(server.url);
      await page.locator("[data-testid=lookup-row][data-status]").first().waitFor({ timeout: 30_000 });
      times.push(Date.now() - t0);
      // A view whose code is fetched when first shown (web/src/chunks.rs):
      // from the click to its first finding on screen.
      const t1 = Date.now();
      await page.click("[data-testid=tab-review]");
      await page.locator("[data-testid=review-finding]").first().waitFor({ timeout: 30_000 });
      reviews.push(Date.now() - t1);
      await context.close();
    }
    console.log(
      `${name}: first result ${median(times)} ms after navigation over 10 Mbit/s and 40 ms (median of ${times.join(", ")}); ` +
        `then Review, first shown, ${median(reviews)} ms after the click (median of ${reviews.join(", ")})`,
    );
    if (server !== env.server) await server.close();
  }
});

test("keystroke to result with the Classes tab on show: a gallery example and a Forge module's 69 parameters", async () => {
  const { page, context } = await openPage(env.browser, env.server.url);
  await openLastDataFile(page);
  await warmUp(page);
  const figures = [];
  for (const file of ["www/examples/39-class-port-out-of-range.yaml", "tests/conformance/forge/ntp-rhel9-8.yaml"]) {
    const previous = await page.locator("[data-testid=description]").innerText();
    await page.locator("[data-testid=open-case]").setInputFiles(`${ROOT}${file}`);
    await page.waitForFunction((p) => document.querySelector("[data-testid=description]")?.innerText !== p, previous);
    await page.locator("[data-testid=tab-classes]").click();
    await page.locator("[data-testid=class-parameter]").first().waitFor();
    await page.locator(`[data-testid=file-entry][data-path="data/common.yaml"]`).click();
    await page.locator("[data-testid=editor] .cm-editor").waitFor();
    const parameters = await page.locator("[data-testid=class-parameter]").count();
    figures.push(`${path.basename(file)} (${parameters} parameters) ${medians(await keystrokes(page, 9)).text}`);
  }
  console.log(`keystroke to result with Classes on show (median of 9, ms; editor + app): ${figures.join(", ")}`);
  await context.close();
});

test("keystroke to result with the Nodes tab on show and 10 nodes, every gallery example", async () => {
  const index = (await readFile(`${ROOT}www/examples/index.txt`, "utf8")).split("\n").filter(Boolean);
  const { page, context } = await openPage(env.browser, env.server.url);
  await page.locator("[data-testid=tab-nodes]").click();
  const figures = [];
  for (const file of index) {
    if (file !== "00-welcome.yaml") {
      const previous = await page.locator("[data-testid=description]").innerText();
      await page.selectOption("[data-testid=gallery]", file);
      await page.waitForFunction((p) => document.querySelector("[data-testid=description]")?.innerText !== p, previous);
    }
    const nodes = page.locator("[data-testid=fleet-node]");
    await nodes.first().waitFor();
    for (let i = await nodes.count(); i < 10; i++) {
      await page.locator("[data-testid=add-node-name]").fill(`node${i}.example.com`);
      await page.locator("[data-testid=add-node]").click();
      await nodes.nth(i).waitFor();
    }
    await openLastDataFile(page);
    if (file === "00-welcome.yaml") await warmUp(page);
    const cells = await page.locator("[data-testid=fleet-cell]").count();
    figures.push({ file, cells, ...medians(await keystrokes(page, 9)) });
  }
  const worst = figures.reduce((a, b) => (b.total > a.total ? b : a));
  const over = figures.filter((f) => f.total > 16).map((f) => f.file);
  console.log(
    `keystroke to result with Nodes on show, 10 nodes (median of 9, ms; editor + app): ` +
      `${figures.map((f) => `${f.file} (${f.cells} cells) ${f.text}`).join(", ")}; median of the examples ` +
      `${median(figures.map((f) => f.total)).toFixed(1)} (the app's share ${median(figures.map((f) => f.app)).toFixed(1)}), ` +
      `slowest ${worst.file} ${worst.total.toFixed(1)}; over 16 ms: ${over.join(", ") || "none"}`,
  );
  await context.close();
});
