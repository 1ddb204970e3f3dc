// End-to-end tests of the release build (dist/) in Debian's Chromium.
import { after, afterEach, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { serve } from "./server.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SCREENSHOTS = `${ROOT}target/screenshots`;
const DEFAULT_LEVELS = ["Per-node data", "Per-role data", "Per-OS defaults", "Common data"];

let server;
let browser;
let page;
let pageErrors;

before(async () => {
  await mkdir(SCREENSHOTS, { recursive: true });
  server = await serve(`${ROOT}dist`);
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    // This machine has no network but loopback: keep Chromium from reaching out.
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

beforeEach(async () => {
  page = await browser.newPage({ viewport: { width: 1200, height: 720 } });
  pageErrors = [];
  page.on("pageerror", (error) => pageErrors.push(error));
});

afterEach(async () => {
  await page.close();
  assert.deepEqual(pageErrors, [], "the page threw");
});

const levels = () => page.locator("[data-testid=levels] li").allTextContents();

/** Waits until the hierarchy panel lists exactly `expected`. */
async function expectLevels(expected) {
  await page.waitForFunction(
    (names) =>
      JSON.stringify([...document.querySelectorAll("[data-testid=levels] li")].map((li) => li.textContent)) ===
      JSON.stringify(names),
    expected,
  );
  assert.deepEqual(await levels(), expected);
}

/** Puts the cursor at the end of the editor's text and types `text`. */
async function typeAtEnd(text) {
  await page.click("[data-testid=editor]");
  await page.keyboard.press("Control+End");
  await page.keyboard.type(text);
}

test("the page shows the default example's hierarchy", async () => {
  await page.goto(server.url);
  await expectLevels(DEFAULT_LEVELS);
  assert.equal(await page.title(), "Hiera Playground");
});

test("CodeMirror replaces the plain editor, with YAML highlighting", async () => {
  await page.goto(server.url);
  const editor = page.locator("[data-testid=editor]");
  await editor.locator(".cm-editor").waitFor();
  assert.equal(await editor.locator("textarea").count(), 0);
  assert.match(await editor.locator(".cm-content").innerText(), /^# Hiera 5/);
  // Highlighted tokens are spans inside the lines; plain text would have none.
  assert.ok((await editor.locator(".cm-line span").count()) > 10, "YAML tokens are highlighted");
  await page.screenshot({ path: `${SCREENSHOTS}/loaded.png` });
});

test("typing a new level into hiera.yaml adds it to the hierarchy", async () => {
  await page.goto(server.url);
  await page.locator("[data-testid=editor] .cm-editor").waitFor();
  await typeAtEnd('  - {name: "Per-team data", path: "teams/%{facts.team}.yaml"}');
  await expectLevels([...DEFAULT_LEVELS, "Per-team data"]);
  assert.match(
    await page.locator("[data-testid=editor] .cm-content").innerText(),
    /- \{name: "Per-team data", path: "teams\/%\{facts\.team\}\.yaml"\}\s*$/,
  );
  await page.screenshot({ path: `${SCREENSHOTS}/level-added.png` });
});

test("an invalid hiera.yaml is marked where the engine says, with its message", async () => {
  await page.goto(server.url);
  await page.locator("[data-testid=editor] .cm-editor").waitFor();
  const lines = await page.locator("[data-testid=editor] .cm-line").count();
  await typeAtEnd("broken: a: b");

  const problem = page.locator("[data-testid=problem]");
  await problem.waitFor();
  assert.match(await problem.innerText(), new RegExp(`\\b${lines}\\b`), "the message gives the line");
  assert.equal(await page.locator("[data-testid=levels]").count(), 0);

  // The marker sits on the line that was typed, and the gutter flags that line.
  const marked = page.locator("[data-testid=editor] .cm-line", { has: page.locator(".cm-lintRange-error") });
  await marked.waitFor();
  assert.equal(await marked.innerText(), "broken: a: b");
  assert.equal(await page.locator("[data-testid=editor] .cm-lint-marker-error").count(), 1);
  await page.screenshot({ path: `${SCREENSHOTS}/invalid.png` });
});

test("the page works with the plain editor while CodeMirror is not there", async () => {
  await page.route("**/codemirror.js", (route) => route.abort());
  await page.goto(server.url);
  await expectLevels(DEFAULT_LEVELS);
  const textarea = page.locator("[data-testid=editor] textarea");
  await textarea.click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type('  - name: "Per-team data"\n    path: "teams/%{facts.team}.yaml"\n');
  await expectLevels([...DEFAULT_LEVELS, "Per-team data"]);
  await page.screenshot({ path: `${SCREENSHOTS}/plain-editor.png` });
});

test("each file has its own tab and keeps its edits", async () => {
  await page.goto(server.url);
  await page.locator("[data-testid=editor] .cm-editor").waitFor();
  await page.getByRole("tab", { name: "data/common.yaml" }).click();
  await page.locator("[data-testid=editor] .cm-content", { hasText: "ntp::servers" }).waitFor();
  await typeAtEnd("extra: true");
  await page.getByRole("tab", { name: "hiera.yaml" }).click();
  await page.locator("[data-testid=editor] .cm-content", { hasText: "version: 5" }).waitFor();
  await page.getByRole("tab", { name: "data/common.yaml" }).click();
  await page.locator("[data-testid=editor] .cm-content", { hasText: "extra: true" }).waitFor();
  await expectLevels(DEFAULT_LEVELS);
});
