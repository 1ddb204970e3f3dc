// The lookup rows: adding, keys with completion, merge options, defaults,
// removing, selecting by mouse and keyboard, and the value format.
import { test } from "node:test";
import assert from "node:assert/strict";
import { addLookup, attrWhen, eventually, explainText, explainWhen, openFile, openPage, replaceEditorText, rowAt, rows, rowsWhen, browserSuite } from "./helpers.mjs";

const suite = browserSuite();
const { pageTest } = suite;


pageTest("a new lookup with a completed key, deep merge and a knockout prefix", async ({ page }) => {
  // The key field offers the keys the data defines.
  const knownKeys = () => page.$$eval("datalist#known-keys option", (os) => os.map((o) => o.value).sort());
  assert.deepEqual(await knownKeys(), [
    "ntp::servers",
    "profile::base::motd",
    "profile::base::packages",
    "profile::web::port",
    "profile::web::vhosts",
  ]);

  // Data with a knocked-out package in the role's list (and no more vhosts).
  await openFile(page, "data/roles/web.yaml");
  await replaceEditorText(page, "profile::base::packages:\n  - nginx\n  - --curl\n");
  await attrWhen(rowAt(page, 3), "data-value-json", '["nginx","--curl","apt-transport-https","unattended-upgrades","curl"]');
  assert.ok(!(await knownKeys()).includes("profile::web::vhosts"), "the offered keys follow the data");

  const row = await addLookup(page);
  assert.equal(await row.getAttribute("data-key"), "");
  assert.equal(await row.getAttribute("aria-selected"), "true", "the new row is selected");
  assert.equal(await row.getAttribute("data-status"), "empty", "no error before it has a key");

  const key = row.locator("[data-testid=lookup-key]");
  assert.equal(await key.getAttribute("list"), "known-keys");
  await key.click();
  await page.keyboard.type("profile::base::packages");
  await attrWhen(row, "data-key", "profile::base::packages");
  // lookup_options (unique) apply until a merge is chosen.
  await attrWhen(row, "data-value-json", '["nginx","--curl","apt-transport-https","unattended-upgrades","curl"]');
  await explainWhen(page, /Searching for "profile::base::packages"/);

  // Deep: the options appear; without a prefix "--curl" is just a string.
  assert.equal(await row.locator("[data-testid=knockout-prefix]").count(), 0);
  await row.locator("[data-testid=lookup-merge]").selectOption("deep");
  await row.locator("[data-testid=knockout-prefix]").waitFor();
  await attrWhen(row, "data-value-json", (v) => v !== null && JSON.parse(v).includes("--curl"));
  const deep = JSON.parse(await row.getAttribute("data-value-json"));
  assert.deepEqual([...deep].sort(), ["--curl", "apt-transport-https", "curl", "nginx", "unattended-upgrades"]);
  await explainWhen(page, /Merge strategy deep/);

  // With the knockout prefix "--", the knocked-out entry is gone from the result.
  await row.locator("[data-testid=knockout-prefix]").fill("--");
  await attrWhen(row, "data-value-json", (v) => v !== null && !JSON.parse(v).includes("--curl"));
  const knocked = JSON.parse(await row.getAttribute("data-value-json"));
  assert.ok(!knocked.includes("--curl") && knocked.includes("nginx"), JSON.stringify(knocked));
  await explainWhen(page, /"knockout_prefix" => "--"/);

  // (Sorting the merged array: see the check box tests below.)
  // The other rows did not change.
  assert.equal(await rowAt(page, 3).getAttribute("data-value-json"), '["nginx","--curl","apt-transport-https","unattended-upgrades","curl"]');

  // Back to the lookup_options merge: the deep options go.
  await row.locator("[data-testid=lookup-merge]").selectOption("");
  await row.locator("[data-testid=knockout-prefix]").waitFor({ state: "detached" });
  await attrWhen(row, "data-value-json", '["nginx","--curl","apt-transport-https","unattended-upgrades","curl"]');
});

// The deep merge check boxes turn their options on (a click on them must not
// also select the row: that redraw once reset the box before its change event).
for (const [testid, option] of [
  ["sort-merged-arrays", "sort_merged_arrays"],
  ["merge-hash-arrays", "merge_hash_arrays"],
]) {
  test(`the ${testid} checkbox turns on ${option}`, async () => {
    const { page, context, errors } = await openPage(suite.env.browser, suite.env.server.url);
    try {
      const row = rowAt(page, 3);
      await row.click();
      await row.locator("[data-testid=lookup-merge]").selectOption("deep");
      const box = row.locator(`[data-testid=${testid}]`);
      await box.click();
      await eventually(() => box.isChecked(), Boolean, { message: `${testid} to be checked`, timeout: 2000 });
      await explainWhen(page, new RegExp(`"${option}" => true`));
      if (option === "sort_merged_arrays") {
        await attrWhen(row, "data-value-json", '["apt-transport-https","curl","nginx","unattended-upgrades"]');
      }
    } finally {
      await context.close();
    }
    assert.deepEqual(errors, []);
  });
}

pageTest("a default is used for a missing key; several keys make a list", async ({ page }) => {
  const row = await addLookup(page);
  await row.locator("[data-testid=lookup-key]").fill("profile::missing");
  await attrWhen(row, "data-error", "Function lookup() did not find a value for the name 'profile::missing'");
  assert.equal(await row.getAttribute("data-status"), "error");

  const fallback = row.locator("[data-testid=lookup-default]");
  await fallback.click();
  await page.keyboard.type("fallback");
  await attrWhen(row, "data-value-json", '"fallback"');
  assert.equal(await row.getAttribute("data-status"), "found");
  // A default is YAML.
  await fallback.fill("[a, 2]");
  await attrWhen(row, "data-value-json", '["a",2]');
  // A key that is found ignores the default.
  await row.locator("[data-testid=lookup-key]").fill("profile::web::port");
  await attrWhen(row, "data-value-json", "8080");
  // Cleared, the missing key is an error again.
  await row.locator("[data-testid=lookup-key]").fill("profile::missing");
  await attrWhen(row, "data-value-json", '["a",2]');
  await fallback.fill("");
  await attrWhen(row, "data-status", "error");

  // "a, b": the first key found wins, and data-key is the list as JSON.
  await row.locator("[data-testid=lookup-key]").fill("profile::missing, profile::base::motd");
  await attrWhen(row, "data-key", '["profile::missing","profile::base::motd"]');
  await attrWhen(row, "data-value-json", '"Managed by Puppet on Debian 12"');
});

/** Selects row `i` with a click, then removes it with its × button. */
async function removeRow(page, i) {
  const count = await page.locator("[data-testid=lookup-row]").count();
  await rowAt(page, i).click({ position: { x: 3, y: 3 } });
  await attrWhen(rowAt(page, i), "aria-selected", "true");
  await rowAt(page, i).getByRole("button", { name: "Remove lookup" }).click();
  return rowsWhen(page, (r) => r.length === count - 1, `row ${i} to go`);
}

pageTest("removing lookups", async ({ page }) => {
  const before = await rows(page);
  const strip = (rs) => rs.map(({ selected, ...r }) => r);
  // Remove the selected row: the others stay, nothing is selected, the explanation says so.
  let left = await removeRow(page, 0);
  assert.deepEqual(strip(left), strip(before.slice(1)));
  assert.ok(left.every((r) => r.selected === "false"));
  assert.equal(await explainText(page), "");
  assert.equal(await page.locator(".explain-panel .muted").innerText(), "Select a lookup to see how Hiera found its value.");

  // Remove one from the middle.
  left = await removeRow(page, 2);
  assert.deepEqual(strip(left), strip([...before.slice(1, 3), ...before.slice(4)]));

  // All of them.
  while ((await page.locator("[data-testid=lookup-row]").count()) > 0) await removeRow(page, 0);
  // And one back.
  const row = await addLookup(page);
  await row.locator("[data-testid=lookup-key]").fill("ntp::servers");
  await attrWhen(row, "data-value-json", '["ntp.internal.example.com"]');
  await explainWhen(page, /Searching for "ntp::servers"/);
});

// With nothing selected, a click on a row's × removes it (focusing the button
// once selected the row, and the list shrank under the pointer).
test("with nothing selected, a click on a row's × removes it", async () => {
  const { page, context, errors } = await openPage(suite.env.browser, suite.env.server.url);
  try {
    await page.locator("[data-testid=tab-explain]").click();
    await rowAt(page, 0).getByRole("button", { name: "Remove lookup" }).click();
    await rowsWhen(page, (r) => r.length === 6 && r.every((x) => x.selected === "false"));
    await rowAt(page, 2).getByRole("button", { name: "Remove lookup" }).click();
    await rowsWhen(page, (r) => r.length === 5, "the row to be removed");
  } finally {
    await context.close();
  }
  assert.deepEqual(errors, []);
});

// Removing a row that is not selected keeps the selection (the focus on the ×
// once selected the row just before it was removed).
test("removing a row that is not selected keeps the selected one", async () => {
  const { page, context, errors } = await openPage(suite.env.browser, suite.env.server.url);
  try {
    await rowAt(page, 3).click();
    await attrWhen(rowAt(page, 3), "aria-selected", "true");
    await rowAt(page, 1).getByRole("button", { name: "Remove lookup" }).click();
    const left = await rowsWhen(page, (r) => r.length === 6);
    assert.deepEqual(
      left.map((r) => r.selected),
      ["false", "false", "true", "false", "false", "false"],
      "profile::base::packages (now the third row) is still selected",
    );
    await explainWhen(page, /Searching for "profile::base::packages"/);
  } finally {
    await context.close();
  }
  assert.deepEqual(errors, []);
});

pageTest("selecting a row by click or keyboard shows its explanation", async ({ page }) => {
  await explainWhen(page, /Searching for "profile::web::port"\n/);
  await rowAt(page, 3).click();
  await attrWhen(rowAt(page, 3), "aria-selected", "true");
  await explainWhen(page, /Searching for "profile::base::packages"\n/);
  assert.match(await page.locator(".explain-panel h2").innerText(), /profile::base::packages/);
  assert.equal(await page.locator("[data-testid=lookup-row].selected").count(), 1);

  // Focus moves the selection; arrows move it on.
  await rowAt(page, 1).focus();
  await attrWhen(rowAt(page, 1), "aria-selected", "true");
  await explainWhen(page, /Searching for "ntp::servers"\n/);
  const first = await explainText(page);
  assert.doesNotMatch(first, /Merge strategy unique/);
  await page.keyboard.press("ArrowDown");
  await attrWhen(rowAt(page, 2), "aria-selected", "true");
  // Same key, but this row merges: the explanation is this row's.
  const second = await explainWhen(page, /Merge strategy unique/);
  assert.notEqual(second, first);
  await page.keyboard.press("ArrowUp");
  await attrWhen(rowAt(page, 1), "aria-selected", "true");
  await page.keyboard.press("End");
  await attrWhen(rowAt(page, 6), "aria-selected", "true");
  // At the end ArrowDown stays put.
  await page.keyboard.press("ArrowDown");
  assert.equal(await rowAt(page, 6).getAttribute("aria-selected"), "true");
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute("data-key")), 'profile::web::vhosts."www.example.com".docroot');
  // An error's explanation ends with its message.
  await page.keyboard.press("ArrowUp");
  await explainWhen(page, /Function lookup\(\) did not find a value for the name 'profile::web::vhosts\.www\.example\.com'\s*$/);
});

pageTest("values shown as YAML, JSON or Puppet", async ({ page }) => {
  const value = (i) => rowAt(page, i).locator("[data-testid=lookup-value]").textContent();
  const format = page.locator("[data-testid=value-format]");
  assert.equal(await format.inputValue(), "YAML");
  assert.equal(await value(2), "- ntp.internal.example.com\n- 0.pool.ntp.org\n- 1.pool.ntp.org");
  assert.equal(await value(6), "/var/www/example");

  await format.selectOption({ label: "Values: JSON" });
  assert.equal(await value(2), '[\n  "ntp.internal.example.com",\n  "0.pool.ntp.org",\n  "1.pool.ntp.org"\n]');
  assert.equal(await value(6), '"/var/www/example"');
  assert.equal(await value(0), "8080");

  await format.selectOption("Puppet");
  assert.equal(await value(2), "['ntp.internal.example.com', '0.pool.ntp.org', '1.pool.ntp.org']");

  // The format is for display only: data-value-json stays the same.
  assert.equal(await rowAt(page, 2).getAttribute("data-value-json"), '["ntp.internal.example.com","0.pool.ntp.org","1.pool.ntp.org"]');
  await format.selectOption("YAML");
  assert.equal(await value(2), "- ntp.internal.example.com\n- 0.pool.ntp.org\n- 1.pool.ntp.org");
});
