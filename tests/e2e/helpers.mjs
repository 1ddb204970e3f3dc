// Shared set-up of the end-to-end tests: the static server for dist/, Debian's
// Chromium through playwright-core, waits on the page's stable test hooks, and an
// order-preserving comparison of lookup values with Puppet's recorded ones.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { isMap, isScalar, isSeq, parseDocument } from "yaml";
import { serve } from "./server.mjs";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const SCREENSHOTS = `${ROOT}target/screenshots`;

/** Starts the server for dist/ and Chromium; resolves to { server, browser, close }. */
export async function start() {
  await mkdir(SCREENSHOTS, { recursive: true });
  const server = await serve(`${ROOT}dist`);
  const browser = await chromium.launch({
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
  return {
    server,
    browser,
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}

/**
 * A fresh context (so localStorage starts empty) and a page in it. The page's
 * uncaught errors collect in `errors`; its dialogs are answered from the queue
 * `answers` (true: accept, false/null/nothing queued: dismiss, a string: the
 * prompt's answer) and recorded in `asked`.
 */
export async function openPage(browser, url, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true, ...options });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(error));
  const answers = [];
  const asked = [];
  page.on("dialog", async (dialog) => {
    asked.push({ type: dialog.type(), message: dialog.message(), defaultValue: dialog.defaultValue() });
    const answer = answers.shift();
    if (answer === undefined || answer === false || answer === null) await dialog.dismiss();
    else if (answer === true) await dialog.accept();
    else await dialog.accept(String(answer));
  });
  if (url) await gotoReady(page, url);
  return { context, page, errors, answers, asked };
}

/** Loads the page and waits until the lookups are evaluated and CodeMirror is in. */
export async function gotoReady(page, url) {
  await page.goto(url);
  await page.locator("[data-testid=lookup-row][data-status]").first().waitFor();
  await page.locator("[data-testid=editor] .cm-editor").waitFor();
}

/** Attributes of every lookup row, in order. */
export function rows(page) {
  return page.$$eval("[data-testid=lookup-row]", (els) =>
    els.map((el) => ({
      key: el.getAttribute("data-key"),
      status: el.getAttribute("data-status"),
      json: el.getAttribute("data-value-json"),
      rendered: el.getAttribute("data-value-rendered"),
      error: el.getAttribute("data-error"),
      selected: el.getAttribute("aria-selected"),
    })),
  );
}

/** The n-th lookup row (0-based; negative counts from the end). */
export function rowAt(page, n) {
  return page.locator("[data-testid=lookup-row]").nth(n);
}

/** Polls `probe` (async) until `check(value)` holds; returns the value, or throws with the last one. */
export async function eventually(probe, check = Boolean, { timeout = 5000, message = "condition" } = {}) {
  const deadline = Date.now() + timeout;
  let value;
  for (;;) {
    value = await probe();
    if (check(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${message}; last seen: ${JSON.stringify(value, null, 1)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Waits until the rows satisfy `check(rows)`; returns them. */
export function rowsWhen(page, check, message = "the lookup rows") {
  return eventually(() => rows(page), check, { message });
}

/** Waits until an attribute of `locator` equals `expected`; returns it. */
export function attrWhen(locator, name, expected, timeout = 5000) {
  const check = typeof expected === "function" ? expected : (v) => v === expected;
  return eventually(() => locator.getAttribute(name), check, { timeout, message: `${name} ${expected}` });
}

/** Shows the Explain tab (a click on it, unless it is already chosen). */
export async function showExplain(page) {
  const tab = page.locator("[data-testid=tab-explain]");
  if ((await tab.getAttribute("aria-selected")) !== "true") await tab.click();
  await page.locator("[data-testid=explain]").waitFor({ state: "attached" });
}

/** The Explain tab's `puppet lookup --explain` text. */
export async function explainText(page) {
  await showExplain(page);
  return page.locator("[data-testid=explain]").textContent();
}

/** Waits until the explain text satisfies `check` (a RegExp or predicate); returns it. */
export async function explainWhen(page, check) {
  const test = check instanceof RegExp ? (t) => check.test(t) : check;
  await showExplain(page);
  return eventually(() => page.locator("[data-testid=explain]").textContent(), test, { message: `explain ${check}` });
}

/** Opens the file `path` from the file tree and waits until the editor shows it. */
export async function openFile(page, path) {
  await page.locator(`[data-testid=file-entry][data-path="${path}"]`).click();
  await page.locator(".file-title code", { hasText: path }).waitFor();
  await page.locator("[data-testid=editor] .cm-editor").waitFor();
}

/** The editor's text. */
export function editorText(page) {
  return page.locator("[data-testid=editor] .cm-content").innerText();
}

/** Replaces the whole text of the open file as a person would: click in, select all, type. */
export async function replaceEditorText(page, text) {
  await page.locator("[data-testid=editor] .cm-content").click();
  await page.keyboard.press("Control+A");
  await page.keyboard.press("Delete");
  // One insertion (like a paste): typing line by line would get CodeMirror's auto-indent.
  await page.keyboard.insertText(text);
}

/** Puts the cursor at the end of the editor's text and types `text`. */
export async function typeAtEnd(page, text) {
  await page.locator("[data-testid=editor] .cm-content").click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type(text);
}

/** Clicks "+ Add lookup" and returns the new (last) row, once it is there. */
export async function addLookup(page) {
  const count = await page.locator("[data-testid=lookup-row]").count();
  await page.locator("[data-testid=add-lookup]").click();
  await rowsWhen(page, (r) => r.length === count + 1, "a new row");
  return rowAt(page, count);
}

/** Names a new file or folder (`kind`) in the file tree's inline box, as a person types it. */
export async function newPath(page, kind, path) {
  await page.locator(`[data-testid=new-${kind}]`).click();
  const input = page.locator("[data-testid=new-path]");
  await input.fill(path);
  await input.press("Enter");
}

/** The paths of the file tree's files. */
export function filePaths(page) {
  return page.$$eval("[data-testid=file-entry]", (els) => els.map((el) => el.getAttribute("data-path")));
}

// ---- values -----------------------------------------------------------------

/**
 * A YAML node as plain data that keeps hash key order: a map is
 * { map: [[key as string, value], ...] }, a sequence an array, a number
 * { num: its decimal form } (so that 1 and 1.0 compare equal), other scalars
 * themselves.
 */
function plain(node) {
  if (node == null) return null;
  if (isMap(node)) return { map: node.items.map((pair) => [keyString(pair.key), plain(pair.value)]) };
  if (isSeq(node)) return node.items.map(plain);
  if (isScalar(node)) {
    // Psych, which wrote the cases, reads y/n and dates as strings where yaml's 1.1 schema would not.
    if (node.type === "PLAIN" && typeof node.source === "string" && (/^[yYnN]$/.test(node.source) || node.value instanceof Date)) {
      return node.source;
    }
    return scalar(node.value);
  }
  throw new Error(`unexpected YAML node ${node}`);
}

function scalar(v) {
  if (typeof v === "bigint") return { num: v.toString() };
  if (typeof v === "number") return { num: Number.isInteger(v) ? BigInt(v).toString() : String(v) };
  return v;
}

function keyString(key) {
  const p = plain(key);
  if (p === null) return "";
  if (typeof p !== "object") return String(p);
  return p.num ?? JSON.stringify(p);
}

function readYaml(text, version) {
  const doc = parseDocument(text, { version, intAsBigInt: true, uniqueKeys: false });
  if (doc.errors.length) throw new Error(`cannot read ${JSON.stringify(text)}: ${doc.errors[0].message}`);
  return doc;
}

/** The page's data-value-json as order-preserving plain data. */
export function fromJson(json) {
  return plain(readYaml(json, "1.2").contents);
}

/** Splits a case file into its parts, with each lookup's expected value and each class's
 * expected parameters as order-preserving plain data. */
export function readCase(text) {
  // Case files are Ruby (YAML 1.1) documents.
  const doc = readYaml(text, "1.1");
  const data = doc.toJS({ maxAliasCount: -1 });
  const lookupNodes = doc.get("lookups")?.items ?? [];
  data.lookups = (data.lookups ?? []).map((l, i) => {
    const expectNode = lookupNodes[i].get("expect", true);
    const valueNode = expectNode && isMap(expectNode) ? expectNode.get("value", true) : undefined;
    const hasValue = !!(expectNode && isMap(expectNode) && expectNode.has("value"));
    return { ...l, label: Array.isArray(l.key) ? JSON.stringify(l.key) : String(l.key), expectValue: hasValue ? plain(valueNode ?? null) : undefined };
  });
  // Each class's recorded parameters, in order, as plain data.
  const classNodes = doc.get("classes")?.items ?? [];
  data.classes = (data.classes ?? []).map((c, i) => {
    const params = classNodes[i].getIn(["expect", "parameters"], true);
    return { ...c, expectParameters: params && isMap(params) ? params.items.map((p) => [keyString(p.key), plain(p.value)]) : undefined };
  });
  return data;
}

/** Deep equality of plain data as made by `plain` (array order and map key order count). */
export function samePlain(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Checks one row against a case lookup's expectation; returns null when it
 * matches, else what differs. `exactError` tells whether an expected error's
 * text matched exactly.
 */
export function checkRow(row, lookup) {
  const expect = lookup.expect ?? {};
  if (row.key !== lookup.label) return { problem: `key ${row.key}, expected ${lookup.label}` };
  if (lookup.expectValue !== undefined) {
    if (row.status !== "found") return { problem: `status ${row.status} (${row.error}), expected a value` };
    let got;
    try {
      got = fromJson(row.json);
    } catch (e) {
      return { problem: `unreadable data-value-json ${row.json}: ${e.message}` };
    }
    if (!samePlain(got, lookup.expectValue)) {
      return { problem: `value ${JSON.stringify(got)}, expected ${JSON.stringify(lookup.expectValue)}` };
    }
    return null;
  }
  if ("value_rendered" in expect) {
    if (row.status !== "found") return { problem: `status ${row.status} (${row.error}), expected ${expect.value_rendered}` };
    if (row.rendered !== expect.value_rendered) return { problem: `rendered ${row.rendered}, expected ${expect.value_rendered}` };
    return null;
  }
  if ("error" in expect) {
    if (row.status !== "error") return { problem: `status ${row.status} (${row.json}), expected error ${expect.error}` };
    return null;
  }
  return { problem: "the case has no expectation" };
}

/**
 * Registers a file's browser set-up: Chromium and the server start before its
 * tests and stop after them. Returns { env } (filled in once started) and
 * `pageTest(name, body, options)`: a test on a fresh page of the welcome
 * example that closes the page after `body` and fails if the page threw.
 */
export function browserSuite() {
  const suite = { env: null };
  before(async () => {
    suite.env = await start();
  });
  after(async () => {
    await suite.env?.close();
  });
  suite.pageTest = (name, body, options) =>
    test(name, async () => {
      const p = await openPage(suite.env.browser, suite.env.server.url, options);
      try {
        await body(p);
      } finally {
        await p.context.close();
      }
      assert.deepEqual(p.errors, [], "the page threw");
    });
  return suite;
}

// ---- the visitor's works, as the page keeps them -----------------------------

/** The saved text of the work this tab shows ("" while it shows none). */
export function savedWork(page) {
  return page.evaluate(() => {
    const tab = JSON.parse(sessionStorage.getItem("hiera-playground/tab") ?? "{}");
    return (tab.work && localStorage.getItem(`hiera-playground/work/${tab.work}`)) ?? "";
  });
}

/** The saved texts of every work the browser keeps, newest first. */
export function savedWorks(page) {
  return page.evaluate(() => {
    const index = JSON.parse(localStorage.getItem("hiera-playground/works") ?? "[]");
    return index.map((w) => localStorage.getItem(`hiera-playground/work/${w.id}`) ?? "");
  });
}
