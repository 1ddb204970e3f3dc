// Hostile input: a case file crafted to inject script or HTML through every
// field does nothing, and the page ships a strict Content-Security-Policy.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { ROOT, eventually, explainText, gotoReady, openPage, rows, start } from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

const PAYLOAD = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>`;

test("a case file that tries to inject script through every field does nothing", async () => {
  const q = JSON.stringify(PAYLOAD);
  const doc = [
    `description: ${q}`,
    `node: ${q}`,
    "facts:",
    `  role: ${q}`,
    "files:",
    "  hiera.yaml: |",
    "    version: 5",
    "    hierarchy:",
    "      - name: " + q,
    '        path: "roles/%{facts.role}.yaml"',
    "      - name: common",
    "        path: common.yaml",
    `  ${JSON.stringify(`data/${PAYLOAD}.yaml`)}: |`,
    `    ${JSON.stringify(PAYLOAD)}: ${JSON.stringify(PAYLOAD)}`,
    "  data/common.yaml: |",
    `    key: ${JSON.stringify(PAYLOAD)}`,
    "lookups:",
    "  - key: key",
    // Not found: the payload comes back inside the error message.
    `  - key: ${q}`,
  ].join("\n");
  const file = `${ROOT}target/hostile.yaml`;
  await writeFile(file, doc);
  const { page, context, errors } = await openPage(env.browser, env.server.url);
  await page.setInputFiles("[data-testid=open-case]", file);
  const rs = await eventually(() => rows(page), (r) => r.length === 2 && r.every((x) => x.status) && r[0].key === "key");
  assert.equal(rs[0].json, JSON.stringify(PAYLOAD), "the value is data, shown as text");
  assert.ok(rs[1].error.includes(PAYLOAD), "the error message carries the payload as text");
  for (const tab of ["tab-why", "tab-explain", "tab-all-keys"]) {
    await page.click(`[data-testid=${tab}]`);
    await page.waitForTimeout(100);
  }
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.locator('img[src="x"]').count(), 0);
  assert.ok((await page.locator("[data-testid=description]").innerText()).includes("<img"), "the description is text");
  assert.deepEqual(errors, []);
  await context.close();
});

test("the page ships a strict Content-Security-Policy and runs under it", async () => {
  const { page, context, errors } = await openPage(env.browser);
  const violations = [];
  page.on("console", (m) => /Content Security Policy/.test(m.text()) && violations.push(m.text()));
  await gotoReady(page, env.server.url);
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute("content");
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/);
  assert.doesNotMatch(csp, /script-src[^;]*unsafe-inline/);
  assert.equal(await page.locator("script:not([src])").count(), 0, "no inline script");
  assert.deepEqual(violations, []);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a lookup that fans out exponentially ends with a message, and the page stays live", async () => {
  // Each key interpolates the next one twice, thirty deep: a string of 2^30 characters.
  const data = Array.from({ length: 30 }, (_, i) => `    k${i}: "%{lookup('k${i + 1}')}%{lookup('k${i + 1}')}"`);
  const doc = ["files:", "  hiera.yaml: |", "    version: 5", "  data/common.yaml: |", ...data, "    k30: x", "lookups:", "  - key: k0", "  - key: k25"].join("\n");
  const file = `${ROOT}target/fan-out.yaml`;
  await writeFile(file, doc);
  const { page, context, errors } = await openPage(env.browser, env.server.url);
  const started = Date.now();
  await page.setInputFiles("[data-testid=open-case]", file);
  const rs = await eventually(() => rows(page), (r) => r.length === 2 && r[0].key === "k0" && r.every((x) => x.status));
  const took = Date.now() - started;
  assert.match(rs[0].error, /^Lookup of 'k0' stopped: it made more than 10000 nested lookups/);
  assert.equal(rs[1].json, JSON.stringify("x".repeat(32)), "a key under the bound still answers");
  assert.ok(took < 2000, `answered in ${took} ms`);
  // Why and Explain say the same, and the page still answers edits.
  assert.match(await explainText(page), /^Lookup of 'k0' stopped/);
  await page.click("[data-testid=tab-why]");
  await page.locator("[data-testid=add-lookup]").click();
  await eventually(() => rows(page), (r) => r.length === 3);
  assert.deepEqual(errors, []);
  await context.close();
});
