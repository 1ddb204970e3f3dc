// Figures, not pass/fail: the time from a keystroke in the editor to every
// lookup re-evaluated and drawn, for every gallery example and for the
// shared bench's large preset (about 1,000 files, 2 MB), and the time from
// navigation to the first result with a cold cache.
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

/** Types `n` characters at the end of the open file; resolves to each keystroke's milliseconds to the redrawn results. */
async function keystrokes(page, n) {
  await page.evaluate(() => {
    if (window.__hp) {
      window.__hp.times = [];
      return;
    }
    window.__hp = { times: [], down: 0 };
    document.addEventListener("keydown", (e) => (window.__hp.down = e.timeStamp), true);
    const root = document.querySelector("[data-revision]");
    new MutationObserver(() => {
      // The frame after the change is when the result is on screen.
      requestAnimationFrame(() => window.__hp.times.push(performance.now() - window.__hp.down));
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

test("keystroke to result, every gallery example", async () => {
  const index = (await readFile(`${ROOT}www/examples/index.txt`, "utf8")).split("\n").filter(Boolean);
  const { page, context } = await openPage(env.browser, env.server.url);
  const figures = [];
  for (const file of index) {
    const previous = await page.locator("[data-testid=description]").innerText();
    await page.selectOption("[data-testid=gallery]", file);
    if (file !== "00-welcome.yaml") {
      await page.waitForFunction((p) => document.querySelector("[data-testid=description]")?.innerText !== p, previous);
    }
    // Edit the last data file, where most examples keep their common data.
    const paths = await page.$$eval("[data-testid=file-entry]", (els) => els.map((e) => e.dataset.path));
    const target = paths.filter((p) => p.endsWith(".yaml") && !p.endsWith("hiera.yaml")).pop() ?? paths[0];
    await page.locator(`[data-testid=file-entry][data-path="${target}"]`).click();
    await page.locator("[data-testid=editor] .cm-editor").waitFor();
    const times = await keystrokes(page, 9);
    figures.push([file, median(times)]);
  }
  const worst = figures.reduce((a, b) => (b[1] > a[1] ? b : a));
  console.log(`keystroke to result (median of 9, ms): ${figures.map(([f, t]) => `${f} ${t.toFixed(1)}`).join(", ")}; slowest ${worst[0]} ${worst[1].toFixed(1)}`);
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
    execFileSync("python3", [`${ROOT}../shared/bench/gen-control-repo`, "--preset", "large", repo]);
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
  const { page, context } = await openPage(env.browser, env.server.url);
  const started = Date.now();
  await page.setInputFiles("[data-testid=open-case]", docPath);
  await page.waitForFunction((k) => document.querySelector("[data-testid=lookup-row]")?.dataset.key === k, keys[0], { timeout: 120_000 });
  const opened = Date.now() - started;
  const figures = [];
  // A node's own file (the usual edit), and common.yaml, the largest file (0.8 MB).
  const node = files.map(([p]) => p).find((p) => p.startsWith("data/nodes/")) ?? "data/common.yaml";
  for (const file of [node, "data/common.yaml"]) {
    await page.locator(`[data-testid=file-entry][data-path="${file}"]`).click();
    await page.locator("[data-testid=editor] .cm-editor").waitFor();
    const times = await keystrokes(page, 9);
    figures.push(`editing ${file}: median ${median(times).toFixed(1)} ms (of ${times.map((t) => t.toFixed(0)).join(", ")})`);
  }
  console.log(`large preset (${files.length} files, ${(doc.length / 1e6).toFixed(1)} MB): opened in ${opened} ms; keystroke to result, ${figures.join("; ")}`);
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
