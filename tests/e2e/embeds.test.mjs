// Docs embeds (issue 41): a page's own marked code blocks run as playgrounds
// (www/blocks.html, five of them), each ready within 2 s of being made and
// sized before it is seen; the compact mode opens Why for the row clicked;
// the memory the page takes with all five is reported.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { SCREENSHOTS, attrWhen, eventually, openPage, start } from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

/** The answers (key, JSON) each example's playground must give. */
const EXPECTED = [
  [["profile::web::port", "8080"], ["ntp::servers", '["pool.ntp.org"]']],
  [["profile::base::packages", '["nginx","curl","vim"]']],
  [["profile::web::vhosts", '{"www.example.com":{"port":8080,"docroot":"/var/www/example"}}']],
  [["profile::base::motd", '"Welcome to web01, run by Example Corp"']],
  // No osfamily in the facts: the per-OS level reads os/.yaml, and common.yaml answers.
  [["ntp::servers", '["pool.ntp.org"]']],
];

test("a page's marked code blocks become five playgrounds, each ready within 2 s and sized before it is seen", async () => {
  const v = await openPage(env.browser);
  await v.page.addInitScript(() => {
    window.shifts = [];
    new PerformanceObserver((list) => window.shifts.push(...list.getEntries().map((e) => e.value))).observe({ type: "layout-shift" });
  });
  await v.page.goto(`${env.server.url}blocks.html`);
  const blocks = await v.page.locator("pre").count();
  const frames = v.page.locator("iframe.hiera-playground-frame");
  await eventually(() => frames.count(), (n) => n >= 1, { message: "the first playground" });
  const viewport = v.page.viewportSize().height;
  for (let i = 0; i < 5; i++) {
    // The example's last block just below the fold: its playground is made (a screen ahead), not seen yet.
    await v.page.evaluate(([i, viewport]) => {
      const place = document.querySelectorAll("[data-hiera-lookups]")[i];
      window.scrollTo(0, place.getBoundingClientRect().bottom + window.scrollY - viewport + 5);
    }, [i, viewport]);
    await eventually(() => frames.count(), (n) => n > i, { message: `playground ${i + 1} made` });
    const made = Date.now();
    const inside = await eventually(() => v.page.frames().filter((f) => f.url().includes("?embed"))[i], Boolean);
    const answers = () =>
      inside.locator("[data-testid=lookup-row]").evaluateAll((els) => els.map((e) => [e.dataset.key, e.dataset.valueJson ?? e.dataset.status]));
    await eventually(answers, (a) => JSON.stringify(a) === JSON.stringify(EXPECTED[i]), { message: `example ${i + 1}'s answers`, timeout: 4000 });
    const ready = Date.now() - made;
    assert.ok(ready < 2000, `playground ${i + 1} ready ${ready} ms after it was made`);
    // Its height is its content's (the editor in) before it is scrolled to.
    const frame = frames.nth(i);
    await inside.locator("[data-testid=editor] .cm-editor").waitFor();
    assert.ok((await frame.evaluate((f) => f.getBoundingClientRect().top)) > viewport - 10, `playground ${i + 1} is not seen yet`);
    await eventually(
      async () => [await frame.evaluate((f) => parseFloat(f.style.height)), await inside.evaluate(() => document.querySelector(".embed").scrollHeight)],
      ([outer, inner]) => outer === inner + 10,
      { message: `playground ${i + 1} sized` },
    );
    const before = await frame.evaluate((f) => parseFloat(f.style.height));
    await frame.scrollIntoViewIfNeeded();
    await v.page.waitForTimeout(200);
    assert.equal(await frame.evaluate((f) => parseFloat(f.style.height)), before, `playground ${i + 1} kept its height when seen`);
  }
  // The blocks are still the page's: the playgrounds came beside them.
  assert.equal(await v.page.locator("pre").count(), blocks);
  assert.deepEqual(await v.page.evaluate(() => window.shifts.filter((s) => s > 0.0001)), []);
  // What the page takes with its five playgrounds (same-origin frames share the page's JS heap;
  // each playground has its WebAssembly memory of its own).
  const cdp = await v.context.newCDPSession(v.page);
  await cdp.send("Performance.enable");
  const { metrics } = await cdp.send("Performance.getMetrics");
  const heap = metrics.find((m) => m.name === "JSHeapUsedSize").value;
  const wasm = await Promise.all(
    v.page.frames().filter((f) => f.url().includes("?embed")).map((f) =>
      f.evaluate(() => performance.getEntriesByType("resource").some((e) => e.name.endsWith(".wasm"))),
    ),
  );
  assert.equal(wasm.filter(Boolean).length, 5, "each playground loaded its engine");
  console.log(`blocks.html with 5 playgrounds: JS heap ${(heap / 1048576).toFixed(1)} MB used, the page and its frames together`);
  await v.page.screenshot({ path: `${SCREENSHOTS}/blocks-page.png` });
  assert.deepEqual(v.errors, []);
  await v.context.close();
});

test("a compact embed shows answers only, and Why for the row clicked; a read-only one cannot be edited", async () => {
  const v = await openPage(env.browser);
  await v.page.goto(`${env.server.url}blocks.html`);
  await v.page.locator("h2").nth(1).scrollIntoViewIfNeeded();
  const compact = await eventually(() => v.page.frames().find((f) => f.url().includes("compact")), Boolean, { message: "the compact playground" });
  const row = compact.locator("[data-testid=lookup-row]").first();
  await attrWhen(row, "data-value-json", '["nginx","curl","vim"]');
  assert.equal(await compact.locator("[data-testid=embed-why]").count(), 0, "no Why until a row is clicked");
  assert.notEqual(await compact.locator("[data-testid=lookup-key]").first().getAttribute("readonly"), null, "rows are not edited here");
  await row.click();
  await compact.locator("[data-testid=embed-why]").waitFor();
  assert.match(await compact.locator("[data-testid=embed-why]").innerText(), /Per-role data/);
  await v.page.locator("h2").nth(2).scrollIntoViewIfNeeded();
  const readonly = await eventually(() => v.page.frames().find((f) => f.url().includes("readonly")), Boolean, { message: "the read-only playground" });
  await readonly.locator("[data-testid=editor] .cm-content").waitFor();
  assert.equal(await readonly.locator("[data-testid=editor] .cm-content").getAttribute("contenteditable"), "false");
  assert.deepEqual(v.errors, []);
  await v.context.close();
});
