// End-to-end tests of the release build (dist/) in Debian's Chromium: the welcome
// example, the editor, the node panel, the key browser, keyboard use, phone size
// and dark mode.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import {
  ROOT,
  SCREENSHOTS,
  attrWhen,
  checkRow,
  editorText,
  eventually,
  explainText,
  explainWhen,
  filePaths,
  gotoReady,
  openFile,
  openPage,
  readCase,
  rowAt,
  rows,
  rowsWhen,
  typeAtEnd,
  browserSuite,
} from "./helpers.mjs";

const suite = browserSuite();
const { pageTest } = suite;


const WELCOME_FILES = [
  "hiera.yaml",
  "data/nodes/web01.example.com.yaml",
  "data/roles/web.yaml",
  "data/os/Debian.yaml",
  "data/common.yaml",
];

pageTest("the welcome example loads, evaluated, with the first lookup explained", async ({ page }) => {
  assert.equal(await page.title(), "Hiera Playground");
  const shown = await rows(page);
  assert.equal(shown.length, 7);
  assert.equal(shown[0].key, "profile::web::port");
  assert.equal(shown[0].status, "found");
  assert.equal(shown[0].json, "8080");
  assert.equal(shown[0].selected, "true");
  // Every row is what Puppet recorded for the welcome example.
  const welcome = readCase(await readFile(`${ROOT}www/examples/00-welcome.yaml`, "utf8"));
  welcome.lookups.forEach((lookup, i) => assert.equal(checkRow(shown[i], lookup), null, `row ${i}`));

  const explain = await explainText(page);
  assert.ok(explain.startsWith('Searching for "lookup_options"'), explain.slice(0, 80));
  assert.match(explain, /Found key: "profile::web::port" value: 8080/);
  assert.match(await page.locator("[data-testid=description]").innerText(), /four-level hierarchy/);
  assert.deepEqual((await filePaths(page)).sort(), [...WELCOME_FILES].sort());
  assert.equal(await page.locator(".file-title").innerText(), "hiera.yaml");
  assert.match(await editorText(page), /^# Hiera 5/);
  assert.ok((await page.locator("[data-testid=editor] .cm-line span").count()) > 10, "YAML is highlighted");
  await page.screenshot({ path: `${SCREENSHOTS}/welcome.png`, fullPage: true });
});

pageTest("editing a data file updates the rows as you type; broken YAML is reported and marked", async ({ page }) => {
  await openFile(page, "data/nodes/web01.example.com.yaml");
  assert.match(await editorText(page), /^profile::web::port: 8080\n/);
  const port = rowAt(page, 0);

  // Change 8080 to 9090: end of the first line, four backspaces, four digits. No button.
  await page.locator("[data-testid=editor] .cm-content").click();
  await page.keyboard.press("Control+Home");
  await page.keyboard.press("End");
  for (let i = 0; i < 4; i++) await page.keyboard.press("Backspace");
  await page.keyboard.type("9090");
  await attrWhen(port, "data-value-json", "9090");
  assert.equal(await port.getAttribute("data-status"), "found");
  assert.match(await explainText(page), /Found key: "profile::web::port" value: 9090/);

  // Broken YAML on a new last line.
  const lines = await page.locator("[data-testid=editor] .cm-line").count();
  // A key still without its colon: Psych blames the key's line, not the next.
  await typeAtEnd(page, "broken");
  await attrWhen(port, "data-error", (e) =>
    new RegExp(`could not find expected ':' while scanning a simple key at line ${lines} column 1$`).test(e ?? ""),
  );
  await page.keyboard.type(": a: b");
  // "broken: a:" on the way gives the same message: wait for the whole line first.
  await eventually(() => editorText(page), (t) => /broken: a: b\s*$/.test(t), { message: "the typed line" });
  const error = await attrWhen(port, "data-error", (e) => /mapping values are not allowed/.test(e ?? ""));
  assert.equal(await port.getAttribute("data-status"), "error");
  assert.match(error, /\/etc\/puppetlabs\/code\/environments\/production\/data\/nodes\/web01\.example\.com\.yaml/, error);
  assert.match(error, new RegExp(`line ${lines}\\b`), `the message gives line ${lines}: ${error}`);
  assert.equal(await port.getAttribute("data-value-json"), null);
  assert.match(await port.locator("[data-testid=lookup-error]").innerText(), /Unable to parse/);
  // Every lookup reads the per-node level first, so every lookup now fails the same way.
  assert.deepEqual(new Set((await rows(page)).map((r) => r.error)), new Set([error]));

  // CodeMirror marks the typed line, in the text and in the gutter.
  const marked = page.locator("[data-testid=editor] .cm-line", { has: page.locator(".cm-lintRange-error") });
  await marked.waitFor();
  assert.equal(await marked.innerText(), "broken: a: b");
  await page.locator("[data-testid=editor] .cm-lint-marker-error").first().waitFor();
  await page.screenshot({ path: `${SCREENSHOTS}/broken-yaml.png` });

  // Fixing it (delete the line) brings the value back and removes the marks.
  await page.keyboard.press("Shift+Home");
  await page.keyboard.press("Backspace");
  await attrWhen(port, "data-status", "found");
  assert.equal(await port.getAttribute("data-value-json"), "9090");
  assert.equal(await port.getAttribute("data-error"), null);
  await eventually(() => page.locator("[data-testid=editor] .cm-lintRange-error").count(), (n) => n === 0, {
    message: "the lint mark to go",
  });
  assert.equal(await page.locator("[data-testid=editor] .cm-lint-marker-error").count(), 0);
});

pageTest("a word typed above hiera.yaml's first key fails every lookup as Puppet does, on the key's line", async ({ page }) => {
  await openFile(page, "hiera.yaml");
  await page.locator("[data-testid=editor] .cm-content").click();
  await page.keyboard.press("Control+Home");
  await page.keyboard.press("End");
  // "broken" then "version: 5" read as one key over two lines, which YAML refuses at its colon.
  await page.keyboard.insertText("\nbroken");
  const message =
    "(/etc/puppetlabs/code/environments/production/hiera.yaml): mapping values are not allowed in this context at line 3 column 8";
  const port = rowAt(page, 0);
  await attrWhen(port, "data-error", `${message}\nWrapped exception:\n${message}`);
  assert.deepEqual(new Set((await rows(page)).map((r) => r.status)), new Set(["error"]));
  // Puppet's two parts on two lines, and the mark on the colon's line.
  assert.match(await port.locator("[data-testid=lookup-error]").innerText(), /column 8\nWrapped exception:\n/);
  const marked = page.locator("[data-testid=editor] .cm-line", { has: page.locator(".cm-lintRange-error") });
  await marked.waitFor();
  assert.equal(await marked.innerText(), "version: 5");
});

pageTest("each file keeps its edits when another is opened", async ({ page }) => {
  await openFile(page, "data/common.yaml");
  await typeAtEnd(page, "extra: true");
  await openFile(page, "hiera.yaml");
  assert.match(await editorText(page), /version: 5/);
  await openFile(page, "data/common.yaml");
  assert.match(await editorText(page), /extra: true\s*$/);
  assert.equal(await page.locator("[data-testid=file-entry][aria-current=true]").getAttribute("data-path"), "data/common.yaml");
});

test("the page works with the plain editor while CodeMirror is not there", async () => {
  // The page's service worker would fetch codemirror.js past page.route: block it.
  const { page, context, errors } = await openPage(suite.env.browser, null, { serviceWorkers: "block" });
  await page.route("**/codemirror.js", (route) => route.abort());
  await page.goto(suite.env.server.url);
  await page.locator("[data-testid=lookup-row][data-status]").first().waitFor();
  await page.locator("[data-testid=file-entry][data-path='data/nodes/web01.example.com.yaml']").click();
  const textarea = page.locator("[data-testid=editor] textarea");
  await eventually(() => textarea.inputValue(), (t) => t.startsWith("profile::web::port: 8080"), { message: "the file in the textarea" });
  await textarea.fill("profile::web::port: 7070\n");
  await attrWhen(rowAt(page, 0), "data-value-json", "7070");
  assert.equal(await page.locator("[data-testid=editor] .cm-editor").count(), 0);
  await page.screenshot({ path: `${SCREENSHOTS}/plain-editor.png` });
  await context.close();
  assert.deepEqual(errors, []);
});

pageTest("facts, presets, node name and environment change the results", async ({ page, answers, asked }) => {
  const facts = page.locator("[data-testid=facts-editor]");
  const factsText = await facts.inputValue();
  assert.match(factsText, /^role: web$/m);
  const packages = rowAt(page, 3);
  assert.equal(await packages.getAttribute("data-value-json"), '["nginx","apt-transport-https","unattended-upgrades","curl"]');

  // role: db — there is no data/roles/db.yaml, so nginx goes.
  await facts.click();
  await page.keyboard.press("Control+A");
  const dbFacts = factsText.replace("role: web", "role: db");
  await page.keyboard.type(dbFacts);
  // The rows follow the facts in the same event: once the last key is in, they are its.
  await eventually(() => facts.inputValue(), (v) => v === dbFacts, { message: "the typed facts" });
  assert.equal(await packages.getAttribute("data-value-json"), '["apt-transport-https","unattended-upgrades","curl"]');
  assert.equal(await rowAt(page, 6).getAttribute("data-status"), "error", "the vhost came from the web role");

  // Invalid facts: an error under the facts, the results stay as they were.
  const before = await rows(page);
  await facts.click();
  await page.keyboard.press("Control+End");
  // In one piece: typed key by key, "broken:" on the way is valid and clears the error.
  await page.keyboard.insertText("\nbroken: [");
  const factsError = page.locator("[data-testid=facts-error]");
  await factsError.waitFor();
  assert.match(await factsError.innerText(), /^Facts: .* at line \d+ column \d+$/);
  assert.equal(await facts.getAttribute("aria-invalid"), "true");
  assert.deepEqual(await rows(page), before);
  // Fixed, the error goes.
  await page.keyboard.press("Backspace");
  await page.keyboard.type("x]");
  await factsError.waitFor({ state: "detached" });
  assert.deepEqual((await rows(page)).map((r) => r.json), before.map((r) => r.json));

  // A preset does not replace facts of the work's own unasked: declined, they stay.
  const typed = await facts.inputValue();
  await page.locator("[data-testid=facts-preset]").selectOption({ label: "RHEL / Rocky 9" });
  await eventually(() => asked.length, (n) => n === 1, { message: "the question" });
  assert.match(asked[0].message, /^Replace the facts \(\d+ lines\) with those of the RHEL \/ Rocky 9 preset\?$/);
  assert.equal(await facts.inputValue(), typed);
  assert.equal(await page.locator("[data-testid=facts-preset]").inputValue(), "", "the preset menu goes back to its label");

  // Accepted, the preset sets the facts and the node: a RedHat database server.
  answers.push(true);
  await page.locator("[data-testid=facts-preset]").selectOption({ label: "RHEL / Rocky 9" });
  await attrWhen(rowAt(page, 4), "data-value-json", '"Managed by Puppet on RedHat 9"');
  assert.equal(await page.locator("[data-testid=node-input]").inputValue(), "db01.example.com");
  assert.match(await facts.inputValue(), /^role: database$/m);
  assert.equal(await rowAt(page, 0).getAttribute("data-value-json"), "80", "no per-node file for db01");
  assert.equal(await page.locator("[data-testid=facts-preset]").inputValue(), "", "the preset menu goes back to its label");

  // The node name is trusted.certname: name it web01 again and the per-node level is back.
  const node = page.locator("[data-testid=node-input]");
  await node.fill("web01.example.com");
  await attrWhen(rowAt(page, 0), "data-value-json", "8080");
  await rowAt(page, 0).click();
  await explainWhen(page, /Path "\/etc\/puppetlabs\/code\/environments\/production\/data\/nodes\/web01\.example\.com\.yaml"/);
  await node.fill("web02.example.com");
  await attrWhen(rowAt(page, 0), "data-value-json", "80");
  await explainWhen(page, /data\/nodes\/web02\.example\.com\.yaml"\n\s+Original path: "nodes\/%\{trusted\.certname\}\.yaml"\n\s+Path not found/);

  // The environment shows in every path of the explanation, and in the file tree's heading.
  const environment = page.locator("[data-testid=environment-input]");
  assert.equal(await environment.inputValue(), "production");
  await environment.click();
  await page.keyboard.press("Control+A");
  await page.keyboard.type("staging");
  const explain = await explainWhen(page, /environments\/staging\//);
  assert.doesNotMatch(explain, /environments\/production\//);
  assert.match(explain, /Using configuration "\/etc\/puppetlabs\/code\/environments\/staging\/hiera\.yaml"/);
  assert.match(await page.locator(".file-tree .tree-root").first().innerText(), /environments\/staging\//);
  assert.equal(await rowAt(page, 0).getAttribute("data-value-json"), "80", "the data moves with the environment");
});

pageTest("facts pasted from another node name the node, unless the node was named otherwise", async ({ page, answers }) => {
  const facts = page.locator("[data-testid=facts-editor]");
  const node = page.locator("[data-testid=node-input]");
  answers.push(true);
  await page.locator("[data-testid=facts-preset]").selectOption({ label: "Debian 12" });
  // The preset's facts arrive after a fetch (the welcome's node already has the preset's name).
  await eventually(() => facts.inputValue(), (t) => /codename: bookworm/.test(t), { message: "the preset's facts" });
  assert.equal(await node.inputValue(), "web01.example.com");
  // facter -y of web09: the node was the facts' own, so it follows them.
  await facts.fill("networking:\n  fqdn: web09.example.com\nos:\n  family: Debian\nrole: web\n");
  await eventually(() => node.inputValue(), (n) => n === "web09.example.com", { message: "the pasted facts' node" });
  // A node named by hand stays.
  await node.fill("custom.example.com");
  await facts.fill("networking:\n  fqdn: web10.example.com\nos:\n  family: Debian\nrole: web\n");
  await eventually(() => facts.inputValue(), (t) => t.includes("web10"));
  assert.equal(await node.inputValue(), "custom.example.com");
});

pageTest("the All keys tab lists every key the node resolves, with its value and source", async ({ page }) => {
  await page.locator("[data-testid=tab-all-keys]").click();
  assert.equal(await page.locator("[data-testid=tab-all-keys]").getAttribute("aria-selected"), "true");
  const table = page.locator("[data-testid=key-browser]");
  await table.waitFor();
  const keys = await page.$$eval("[data-testid=resolved-key]", (trs) =>
    trs.map((tr) => [tr.getAttribute("data-key"), ...[...tr.cells].slice(1).map((td) => td.innerText)]),
  );
  const byKey = Object.fromEntries(keys.map(([k, ...rest]) => [k, rest]));
  assert.deepEqual(Object.keys(byKey).sort(), [
    "ntp::servers",
    "profile::base::motd",
    "profile::base::packages",
    "profile::web::port",
    "profile::web::vhosts",
  ]);
  assert.deepEqual(byKey["profile::web::port"], ["8080", "Per-node data (data/nodes/web01.example.com.yaml)"]);
  assert.equal(byKey["profile::base::packages"][0], '["nginx","apt-transport-https","unattended-upgrades","curl"]');
  assert.match(byKey["profile::base::packages"][1], /Per-role data \(data\/roles\/web\.yaml\)/);
  assert.match(byKey["profile::base::packages"][1], /Common data \(data\/common\.yaml\)/);
  assert.equal(byKey["profile::web::vhosts"][0], '{"www.example.com":{"docroot":"/var/www/example"}}');

  // A source opens its file.
  await table.getByRole("button", { name: "Per-role data (data/roles/web.yaml)" }).first().click();
  await page.locator(".file-title code", { hasText: "data/roles/web.yaml" }).waitFor();
  // The table follows edits.
  await typeAtEnd(page, "profile::extra: yes");
  // The row appears with "profile::extra:" (null) and "y" on the way.
  const extra = page.locator("[data-testid=resolved-key][data-key='profile::extra']");
  await eventually(() => extra.innerText().catch(() => ""), (t) => /\btrue\b/.test(t), { message: "profile::extra: true" });

  await page.locator("[data-testid=tab-explain]").click();
  await explainWhen(page, /^Searching for "lookup_options"/);
  assert.equal(await table.count(), 0);
});

pageTest("keyboard only: Tab to the lookups, move with the arrow keys, edit a key", async ({ page }) => {
  await page.locator("body").click({ position: { x: 5, y: 5 } });
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute("data-testid"));
  // Tab past the lookups to the Explain tab, and choose it. The file tree and
  // the lookups are one stop each (with the open file's and the selected
  // row's own controls): 91 presses before they were.
  let presses = 0;
  const seen = [];
  while ((await focused()) !== "tab-explain") {
    await page.keyboard.press("Tab");
    seen.push(await focused());
    presses += 1;
    assert.ok(presses < 150, "the Explain tab can be reached with Tab");
  }
  assert.equal(seen.filter((s) => s === "lookup-row").length, 1, seen.join(" "));
  assert.equal(seen.filter((s) => s === "file-entry").length, 1, seen.join(" "));
  assert.ok(presses <= 40, `${presses} presses to the Explain tab: ${seen.join(" ")}`);
  await page.keyboard.press("Enter");
  await attrWhen(page.locator("[data-testid=tab-explain]"), "aria-selected", "true");
  // The row Tab stopped at is the selected one, explained.
  await attrWhen(rowAt(page, 0), "aria-selected", "true");
  await explainWhen(page, /Searching for "profile::web::port"\n/);
  // Back up to the row, then End and Home.
  while ((await focused()) !== "lookup-row") {
    await page.keyboard.press("Shift+Tab");
    presses += 1;
    assert.ok(presses < 80, "a lookup row can be reached with Shift+Tab");
  }
  const focusedKey = () => page.evaluate(() => document.activeElement.closest("[data-testid=lookup-row]")?.getAttribute("data-key"));
  assert.equal(await focusedKey(), "profile::web::port");
  await page.keyboard.press("End");
  await attrWhen(rowAt(page, 6), "aria-selected", "true");
  await explainWhen(page, /Searching for "profile::web::vhosts\."www\.example\.com"\.docroot"/);
  assert.equal(await focusedKey(), 'profile::web::vhosts."www.example.com".docroot');
  // Tab now stops at this row: leaving the list and coming back lands on it.
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Tab");
  assert.equal(await focusedKey(), 'profile::web::vhosts."www.example.com".docroot');
  await page.keyboard.press("Home");
  await attrWhen(rowAt(page, 0), "aria-selected", "true");
  assert.equal(await focusedKey(), "profile::web::port");
  await explainWhen(page, /Searching for "profile::web::port"\n/);

  await page.keyboard.press("ArrowDown");
  await attrWhen(rowAt(page, 1), "aria-selected", "true");
  assert.equal(await rowAt(page, 0).getAttribute("aria-selected"), "false");
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute("data-testid")), "lookup-row");
  await explainWhen(page, /Searching for "ntp::servers"\n/);
  await page.keyboard.press("End");
  await attrWhen(rowAt(page, 6), "aria-selected", "true");
  await explainWhen(page, /Searching for "profile::web::vhosts\."www\.example\.com"\.docroot"/);
  await page.keyboard.press("ArrowUp");
  await attrWhen(rowAt(page, 5), "aria-selected", "true");
  await page.keyboard.press("Home");
  await attrWhen(rowAt(page, 0), "aria-selected", "true");
  await page.keyboard.press("ArrowDown");
  await attrWhen(rowAt(page, 1), "aria-selected", "true");

  // Tab goes into the selected row's key field; type a new key there.
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute("data-testid")), "lookup-key");
  await page.keyboard.press("Control+A");
  await page.keyboard.type("profile::base::motd");
  await attrWhen(rowAt(page, 1), "data-key", "profile::base::motd");
  await attrWhen(rowAt(page, 1), "data-value-json", '"Managed by Puppet on Debian 12"');
  await explainWhen(page, /Searching for "profile::base::motd"\n/);
  // Arrow keys in a field move the cursor, not the selection.
  await page.keyboard.press("ArrowDown");
  assert.equal(await rowAt(page, 1).getAttribute("aria-selected"), "true");
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute("data-testid")), "lookup-key");
  await page.screenshot({ path: `${SCREENSHOTS}/keyboard.png` });
});

/** Relative luminance (0 black … 1 white) of a CSS rgb() colour. */
function luminance(css) {
  const [r, g, b] = css.match(/[\d.]+/g).slice(0, 3).map(Number);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

async function colours(page) {
  return page.evaluate(() => {
    const bg = (el) => {
      for (let e = el; e; e = e.parentElement) {
        const c = getComputedStyle(e).backgroundColor;
        if (c && c !== "rgba(0, 0, 0, 0)" && c !== "transparent") return c;
      }
      return "rgb(255, 255, 255)";
    };
    return {
      page: bg(document.body),
      text: getComputedStyle(document.body).color,
      editor: bg(document.querySelector("[data-testid=editor] .cm-editor")),
      row: bg(document.querySelector("[data-testid=lookup-row]")),
    };
  });
}

pageTest(
  "phone-sized screen: one column, no sideways scrolling, still editable",
  async ({ page }) => {
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `the page is ${width}px wide`);
    await page.screenshot({ path: `${SCREENSHOTS}/phone.png` });
    await page.screenshot({ path: `${SCREENSHOTS}/phone-full.png`, fullPage: true });
    // The panes stack, each as wide as the screen; the results come first.
    const editor = await page.locator("[data-testid=editor]").boundingBox();
    const row = await rowAt(page, 0).boundingBox();
    assert.ok(row.y < editor.y, "the lookups are above the editor");
    assert.ok(editor.x >= 0 && editor.x + editor.width <= 390, "the editor fits");
    assert.ok(row.x >= 0 && row.x + row.width <= 390, "the row fits");

    await openFile(page, "data/nodes/web01.example.com.yaml");
    await page.locator("[data-testid=editor] .cm-content").tap();
    await page.keyboard.press("Control+Home");
    await page.keyboard.press("End");
    await page.keyboard.press("Backspace");
    await page.keyboard.type("1");
    await attrWhen(rowAt(page, 0), "data-value-json", "8081");
    await rowAt(page, 3).tap();
    await explainWhen(page, /Searching for "profile::base::packages"/);
    assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 390);
  },
  { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
);

pageTest(
  "dark mode follows the system, and the theme button switches it",
  async ({ page, context }) => {
    const dark = await colours(page);
    assert.ok(luminance(dark.page) < 0.25, `dark page background ${dark.page}`);
    assert.ok(luminance(dark.text) > 0.6, `light text ${dark.text}`);
    assert.ok(luminance(dark.editor) < 0.25, `dark editor ${dark.editor}`);
    assert.equal(await page.evaluate(() => document.documentElement.getAttribute("data-theme")), null);
    await page.screenshot({ path: `${SCREENSHOTS}/dark.png` });

    // The button cycles: dark (chosen) → light (chosen) → the system's again.
    const button = page.locator("[data-testid=theme]");
    const theme = () => page.evaluate(() => document.documentElement.getAttribute("data-theme"));
    await button.click();
    assert.equal(await theme(), "dark");
    await button.click();
    assert.equal(await theme(), "light");
    const light = await eventually(() => colours(page), (c) => luminance(c.editor) > 0.75, { message: "a light editor" });
    assert.ok(luminance(light.page) > 0.75, `light page background ${light.page}`);
    assert.ok(luminance(light.text) < 0.4, `dark text ${light.text}`);
    await page.screenshot({ path: `${SCREENSHOTS}/dark-system-light-chosen.png` });

    // The choice is remembered.
    await gotoReady(page, suite.env.server.url);
    assert.equal(await theme(), "light");
    await button.click();
    assert.equal(await theme(), null);
    await eventually(() => colours(page), (c) => luminance(c.editor) < 0.25, { message: "the dark editor back" });
  },
  { colorScheme: "dark" },
);

pageTest(
  "the theme button makes a light system's page dark",
  async ({ page }) => {
    const light = await colours(page);
    assert.ok(luminance(light.page) > 0.75, `light page background ${light.page}`);
    await page.locator("[data-testid=theme]").click();
    const dark = await eventually(() => colours(page), (c) => luminance(c.editor) < 0.25, { message: "a dark editor" });
    assert.ok(luminance(dark.page) < 0.25, `dark page background ${dark.page}`);
    assert.ok(luminance(dark.row) < 0.3, `dark rows ${dark.row}`);
    await page.screenshot({ path: `${SCREENSHOTS}/dark-chosen.png` });
  },
  { colorScheme: "light" },
);
