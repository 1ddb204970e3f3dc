// The workbench of issue 27: expectations pinned on a row, and "Report it".
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { SCREENSHOTS, attrWhen, editorText, eventually, filePaths, gotoReady, openFile, openPage, replaceEditorText, rowAt, rows, savedWork, start } from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

const badge = (page, n) => rowAt(page, n).locator("[data-testid=expectation]");

test("pinning a value makes the row say whether the lookup still gives it, kept with the work", async () => {
  const { page, errors, context } = await openPage(env.browser, env.server.url);
  const pin = rowAt(page, 0).locator("[data-testid=pin]");
  // Pins are the visitor's own: the welcome example comes with none.
  assert.equal(await pin.getAttribute("aria-pressed"), "false");
  assert.equal(await badge(page, 0).count(), 0);
  await pin.click();
  await eventually(() => badge(page, 0).getAttribute("data-state"), (s) => s === "pass");
  await pin.click();
  await eventually(() => badge(page, 0).count(), (n) => n === 0, { message: "the expectation forgotten" });
  await pin.click();
  await eventually(() => badge(page, 0).getAttribute("data-state"), (s) => s === "pass");
  assert.match(await badge(page, 0).innerText(), /the expected answer/);
  // The data changes under the pin: the row says what differs.
  await openFile(page, "data/nodes/web01.example.com.yaml");
  await replaceEditorText(page, "profile::web::port: 9090\n");
  await eventually(() => badge(page, 0).getAttribute("data-state"), (s) => s === "fail");
  // The answer is on the row already: the badge says only what was expected.
  assert.equal(await badge(page, 0).innerText(), "✗ expected value 8080");
  assert.equal(await rowAt(page, 0).locator("[data-testid=lookup-value]").innerText(), "9090");
  // An error is told once on the row, not again by the badge.
  await replaceEditorText(page, "profile::web::port: \"%{lookup('profile::web::port')}\"\n");
  await eventually(() => rowAt(page, 0).getAttribute("data-status"), (s) => s === "error");
  const row = await rowAt(page, 0).innerText();
  assert.equal(row.match(/Recursive lookup detected/g)?.length, 1, row);
  assert.equal(await badge(page, 0).innerText(), "✗ expected value 8080");
  await replaceEditorText(page, "profile::web::port: 9090\n");
  await eventually(() => rowAt(page, 0).getAttribute("data-value-json"), (v) => v === "9090");
  // The pin is part of the saved work (and of Save, share links and exports).
  await eventually(() => savedWork(page), (t) => /expect:\n\s+value: 8080/.test(t));
  await gotoReady(page, env.server.url);
  await eventually(() => badge(page, 0).getAttribute("data-state"), (s) => s === "fail");
  await page.screenshot({ path: `${SCREENSHOTS}/pinned-fail.png` });
  assert.deepEqual(errors, []);
  await context.close();
});

test("Report it copies the document as Markdown and gives the markup that embeds it", async () => {
  const { page, errors, context } = await openPage(env.browser, env.server.url);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.server.url });
  await page.click("[data-testid=report-button]");
  const markdown = await eventually(() => page.inputValue("[data-testid=report-markdown]"), (t) => t.length > 0);
  assert.match(markdown, /Puppet 8 \(OpenVox 8\.28\.1\), node `web01\.example\.com`, environment `production`\./);
  assert.match(markdown, /\*\*`hiera\.yaml`\*\*\n\n```yaml\n# Hiera 5/);
  assert.match(markdown, /\*\*`puppet lookup 'profile::web::port'`\*\*\n\n```\n--- 8080\n```/);
  assert.match(markdown, /<details><summary>--explain<\/summary>\n\n```\nSearching for "lookup_options"/);
  assert.match(await page.locator("[data-testid=report]").innerText(), /Private keys are left out/);
  await page.click("[data-testid=copy-markdown]");
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), markdown);
  const script = await page.inputValue("[data-testid=embed-script]");
  assert.match(script, /^<script src="http:\/\/[^"]+\/embed\.js" defer><\/script>\n<div class="hiera-playground">/);
  // The rest of the document goes with the files: the Puppet, the node, each lookup's merge.
  assert.match(script, /<pre data-case>description: [^\n]*\npuppet: 8\nnode: web01\.example\.com\n/);
  assert.match(script, /- key: ntp::servers\n  merge: unique\n/);
  const iframe = await eventually(() => page.inputValue("[data-testid=embed-iframe]"), (t) => t.startsWith("<iframe"));
  await page.screenshot({ path: `${SCREENSHOTS}/report.png` });
  // The iframe markup, put in a page, shows the playground with its answers.
  const host = await context.newPage();
  await host.goto(`${env.server.url}demo.html`);
  await host.setContent(`<!doctype html><body>${iframe}</body>`);
  const frame = host.frameLocator("iframe");
  await eventually(() => frame.locator("[data-testid=lookup-row]").first().getAttribute("data-value-json").catch(() => null), (v) => v === "8080");
  // So does the embed.js markup: every lookup answers as on the page.
  const embedded = await context.newPage();
  await embedded.goto(`${env.server.url}demo.html`);
  // setContent does not run scripts: the markup's own script tag is added as a page would load it.
  const [tag, markup] = [script.match(/^<script src="([^"]+)"/)[1], script.replace(/^<script[^>]*><\/script>\n/, "")];
  await embedded.setContent(`<!doctype html><body>${markup}</body>`);
  await embedded.addScriptTag({ url: tag });
  const own = await rows(page);
  const answers = () => embedded.frameLocator("iframe").locator("[data-testid=lookup-row]").evaluateAll((els) => els.map((e) => [e.dataset.key, e.dataset.valueJson ?? null]));
  const expected = JSON.stringify(own.map((r) => [r.key, r.json]));
  await eventually(answers, (a) => JSON.stringify(a) === expected, { message: "the embed's answers to be the page's" });
  assert.deepEqual(errors, []);
  await context.close();
});

test("start from nothing: a blank document, a new lookup with the cursor in its key, a file created from its step", async () => {
  const { page, errors, context } = await openPage(env.browser, env.server.url);
  await page.selectOption("[data-testid=gallery]", "blank");
  await eventually(() => filePaths(page), (p) => p.join() === "hiera.yaml,data/common.yaml");
  assert.deepEqual(await rows(page), []);
  await page.locator("[data-testid=shared-bar]").waitFor();
  // A new lookup: the cursor in its key, and no error while it has none.
  await page.click("[data-testid=add-lookup]");
  const key = rowAt(page, 0).locator("[data-testid=lookup-key]");
  await eventually(() => key.evaluate((el) => el === document.activeElement), Boolean, { message: "the cursor in the new key" });
  assert.equal(await rowAt(page, 0).getAttribute("data-status"), "empty");
  assert.equal(await rowAt(page, 0).locator("[data-testid=lookup-error]").count(), 0);
  await page.keyboard.type("app::port");
  await eventually(() => rowAt(page, 0).getAttribute("data-status"), (s) => s === "error");
  // A level whose file is missing offers to create it, path filled in.
  await openFile(page, "hiera.yaml");
  await replaceEditorText(page, "version: 5\nhierarchy:\n  - name: Role\n    path: roles/%{facts.role}.yaml\n  - name: Common\n    path: common.yaml\n");
  await page.locator("[data-testid=facts-editor]").click();
  await page.keyboard.type("role: web");
  await rowAt(page, 0).click();
  const create = page.locator("[data-testid=merge-step][data-outcome=not-found] [data-testid=create-file]");
  await eventually(() => create.count(), (n) => n === 1, { message: "a create-this-file button" });
  await create.click();
  await page.locator(".file-title code", { hasText: "data/roles/web.yaml" }).waitFor();
  assert.equal((await editorText(page)).trim(), "");
  await page.locator("[data-testid=editor] .cm-content").click();
  await page.keyboard.type("app::port: 8080");
  await eventually(() => rowAt(page, 0).getAttribute("data-value-json"), (v) => v === "8080");
  await page.screenshot({ path: `${SCREENSHOTS}/blank-document.png` });
  assert.deepEqual(errors, []);
  await context.close();
});

test("the keyboard: ? lists the shortcuts, t opens a file, e the editor, a a lookup, ] and [ step; a skip link; the theme says which is on", async () => {
  const { page, errors, context, answers, asked } = await openPage(env.browser, env.server.url);
  // Tab from the top of the page reaches the skip links first; the first moves focus past the file tree.
  await page.keyboard.press("Tab");
  const skip = page.locator(".skip-link").first();
  assert.ok(await skip.evaluate((el) => el === document.activeElement), "the skip link is first");
  assert.ok((await skip.boundingBox()).y >= 0, "and shows when focused");
  await page.keyboard.press("Enter");
  await eventually(() => page.evaluate(() => document.activeElement?.id), (id) => id === "editor-pane");
  // The next two go to the selected lookup and to Why.
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute("data-testid") ?? document.activeElement?.id);
  await skip.focus();
  await page.keyboard.press("Tab");
  assert.equal(await focused(), "skip-to-lookups");
  await page.keyboard.press("Enter");
  assert.equal(await focused(), "lookup-row");
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute("aria-selected")), "true");
  await page.click("[data-testid=tab-explain]");
  await page.locator("[data-testid=skip-to-why]").focus();
  await page.keyboard.press("Enter");
  assert.equal(await focused(), "results-body");
  await attrWhen(page.locator("[data-testid=tab-why]"), "aria-selected", "true");

  // In the file tree the arrows move between entries, Enter opens a file, F2 renames it.
  await page.locator("[data-testid=file-entry][data-path='hiera.yaml']").focus();
  await page.keyboard.press("ArrowDown");
  assert.equal(await page.evaluate(() => document.activeElement.tagName), "SUMMARY");
  await page.keyboard.press("ArrowDown");
  assert.equal(await page.evaluate(() => document.activeElement.dataset.path), "data/common.yaml");
  await page.keyboard.press("Enter");
  await page.locator(".file-title code", { hasText: "data/common.yaml" }).waitFor();
  answers.push(false);
  await page.keyboard.press("F2");
  await eventually(() => asked.length, (n) => n === 1, { message: "the rename prompt" });
  assert.equal(asked[0].message, "Rename data/common.yaml to:");
  await page.keyboard.press("End");
  assert.equal(await page.evaluate(() => document.activeElement.dataset.path), "data/roles/web.yaml");
  await page.locator("body").click({ position: { x: 5, y: 790 } });
  await page.keyboard.press("?");
  const help = page.locator("[data-testid=shortcuts]");
  await help.waitFor();
  assert.match(await help.innerText(), /t\s+open a file by its name/);
  await page.screenshot({ path: `${SCREENSHOTS}/shortcuts.png` });
  await page.keyboard.press("Escape");
  await help.waitFor({ state: "detached" });
  // Quick-open: type part of a path, Enter.
  await page.keyboard.press("t");
  await page.locator("[data-testid=quick-open-input]").waitFor();
  await page.keyboard.type("Debian");
  await page.keyboard.press("Enter");
  await page.locator(".file-title code", { hasText: "data/os/Debian.yaml" }).waitFor();
  // e puts the cursor in the editor: what is typed goes into the file.
  await page.locator("body").click({ position: { x: 5, y: 790 } });
  await page.keyboard.press("e");
  await eventually(() => page.evaluate(() => document.activeElement?.classList.contains("cm-content")), Boolean, { message: "the editor focused" });
  // a adds a lookup with the cursor in its key.
  await page.locator("body").click({ position: { x: 5, y: 790 } });
  const count = (await rows(page)).length;
  await page.keyboard.press("a");
  await eventually(() => rows(page), (r) => r.length === count + 1);
  // What is typed next is the key, not more shortcuts (t would open a file).
  await eventually(() => page.evaluate(() => document.activeElement?.getAttribute("data-testid")), (t) => t === "lookup-key");
  await page.keyboard.type("motd");
  assert.equal(await page.locator("[data-testid=quick-open-input]").count(), 0);
  await eventually(() => rows(page), (r) => r[count].key === "motd");
  // ] and [ step through Why.
  await rowAt(page, 2).click();
  const position = () => page.locator("[data-testid=step-position]").innerText();
  const places = await eventually(position, (t) => /^\d+ places$/.test(t));
  const n = parseInt(places, 10);
  await page.locator("body").click({ position: { x: 5, y: 790 } });
  await page.keyboard.press("]");
  await eventually(position, (t) => t === `Step 1 of ${n}`);
  await page.keyboard.press("]");
  await eventually(position, (t) => t === `Step 2 of ${n}`);
  await page.keyboard.press("[");
  await eventually(position, (t) => t === `Step 1 of ${n}`);
  // Typing in a field is typing, not a shortcut.
  await page.locator("[data-testid=node-input]").fill("");
  await page.locator("[data-testid=node-input]").type("a?t");
  assert.equal(await help.count(), 0);
  assert.equal((await rows(page)).length, count + 1);
  // The theme button names the theme that is on.
  const theme = page.locator("[data-testid=theme]");
  assert.equal(await theme.innerText(), "◐ System");
  await theme.click();
  assert.equal(await theme.innerText(), "☾ Dark");
  assert.match(await theme.getAttribute("title"), /dark \(click for light\)/);
  await page.screenshot({ path: `${SCREENSHOTS}/dark-workbench.png` });
  assert.deepEqual(errors, []);
  await context.close();
});

test("facts: a PuppetDB factset pasted gives the node's facts and name; presets of current platforms in Facter 4's layout", async () => {
  const { page, errors, context, answers, asked } = await openPage(env.browser, env.server.url);
  await page.locator("[data-testid=node-input]").fill("");
  const factset = JSON.stringify([{ certname: "pdb01.example.com", environment: "production", facts: { data: [
    { name: "role", value: "web" }, { name: "os", value: { family: "RedHat", release: { major: "9" } } },
  ] } }]);
  await page.locator("[data-testid=facts-editor]").fill(factset);
  await eventually(() => page.inputValue("[data-testid=node-input]"), (n) => n === "pdb01.example.com");
  assert.equal(await page.locator("[data-testid=facts-error]").count(), 0);
  // The motd names the OS family the factset gave.
  const motd = page.locator('[data-testid=lookup-row][data-key="profile::base::motd"]');
  await eventually(() => motd.getAttribute("data-value-json"), (v) => v === '"Managed by Puppet on RedHat 9"');
  // A preset: Debian 13's facts, fetched when chosen, in place of the factset once that is agreed.
  answers.push(true);
  await page.selectOption("[data-testid=facts-preset]", { label: "Debian 13" });
  await eventually(() => page.inputValue("[data-testid=facts-editor]"), (t) => /codename: trixie/.test(t));
  assert.equal(await page.inputValue("[data-testid=node-input]"), "web02.example.com");
  await eventually(() => motd.getAttribute("data-value-json"), (v) => v === '"Managed by Puppet on Debian 13"');
  assert.equal(asked.length, 1, "asked before the factset was replaced");
  assert.deepEqual(errors, []);
  await context.close();
});

test("at 1440x900 every lookup of the welcome example shows, one line each but the selected one", async () => {
  const { page, errors, context } = await openPage(env.browser, env.server.url, { viewport: { width: 1440, height: 900 } });
  const list = await page.locator(".lookup-list").boundingBox();
  const count = await page.locator("[data-testid=lookup-row]").count();
  assert.ok(count >= 7, `the welcome example has ${count} lookups`);
  for (let i = 0; i < count; i++) {
    const b = await rowAt(page, i).boundingBox();
    assert.ok(b.y >= list.y && b.y + b.height <= list.y + list.height + 1, `row ${i} is in view`);
  }
  // A row not selected tells its key, its merge and its answer on one line.
  const other = rowAt(page, 2);
  assert.ok((await other.boundingBox()).height < 45, "a compact row");
  assert.equal(await other.locator("[data-testid=lookup-merge]").isVisible(), false);
  assert.match(await other.locator("[data-testid=lookup-value]").innerText(), /ntp\.internal\.example\.com/);
  assert.equal(await other.evaluate((row) => getComputedStyle(row, "::before").content), '"unique"');
  // Selecting it brings its controls back; the one left is compact again.
  await other.click({ position: { x: 5, y: 5 } });
  await eventually(() => other.locator("[data-testid=lookup-merge]").isVisible(), (v) => v);
  assert.equal(await rowAt(page, 0).locator("[data-testid=lookup-merge]").isVisible(), false);
  assert.ok((await rowAt(page, 0).boundingBox()).height < 45);
  await page.screenshot({ path: `${SCREENSHOTS}/compact-rows.png` });
  assert.deepEqual(errors, []);
  await context.close();
});

test("the side panes and the lookups list keep the size they are dragged to", async () => {
  const { page, errors, context } = await openPage(env.browser, env.server.url, { viewport: { width: 1440, height: 900 } });
  const box = (selector) => page.locator(selector).first().boundingBox();
  // A pane is resized from its bottom-right corner, as the browser draws it.
  const drag = async (selector, dx, dy) => {
    const b = await box(selector);
    const [x, y] = [b.x + b.width - 3, b.y + b.height - 3];
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + dx, y + dy, { steps: 5 });
    await page.mouse.up();
  };
  const before = { side: await box(".sidebar"), editor: await box(".editor-pane"), results: await box(".results") };
  await drag(".results", -150, 0);
  const narrower = await box(".results");
  assert.ok(Math.abs(before.results.width - narrower.width - 150) < 8, `results ${before.results.width} -> ${narrower.width}`);
  assert.ok((await box(".editor-pane")).width > before.editor.width + 140, "the editor takes what the results gave up");
  await drag(".sidebar", 100, 0);
  assert.ok(Math.abs((await box(".sidebar")).width - before.side.width - 100) < 8, "the file tree is wider");
  const list = await box(".lookups");
  await drag(".lookups", 0, -120);
  assert.ok(Math.abs(list.height - (await box(".lookups")).height - 120) < 8, "the lookups list is shorter");
  assert.ok((await box(".tab-body")).height > 400, "and the explanation has the room it gave up");
  assert.ok((await box("[data-testid=add-lookup]")).y < 900, "+ Add lookup is still in reach");
  await page.screenshot({ path: `${SCREENSHOTS}/resized.png` });
  assert.deepEqual(errors, []);
  await context.close();
});

test("hovering a key in a data file says what its value did for the selected lookup", async () => {
  const { page, errors, context } = await openPage(env.browser, env.server.url, { viewport: { width: 1440, height: 900 } });
  const hover = async (text) => {
    await page.mouse.move(0, 0);
    await page.locator(".cm-line", { hasText: text }).first().hover({ position: { x: 20, y: 5 } });
    return eventually(() => page.locator(".cm-tooltip-lint").allInnerTexts(), (t) => t.length > 0, { message: `a note on ${text}` });
  };
  // The port: one level has it, and it is the answer.
  await openFile(page, "data/nodes/web01.example.com.yaml");
  assert.match((await hover("profile::web::port")).join("\n"), /profile::web::port: this value is the answer/);
  // ntp::servers merged unique: both levels bring servers, the key's line and its value's.
  await rowAt(page, 2).click({ position: { x: 3, y: 3 } });
  await attrWhen(rowAt(page, 2), "aria-selected", "true");
  assert.match((await hover("ntp::servers")).join("\n"), /ntp::servers: this value is merged into the answer \(Per-node data\)/);
  await openFile(page, "data/common.yaml");
  assert.match((await hover("0.pool.ntp.org")).join("\n"), /merged into the answer \(Common data\)/);
  // Keys the selected lookup did not find say nothing.
  await page.mouse.move(0, 0);
  await page.locator(".cm-line", { hasText: "profile::base::motd" }).hover({ position: { x: 20, y: 5 } });
  await page.waitForTimeout(700);
  assert.equal(await page.locator(".cm-tooltip-lint").count(), 0);
  await page.screenshot({ path: `${SCREENSHOTS}/key-hover.png` });
  assert.deepEqual(errors, []);
  await context.close();
});
