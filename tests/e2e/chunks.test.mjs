// The views whose code the first download leaves out (web/src/chunks.rs):
// no part is fetched before the first result; each is fetched the first
// time its view is shown, and all of them soon after the page is drawn (so
// that they work offline after a first visit); one that cannot be fetched
// is said so, without harm to the page, and fetched when its view is shown
// again.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { eventually, openPage, start } from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

/** The names of the split modules (app-HASH/split_NAME.wasm) the page fetched so far. */
const parts = (page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .map((e) => e.name.match(/\/split_([a-z_]+)\.wasm$/)?.[1])
      .filter(Boolean)
      .sort(),
  );

test("the first result needs no part of the page's module fetched later, and each view works when shown", async () => {
  const { page, errors, context } = await openPage(env.browser, env.server.url);
  await page.locator("[data-testid=lookup-row][data-status]").first().waitFor();
  assert.deepEqual(await parts(page), [], "the first result needs none of them");

  await page.click("[data-testid=tab-review]");
  await page.locator("[data-testid=review-finding]").first().waitFor();
  await page.click("[data-testid=tab-nodes]");
  await page.locator("[data-testid=fleet-cell]").first().waitFor();
  await page.click("[data-testid=tab-all-keys]");
  await page.locator("[data-testid=resolved-key]").first().waitFor();
  // The welcome opens with its first lookup selected.
  await page.click("[data-testid=tab-explain]");
  await page.locator("[data-testid=explain-tree]").waitFor();
  await page.click("[data-testid=tab-classes]");
  await page.locator("[data-testid=class-parameter], [data-testid=classes-empty]").first().waitFor();
  // A minimal example opens with Report it.
  await page.click("[data-testid=tab-why]");
  await page.click("[data-testid=share-minimal]");
  await eventually(() => page.locator("[data-testid=notice]").innerText(), (t) => /The smallest example of this lookup/.test(t), {
    message: "the minimal example",
  });
  await page.locator("[data-testid=report]").waitFor();
  await page.click("[data-testid=eyaml-button]");
  await page.locator("[data-testid=eyaml-tools]").waitFor();
  await page.locator("[data-testid=start-tour], [data-testid=open-tour]").first().click();
  await page.locator("[data-testid=tour-check]").first().waitFor();
  assert.deepEqual(await parts(page), ["all_keys", "classes", "explain", "eyaml", "nodes", "reduce", "report", "review", "tour"]);
  assert.deepEqual(errors, []);
  await context.close();
});

test("every part is fetched soon after the first result, so that every view works offline after the first visit", async () => {
  const { page, errors, context } = await openPage(env.browser, env.server.url);
  await page.evaluate(() => navigator.serviceWorker.ready);
  // Again, with the service worker keeping what the page fetches.
  await page.reload();
  await page.locator("[data-testid=lookup-row][data-status]").first().waitFor();
  await eventually(() => parts(page), (p) => p.length === 9, { timeout: 15_000, message: "every part fetched in the background" });
  await context.setOffline(true);
  await page.reload();
  await page.locator("[data-testid=lookup-row][data-status]").first().waitFor();
  await page.click("[data-testid=tab-review]");
  await page.locator("[data-testid=review-finding]").first().waitFor();
  await page.click("[data-testid=tab-nodes]");
  await page.locator("[data-testid=fleet-cell]").first().waitFor();
  assert.equal(await page.locator("[data-testid=notice]").count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a view whose code cannot be fetched says so, and is fetched when shown again", async () => {
  // Without the service worker, whose fetches the test's routes would not see.
  const { page, errors, context } = await openPage(env.browser, env.server.url, { serviceWorkers: "block" });
  await page.locator("[data-testid=lookup-row][data-status]").first().waitFor();
  await page.route("**/split_nodes.wasm", (route) => route.abort("internetdisconnected"));
  await page.click("[data-testid=tab-nodes]");
  const notice = page.locator("[data-testid=notice]");
  await eventually(() => notice.innerText(), (t) => /The code of the Nodes tab could not be fetched/.test(t), { message: "the failure said" });
  assert.match(await page.locator("[data-testid=fetching-code]").innerText(), /Fetching its code/);
  // The rest of the page still answers.
  assert.equal(await page.locator("[data-testid=lookup-row]").first().getAttribute("data-status"), "found");

  await page.unroute("**/split_nodes.wasm");
  await page.click("[data-testid=tab-why]");
  await page.click("[data-testid=tab-nodes]");
  await page.locator("[data-testid=fleet-cell]").first().waitFor();
  // wasm-split's loader rejects the failed fetch before it awaits it: the
  // browser reports that rejection, which the loader then handles.
  assert.deepEqual(errors.map((e) => e.message).filter((m) => m !== "Failed to fetch"), []);
  await context.close();
});

test("an embed fetches no part of the page's module it does not show", async () => {
  const a = await openPage(env.browser, env.server.url);
  await a.page.click("[data-testid=share-button]");
  const embed = (await a.page.inputValue("[data-testid=share-link]")).replace("#", "?embed#");
  await a.context.close();
  const { page, errors, context } = await openPage(env.browser);
  await page.goto(embed);
  await page.locator("[data-testid=embed] [data-testid=lookup-row][data-status]").first().waitFor();
  // Past the time the playground fetches every part in the background.
  await page.waitForTimeout(3000);
  assert.deepEqual(await parts(page), []);
  assert.deepEqual(errors, []);
  await context.close();
});
