// The visitor's work and the page's small words: what issue 27 found a new
// user losing or misreading.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import {
  SCREENSHOTS,
  addLookup,
  attrWhen,
  editorText,
  eventually,
  gotoReady,
  openFile,
  openPage,
  replaceEditorText,
  rows,
  rowsWhen,
  savedWork,
  savedWorks,
  start,
  typeAtEnd,
} from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

/** Chooses the work titled `title` (a prefix) in the Works menu. */
async function chooseWork(page, title) {
  await page.locator("[data-testid=works]").focus();
  const value = await eventually(
    () => page.$$eval("[data-testid=work-entry]", (os, t) => os.find((o) => o.textContent.includes(t))?.value, title),
    Boolean,
    { message: `a work titled ${title}` },
  );
  await page.selectOption("[data-testid=works]", value);
}

test("edits over an example become a work of their own: a reload shows them, the earlier work stays", async () => {
  const { page, errors, context } = await openPage(env.browser, env.server.url);
  await page.locator("[data-testid=node-input]").fill("mine.example.com");
  await eventually(() => savedWork(page), (t) => t.includes("mine.example.com"));
  await page.selectOption("[data-testid=gallery]", "blank");
  await page.locator("[data-testid=shared-bar]").waitFor();
  assert.match(await page.locator("[data-testid=notice]").innerText(), /Your own work is kept/);
  await openFile(page, "data/common.yaml");
  await replaceEditorText(page, "answer: 42\n");
  const row = await addLookup(page);
  await row.locator("[data-testid=lookup-key]").fill("answer");
  await attrWhen(row, "data-value-json", "42");
  assert.match(await page.locator("[data-testid=notice]").innerText(), /kept as a work of their own/);
  assert.equal(await page.locator("[data-testid=shared-bar]").count(), 0);
  // A reload shows exactly what was on screen: no debounce to wait for.
  await gotoReady(page, env.server.url);
  await rowsWhen(page, (rs) => rs.length === 1 && rs[0].key === "answer" && rs[0].json === "42");
  await openFile(page, "data/common.yaml");
  assert.equal((await editorText(page)).trim(), "answer: 42");
  // Both works are kept, and the menu counts them; another example, then Back to my work, returns to this one.
  assert.equal((await savedWorks(page)).length, 2);
  assert.match(await page.locator("[data-testid=works] option").first().innerText(), /^Works \(2\)$/);
  await page.selectOption("[data-testid=gallery]", "03-hash-merge.yaml");
  await rowsWhen(page, (rs) => rs[0]?.key === "mykey" && rs[0].status);
  await gotoReady(page, env.server.url);
  await rowsWhen(page, (rs) => rs[0]?.key === "mykey" && rs[0].status);
  await page.locator("[data-testid=shared-bar]").waitFor();
  await page.click("[data-testid=back-to-my-work]");
  await rowsWhen(page, (rs) => rs.length === 1 && rs[0].key === "answer");
  // The first work is one choice away.
  await chooseWork(page, "A small site");
  await eventually(() => page.inputValue("[data-testid=node-input]"), (n) => n === "mine.example.com");
  assert.deepEqual(errors, []);
  await context.close();
});

test("two tabs keep two works, through reloads, and a new tab finds both", async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  const tab = async () => {
    const page = await context.newPage();
    page.on("pageerror", (e) => errors.push(e));
    await gotoReady(page, env.server.url);
    return page;
  };
  const [one, two] = [await tab(), await tab()];
  await openFile(one, "data/common.yaml");
  await typeAtEnd(one, "\nfrom_one: 1");
  const row = await addLookup(two);
  await row.locator("[data-testid=lookup-key]").fill("from_two");
  await eventually(() => savedWork(one), (t) => t.includes("from_one: 1"));
  await eventually(() => savedWork(two), (t) => t.includes("from_two"));
  for (let round = 0; round < 2; round++) {
    await gotoReady(one, env.server.url);
    await gotoReady(two, env.server.url);
    assert.ok((await savedWork(one)).includes("from_one: 1") && !(await savedWork(one)).includes("from_two"));
    await rowsWhen(two, (rs) => rs.some((r) => r.key === "from_two"));
    assert.ok(!(await rows(one)).some((r) => r.key === "from_two"), "each tab shows its own work");
  }
  // A third tab opens the latest work while the second shows it: it keeps a copy.
  const three = await tab();
  await eventually(() => three.locator("[data-testid=notice]").innerText(), (t) => /open in another tab too/.test(t));
  await three.locator("[data-testid=environment-input]").fill("copy");
  await eventually(() => savedWork(three), (t) => t.includes("environment: copy"));
  assert.ok(!(await savedWork(two)).includes("environment: copy"), "the copy's edits are its own");
  await one.close();
  await two.close();
  await three.close();
  const fresh = await tab();
  const kept = await savedWorks(fresh);
  assert.equal(kept.length, 3);
  assert.ok(kept.some((t) => t.includes("from_one: 1")) && kept.some((t) => t.includes("from_two")));
  assert.deepEqual(errors, []);
  await context.close();
});

test("a work that does not fit is kept packed, and one that cannot be kept is said so, with Save and Export", async () => {
  const { page, errors, asked, context } = await openPage(env.browser, env.server.url);
  // Leave 600,000 characters of room in this page's storage, as older works would.
  await page.evaluate(() => {
    let [lo, hi] = [0, 20_000_000];
    while (hi - lo > 10_000) {
      const mid = (lo + hi) >> 1;
      try {
        localStorage.setItem("filler", "x".repeat(mid));
        lo = mid;
      } catch {
        hi = mid;
      }
    }
    localStorage.setItem("filler", "x".repeat(Math.max(0, lo - 600_000)));
  });
  // A megabyte that packs well: kept deflated, and back after a reload.
  await openFile(page, "data/common.yaml");
  const big = Array.from({ length: 1000 }, (_, i) => `key_${i}: "${"a value of the large file ".repeat(40)}"`).join("\n");
  await replaceEditorText(page, `${big}\nlast_key: here\n`);
  const row = await addLookup(page);
  await row.locator("[data-testid=lookup-key]").fill("last_key");
  await attrWhen(row, "data-value-json", '"here"', 20000);
  await eventually(() => savedWork(page), (t) => t.startsWith("h1."), { timeout: 10000, message: "the work kept packed" });
  await gotoReady(page, env.server.url);
  await rowsWhen(page, (rs) => rs.some((r) => r.key === "last_key" && r.json === '"here"'));
  assert.equal(await page.locator("[data-testid=unsaved]").count(), 0);
  // A megabyte of random text does not fit even packed: the page says so before anything is lost.
  const noise = Array.from({ length: 1000 }, (_, i) => `k${i}: "${randomBytes(750).toString("base64")}"`).join("\n");
  await openFile(page, "data/common.yaml");
  await replaceEditorText(page, noise);
  const unsaved = page.locator("[data-testid=unsaved]");
  await unsaved.waitFor({ timeout: 20000 });
  assert.match(await unsaved.innerText(), /not saved in this browser: .*full/);
  assert.equal(await page.locator("[data-testid=unsaved-save]").count(), 1);
  assert.equal(await page.locator("[data-testid=unsaved-export]").count(), 1);
  await page.screenshot({ path: `${SCREENSHOTS}/unsaved.png` });
  // Leaving asks first.
  await page.close({ runBeforeUnload: true });
  await eventually(() => asked.length, (n) => n > 0, { message: "the browser asks before leaving" });
  assert.equal(asked[0].type, "beforeunload");
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

test("an edit made just before another document is shown is kept: the work is saved as it is left", async () => {
  const { page, errors, context } = await openPage(env.browser, env.server.url);
  await page.locator("[data-testid=node-input]").fill("first.example.com");
  await eventually(() => savedWork(page), (t) => t.includes("first.example.com"));
  // The last edit, then at once (within the autosave's delay) an example over it.
  await page.locator("[data-testid=node-input]").fill("last-edit.example.com");
  await page.selectOption("[data-testid=gallery]", "03-hash-merge.yaml");
  await page.locator("[data-testid=shared-bar]").waitFor();
  await page.click("[data-testid=back-to-my-work]");
  await eventually(() => page.locator("[data-testid=node-input]").inputValue(), (n) => n === "last-edit.example.com", { message: "the last edit back" });
  assert.deepEqual(errors, []);
  await context.close();
});
