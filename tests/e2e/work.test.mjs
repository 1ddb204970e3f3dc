// The visitor's work and the page's small words: what issue 27 found a new
// user losing or misreading.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { SCREENSHOTS, editorText, eventually, gotoReady, openFile, openPage, rowsWhen, start, typeAtEnd } from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

const SAVED = "hiera-playground/document";

test("choosing an example keeps the visitor's work, through a reload and with Back to my work", async () => {
  const { page, errors, context } = await openPage(env.browser, env.server.url);
  await page.locator("[data-testid=node-input]").fill("mine.example.com");
  await eventually(() => page.evaluate((k) => localStorage.getItem(k) ?? "", SAVED), (t) => t.includes("mine.example.com"));
  await page.selectOption("[data-testid=gallery]", "03-hash-merge.yaml");
  await rowsWhen(page, (rs) => rs[0]?.key === "mykey" && rs[0].status);
  await page.locator("[data-testid=shared-bar]").waitFor();
  assert.match(await page.locator("[data-testid=notice]").innerText(), /Your own work is kept/);
  // Edits to the example are not saved over the work either.
  await page.locator("[data-testid=environment-input]").fill("staging");
  await page.waitForTimeout(500);
  assert.match(await page.evaluate((k) => localStorage.getItem(k), SAVED), /mine\.example\.com/);
  await gotoReady(page, env.server.url);
  assert.equal(await page.inputValue("[data-testid=node-input]"), "mine.example.com");
  await page.selectOption("[data-testid=gallery]", "03-hash-merge.yaml");
  await rowsWhen(page, (rs) => rs[0]?.key === "mykey" && rs[0].status);
  await page.click("[data-testid=back-to-my-work]");
  await eventually(() => page.inputValue("[data-testid=node-input]"), (n) => n === "mine.example.com");
  assert.deepEqual(errors, []);
  await context.close();
});

test("Reset over an example replaces the work, as it says", async () => {
  const { page, errors, answers, context } = await openPage(env.browser, env.server.url);
  await page.locator("[data-testid=node-input]").fill("mine.example.com");
  await eventually(() => page.evaluate((k) => localStorage.getItem(k) ?? "", SAVED), (t) => t.includes("mine.example.com"));
  await page.selectOption("[data-testid=gallery]", "03-hash-merge.yaml");
  await page.locator("[data-testid=shared-bar]").waitFor();
  answers.push(true);
  await page.click("[data-testid=reset]");
  await eventually(() => page.evaluate((k) => localStorage.getItem(k) ?? "", SAVED), (t) => t.includes("A small site"));
  assert.equal(await page.locator("[data-testid=shared-bar]").count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a share link pasted into a tab that shows the playground opens it", async () => {
  const author = await openPage(env.browser, env.server.url);
  await author.page.selectOption("[data-testid=gallery]", "03-hash-merge.yaml");
  await rowsWhen(author.page, (rs) => rs[0]?.key === "mykey" && rs[0].status);
  await author.page.click("[data-testid=share-button]");
  const link = await author.page.inputValue("[data-testid=share-link]");

  const { page, errors, context } = await openPage(env.browser, env.server.url);
  await rowsWhen(page, (rs) => rs[0]?.key !== "mykey" && rs[0]?.status);
  // Only the fragment changes: a same-document navigation.
  await page.evaluate((l) => {
    window.location.href = l;
  }, link);
  await page.locator("[data-testid=shared-bar]").waitFor();
  await rowsWhen(page, (rs) => rs[0]?.key === "mykey" && rs[0].status);
  assert.deepEqual([...author.errors, ...errors], []);
  await author.context.close();
  await context.close();
});

test("on a phone, Why shows the steps below the lookups", async () => {
  const { page, errors, context } = await openPage(env.browser, env.server.url, { viewport: { width: 390, height: 844 } });
  const why = page.locator("[data-testid=why]");
  await page.locator("[data-testid=merge-step]").first().waitFor();
  const box = await page.locator(".tab-body").boundingBox();
  assert.ok(box && box.height > 100, `the panel under the tabs is ${box?.height} px tall`);
  assert.ok(await page.locator("[data-testid=merge-step]").first().isVisible());
  assert.ok((await why.innerText()).length > 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a document-wide warning is told once, not on every row; one place is a place", async () => {
  const { page, errors, context } = await openPage(env.browser, env.server.url);
  await page.selectOption("[data-testid=gallery]", "37-puppet-8-strict.yaml");
  await rowsWhen(page, (rs) => rs.length === 4 && rs[0].key === "profile::base::motd" && rs[3].status);
  const path = page.locator(".row-warnings .warning", { hasText: 'The path of "Per role"' });
  assert.equal(await path.count(), 1);
  // The example's hierarchy has two levels; a document with one says "1 place".
  await page.selectOption("[data-testid=gallery]", "19-default-config.yaml");
  await eventually(() => page.locator("[data-testid=step-position]").innerText(), (t) => t === "1 place");
  assert.deepEqual(errors, []);
  await context.close();
});

test("a facts error gives its position once", async () => {
  const { page, errors, context } = await openPage(env.browser, env.server.url);
  await page.locator("[data-testid=facts-editor]").fill("os:\n  family: [Debian\n");
  const error = await page.locator("[data-testid=facts-error]").innerText();
  assert.equal((error.match(/line \d+/g) ?? []).length, 1, error);
  assert.match(error, /^Facts: /);
  assert.deepEqual(errors, []);
  await context.close();
});

test("each file keeps its own undo history when another file is opened and closed", async () => {
  const { page, errors, context } = await openPage(env.browser, env.server.url);
  await openFile(page, "data/common.yaml");
  const before = await editorText(page);
  await typeAtEnd(page, "\nextra: 1");
  await eventually(() => editorText(page), (t) => t.includes("extra: 1"));
  await openFile(page, "hiera.yaml");
  await openFile(page, "data/common.yaml");
  await page.locator("[data-testid=editor] .cm-content").click();
  await page.keyboard.press("Control+z");
  await eventually(() => editorText(page), (t) => t === before, { message: "the edit undone" });
  assert.deepEqual(errors, []);
  await context.close();
});

test("the description says it was written for the files as they were, once they change", async () => {
  const { page, errors, context } = await openPage(env.browser, env.server.url);
  const description = page.locator("[data-testid=description]");
  assert.equal(await description.getAttribute("data-stale"), "false");
  await openFile(page, "data/common.yaml");
  await typeAtEnd(page, "\nextra: 1");
  await eventually(() => description.getAttribute("data-stale"), (s) => s === "true");
  assert.match(await description.innerText(), /files as they were opened, which have changed since/);
  // Another document's description is its own again.
  await page.selectOption("[data-testid=gallery]", "03-hash-merge.yaml");
  await rowsWhen(page, (rs) => rs[0]?.key === "mykey" && rs[0].status);
  assert.equal(await description.getAttribute("data-stale"), "false");
  assert.deepEqual(errors, []);
  await context.close();
});

test("All keys wraps a long key after a ::, never inside a name", async () => {
  const { page, errors, context } = await openPage(env.browser, env.server.url, { viewport: { width: 390, height: 844 } });
  await page.click("[data-testid=tab-all-keys]");
  await page.locator("[data-testid=resolved-key]").first().waitFor();
  // Each name between `::`s lies on one line (one client rect).
  const split = await page.$$eval("[data-testid=resolved-key] td.key code", (codes) => {
    const broken = [];
    for (const code of codes) {
      for (const node of code.childNodes) {
        if (node.nodeType !== Node.TEXT_NODE || node.textContent === "::") continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        if (range.getClientRects().length > 1) broken.push(node.textContent);
      }
    }
    return broken;
  });
  assert.deepEqual(split, []);
  await page.screenshot({ path: `${SCREENSHOTS}/all-keys-phone.png` });
  assert.deepEqual(errors, []);
  await context.close();
});
