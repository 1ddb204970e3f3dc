// "Why is this the value?": the merge step by step, interpolation, source
// links, the explanation tree and the trap warnings, on the documentation's
// own examples (the gallery).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { SCREENSHOTS, attrWhen, eventually, gotoReady, openPage, rowAt, rowsWhen, start } from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

/** Opens a gallery example and selects its n-th lookup; returns the page. */
async function example(file, n) {
  const { page, context, errors } = await openPage(env.browser);
  await gotoReady(page, env.server.url);
  const welcome = await page.locator("[data-testid=description]").innerText();
  await page.selectOption("[data-testid=gallery]", file);
  // The example arrives by fetch: wait until the page shows it, not the welcome.
  await eventually(() => page.locator("[data-testid=description]").innerText(), (d) => d !== welcome, { message: `${file} to open` });
  await rowsWhen(page, (rs) => rs.length > n && rs.every((r) => r.status));
  await rowAt(page, n).click();
  // Row 0 is selected when an example opens, and its steps are already there.
  await attrWhen(rowAt(page, n), "aria-selected", "true");
  await page.locator("[data-testid=merge-steps]").waitFor();
  return { page, context, errors };
}

const steps = (page) =>
  page.$$eval("[data-testid=merge-step]", (els) => els.map((e) => ({ path: e.dataset.path, outcome: e.dataset.outcome, text: e.innerText })));

test("site_users with a deep merge: both places found, bob's shell comes from common.yaml", async () => {
  const { page, context, errors } = await example("05-hash-vs-deep-site-users.yaml", 1);
  const s = await eventually(() => steps(page), (s) => s.length === 2);
  assert.deepEqual(s.map((x) => x.outcome), ["found", "found"]);
  assert.match(s[0].path, /data\/groups\/ops\.yaml$/);
  assert.match(s[1].path, /data\/common\.yaml$/);
  // The path template with its token marked by what it became.
  assert.match(await page.locator("[data-testid=merge-step] mark.token").first().innerText(), /ops/);
  // The second step's changes: bob's shell added, bob's uid from common.yaml ignored.
  assert.match(s[1].text, /\+ bob\.shell "\/bin\/bash"/);
  assert.match(s[1].text, /= bob\.uid 501 ignored/);
  const link = page.locator('[data-testid=source-link][data-file="data/common.yaml"]').filter({ hasText: /common\.yaml:4$/ });
  await link.first().click();
  await page.locator(".file-title code", { hasText: "data/common.yaml" }).waitFor();
  await eventually(() => page.locator("[data-testid=revealed-line]").innerText().catch(() => ""), (t) => t.includes("shell: /bin/bash"));
  await page.screenshot({ path: `${SCREENSHOTS}/why-site-users.png` });
  assert.deepEqual(errors, []);
  await context.close();
});

test("the hash merge of site_users keeps only the higher level's bob", async () => {
  const { page, context } = await example("05-hash-vs-deep-site-users.yaml", 0);
  const s = await eventually(() => steps(page), (s) => s.length === 2);
  assert.match(s[1].text, /= bob/);
  assert.doesNotMatch(s[1].text, /\+ bob\.shell/);
  await context.close();
});

test("a knockout across three levels is shown and warned about", async () => {
  const { page, context } = await example("07-knockout-three-levels.yaml", 1);
  const s = await eventually(() => steps(page), (s) => s.length >= 3);
  assert.ok(s.some((x) => /knockout mark, used up/.test(x.text)), "a step shows the knockout used up");
  const warnings = await page.locator("[data-testid=warning]").allInnerTexts();
  assert.ok(warnings.some((w) => /only from the next level down/.test(w)), warnings.join("\n"));
  await context.close();
});

test("a unique merge: a missing key, then values appended from lower levels", async () => {
  const { page, context } = await example("02-unique-merge.yaml", 0);
  const s = await eventually(() => steps(page), (s) => s.length >= 2);
  assert.equal(s[0].outcome, "no-such-key");
  assert.ok(s.slice(1).every((x) => x.outcome === "found"));
  assert.equal(await page.locator("[data-testid=source-link]").count(), 3);
  await context.close();
});

test("an alias is expanded, with the key it looked up", async () => {
  const { page, context } = await example("28-interpolate-alias.yaml", 1);
  const details = page.locator("[data-testid=merge-step] details.interpolation").first();
  await details.locator("summary").click();
  assert.match(await details.innerText(), /\(alias\)/);
  assert.match(await details.innerText(), /looked up/);
  await context.close();
});

test("stepping through with the buttons and the arrow keys opens each step's file at its line", async () => {
  const { page, context } = await example("05-hash-vs-deep-site-users.yaml", 1);
  const shown = () => page.locator(".file-title code").innerText();
  await page.click("[data-testid=step-next]");
  assert.equal(await page.locator("[data-testid=step-position]").innerText(), "Step 1 of 2");
  await eventually(shown, (f) => /^data\/.*ops/.test(f), { message: "the first step's file open" });
  await page.locator("[data-testid=merge-steps]").focus();
  await page.keyboard.press("ArrowRight");
  assert.equal(await page.locator("[data-testid=step-position]").innerText(), "Step 2 of 2");
  await eventually(shown, (f) => f === "data/common.yaml", { message: "the second step's file open" });
  await eventually(() => page.locator("[data-testid=revealed-line]").innerText().catch(() => ""), (t) => t.includes("bob:"));
  assert.equal(await page.locator("[data-testid=merge-step].current").getAttribute("data-outcome"), "found");
  await page.keyboard.press("ArrowLeft");
  assert.equal(await page.locator("[data-testid=step-position]").innerText(), "Step 1 of 2");
  await context.close();
});

test("the explanation tree folds and its paths open the file", async () => {
  const { page, context } = await example("03-hash-merge.yaml", 0);
  await page.click("[data-testid=tab-explain]");
  const path = page.locator('[data-testid=explain-path][data-file="data/common.yaml"]').first();
  await path.click();
  await page.locator(".file-title code", { hasText: "data/common.yaml" }).waitFor();
  const first = page.locator("[data-testid=explain-tree] details").first();
  await first.locator("summary").first().click();
  assert.equal(await first.getAttribute("open"), null, "the node folded");
  await context.close();
});

test("a missing fact in a hierarchy path is a warning", async () => {
  const { page, context } = await openPage(env.browser);
  await gotoReady(page, env.server.url);
  await page.locator("[data-testid=facts-editor]").fill("os:\n  family: Debian\n");
  // profile::base::motd is in common.yaml: its search passes the roles level.
  await page.locator('[data-testid=lookup-row][data-key="profile::base::motd"]').click();
  const warnings = await eventually(() => page.locator("[data-testid=warning]").allInnerTexts(), (w) => w.length > 0);
  assert.ok(warnings.some((w) => /roles\/\.yaml/.test(w) && /not defined/.test(w)), warnings.join("\n"));
  // Each warning links to the documentation of its trap.
  const doc = page.locator('[data-testid=warning][data-kind=empty-path-segment] [data-testid=warning-doc]');
  assert.equal(await doc.getAttribute("href"), "https://help.puppet.com/core/8/Content/PuppetCore/hiera_interpolation.htm");
  // The merge menu, the providers and the changes say what they are on hover.
  assert.match(await page.locator("[data-testid=lookup-merge] option[value='']").first().getAttribute("title"), /lookup_options say/);
  assert.match(await page.locator(".step-layer").first().getAttribute("title"), /The environment layer/);
  await context.close();
});

/** Opens a case document written here (as a case file the user opens). */
async function openDocument(name, yaml) {
  const { page, context, errors } = await openPage(env.browser, env.server.url);
  await page.setInputFiles("[data-testid=open-case]", { name, mimeType: "application/yaml", buffer: Buffer.from(yaml) });
  await eventually(() => rowAt(page, 0).getAttribute("data-key"), (k) => k !== "profile::web::port", { message: `${name} to open` });
  return { page, context, errors };
}

const ALIASES = `files:
  hiera.yaml: |
    version: 5
    hierarchy:
      - name: Common
        path: common.yaml
  data/common.yaml: |
    b: [1]
    a: "x %{alias('b')}"
    r: "%{alias('r')}"
    c:
      x: "%{alias('d')}"
      y: 2
    d: {k: v, l: [1, "%{lookup('e')}"]}
    e: eee
lookups:
- key: a
- key: r
- key: c
`;

test("a value whose alias is misused or recursive: the step says what failed, at the key's line, marked in the editor", async () => {
  const { page, context, errors } = await openDocument("aliases.yaml", ALIASES);
  for (const [n, error] of [
    [0, /'alias' interpolation is only permitted if the expression is equal to the entire string/],
    [1, /Recursive lookup detected in \[r\]/],
  ]) {
    await rowAt(page, n).click();
    const s = await eventually(() => steps(page), (s) => s.length === 1 && s[0].outcome === "failed");
    assert.doesNotMatch(s[0].text, /no such key/);
    assert.match(await page.locator("[data-testid=step-error]").innerText(), error);
  }
  // The step opens the data file, where both failing values' lines are marked.
  await page.locator("[data-testid=merge-step] button.link").click();
  await page.locator(".file-title code", { hasText: "data/common.yaml" }).waitFor();
  const marked = page.locator("[data-testid=editor] .cm-line", { has: page.locator(".cm-lintRange-error") });
  const lines = await eventually(() => marked.allInnerTexts(), (t) => t.length === 2);
  assert.deepEqual(lines.map((l) => l.slice(0, 2)), ["a:", "r:"]);
  await page.screenshot({ path: `${SCREENSHOTS}/why-failed-alias.png` });
  assert.deepEqual(errors, []);
  await context.close();
});

test("parts an alias or a lookup brought point at the keys they came from", async () => {
  const { page, context } = await openDocument("aliases.yaml", ALIASES);
  await rowAt(page, 2).click();
  await page.locator("[data-testid=source-link]").first().waitFor();
  const links = await page.$$eval("[data-testid=source-link]", (els) => els.map((e) => `${e.closest("li").querySelector("code").textContent}@${e.dataset.line}`));
  // d is on line 7, e on line 8, y on line 6.
  assert.deepEqual(links, ["x.k@7", "x.l[0]@7", "x.l[1]@8", "y@6"]);
  await context.close();
});

test("knockout steps agree with themselves and name each part by its path", async () => {
  const { page, context } = await example("07-knockout-three-levels.yaml", 0);
  const s = await eventually(() => steps(page), (s) => s.length === 4);
  // The first place shows what its file holds, and that is the merged value so far.
  assert.match(s[0].text, /found \["--telnet","htop"\]/);
  assert.match(s[0].text, /merged so far \["--telnet","htop"\]/);
  assert.match(s[1].text, /\+ \[0\] "nginx"/);
  assert.match(s[1].text, /− \[1\] "telnet" knocked out/);
  assert.match(s[1].text, /− \[0\] "--telnet" knockout mark, used up/);
  assert.doesNotMatch(s.map((x) => x.text).join("\n"), /\(the value\)/);
  await context.close();
  // A hash entry a knockout blanked is a removal, not an addition.
  const sysctl = await example("06-knockout-prefix.yaml", 3);
  const t = await eventually(() => steps(sysctl.page), (s) => s.length === 2);
  assert.match(t[1].text, /− "net\.ipv4\.ip_forward" 1 knocked out/);
  assert.doesNotMatch(t[1].text, /\+ "net\.ipv4\.ip_forward"/);
  await sysctl.context.close();
});

test("the welcome example's failing lookup says why: the key's dots split a key that has dots", async () => {
  const { page, context, errors } = await openPage(env.browser, env.server.url);
  const row = page.locator('[data-testid=lookup-row][data-key="profile::web::vhosts.www.example.com"]');
  await row.click();
  await attrWhen(row, "aria-selected", "true");
  const warnings = await eventually(() => page.locator("[data-testid=warning]").allInnerTexts(), (w) => w.length > 0);
  assert.ok(warnings.some((w) => w.includes('quoted: profile::web::vhosts."www.example.com".')), warnings.join("\n"));
  assert.equal(await page.locator("[data-testid=warning][data-kind=dotted-key] [data-testid=warning-doc]").getAttribute("href"),
    "https://help.puppet.com/core/8/content/puppetcore/puppet_lookup.htm");
  // Why tells it; the row does not tell it again, until another tab is on show.
  assert.equal(await row.locator(".row-warnings .warning").count(), 0);
  await page.click("[data-testid=tab-explain]");
  await eventually(() => row.locator(".row-warnings .warning").count(), (n) => n === 1, { message: "the row's warning back" });
  assert.deepEqual(errors, []);
  await context.close();
});
