// Reviewing data (issue 40): facterdb's operating systems as presets, one
// lookup's answers by value across nodes, and the Review tab with what
// `hiera-lookup lint` finds, each finding opening its file at its line.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { SCREENSHOTS, attrWhen, eventually, openFile, openPage, replaceEditorText, rowAt, start } from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

/** The resources the page fetched so far whose URL has `part`. */
const fetched = (page, part) =>
  page.evaluate((p) => performance.getEntriesByType("resource").filter((e) => e.name.includes(p)).length, part);

test("facterdb's operating systems are facts presets, fetched when chosen", async () => {
  const { page, errors, context, answers } = await openPage(env.browser, env.server.url);
  const preset = page.locator("[data-testid=facts-preset]");
  assert.equal(await preset.locator("optgroup").getAttribute("label"), "facterdb (Facter 5.1)");
  const systems = await preset.locator("optgroup option").allInnerTexts();
  assert.equal(systems.length, 29);
  assert.ok(systems.includes("Rocky Linux 9 (x86_64)") && systems.includes("Windows 2022 (x86_64)"), systems.join(", "));
  assert.equal(await fetched(page, "/facterdb/"), 0, "nothing of facterdb before one is chosen");
  answers.push(true);
  await preset.selectOption({ label: "Rocky Linux 9 (x86_64)" });
  const facts = page.locator("[data-testid=facts-editor]");
  await eventually(() => facts.inputValue(), (t) => t.includes('"facterversion": "5.1.0"'), { message: "facterdb's facts" });
  assert.equal(await fetched(page, "/facterdb/"), 1);
  assert.equal(await page.locator("[data-testid=node-input]").inputValue(), "rocky9.example.com");
  await attrWhen(rowAt(page, 4), "data-value-json", '"Managed by Puppet on RedHat 9"');
  assert.deepEqual(errors, []);
  await context.close();
});

test("Nodes groups the selected lookup's answers by value, with the nodes that get each", async () => {
  const { page, errors, context } = await openPage(env.browser, env.server.url);
  await page.click("[data-testid=tab-nodes]");
  // The table comes with its code, fetched when the tab is first shown.
  await page.locator("[data-testid=fleet-node]").first().waitFor();
  for (const [name, system] of [["db01.example.com", "Rocky Linux 9 (x86_64)"], ["web09.example.com", "Debian 12 (x86_64)"]]) {
    const columns = await page.locator("[data-testid=fleet-node]").count();
    await page.fill("[data-testid=add-node-name]", name);
    await page.selectOption("[data-testid=add-node-facts]", { label: system });
    await page.click("[data-testid=add-node]");
    await eventually(() => page.locator("[data-testid=fleet-node]").count(), (n) => n === columns + 1, { message: `${name} added` });
  }
  // The first lookup (profile::web::port): web01's own file says 8080, the others get common's 80.
  const groups = page.locator("[data-testid=value-group]");
  await eventually(() => groups.count(), (n) => n === 2, { message: "two answers" });
  assert.match(await page.locator("[data-testid=value-groups] h3").innerText(), /profile::web::port on 3 nodes: 2 answers/);
  assert.equal(await groups.nth(0).getAttribute("data-count"), "2");
  assert.match(await groups.nth(0).innerText(), /^80 2 nodes: db01\.example\.com, web09\.example\.com$/);
  assert.match(await groups.nth(1).innerText(), /^8080 1 node: web01\.example\.com$/);
  // Another lookup selected, its answers grouped.
  await rowAt(page, 4).click();
  await page.click("[data-testid=tab-nodes]");
  await eventually(() => page.locator("[data-testid=value-groups] h3").innerText(), (t) => /profile::base::motd on 3 nodes: 2 answers/.test(t));
  assert.deepEqual(errors, []);
  await context.close();
});

test("Review lists what lint finds over the document's nodes, each opening its file at its line", async () => {
  for (const [width, height, name] of [[1280, 800, "review"], [390, 844, "review-phone"]]) {
    const { page, errors, context } = await openPage(env.browser, env.server.url, { viewport: { width, height } });
    // A value that reads a legacy fact, and a role's file no node reads.
    await openFile(page, "data/common.yaml");
    await replaceEditorText(page, "profile::web::port: 80\nprofile::base::motd: \"Managed by Puppet on %{::osfamily}\"\nntp::servers: [pool.ntp.org]\n");
    await page.click("[data-testid=tab-review]");
    const finding = (kind) => page.locator(`[data-testid=review-finding][data-kind=${kind}]`);
    await finding("legacy-fact").first().waitFor();
    assert.match(await finding("legacy-fact").first().innerText(), /data\/common\.yaml:2 profile::base::motd/);
    assert.match(await finding("legacy-fact").first().innerText(), /%\{::osfamily\} reads the legacy fact osfamily, which Puppet 8 does not give nodes: use %\{facts\.os\.family\}/);
    assert.deepEqual(await finding("legacy-fact").first().locator("p code").allInnerTexts(), ["%{::osfamily}", "osfamily", "%{facts.os.family}"]);
    // web01's own file sets the port: common's is never its answer.
    assert.match(await finding("shadowed").first().innerText(), /data\/common\.yaml:1 profile::web::port \(1 node\)/);
    await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: width < 500 });
    // A finding opens its file at its line.
    await finding("legacy-fact").first().locator("[data-testid=review-open]").click();
    await eventually(() => page.locator("[data-testid=revealed-line]").innerText().catch(() => ""), (t) => t.includes("%{::osfamily}"));
    // Fixed, the finding goes; edits are reviewed again as they are typed.
    await page.click("[data-testid=tab-review]");
    await replaceEditorText(page, "profile::web::port: 80\nprofile::base::motd: \"Managed by Puppet on %{facts.os.family}\"\nntp::servers: [pool.ntp.org]\n");
    await eventually(() => finding("legacy-fact").count(), (n) => n === 0, { message: "the legacy fact gone" });
    assert.deepEqual(errors, []);
    await context.close();
  }
});
