// Many nodes at once (issue 29): nodes added from presets, the key x node
// matrix, a pin, an edit, and the changed cells.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { SCREENSHOTS, eventually, gotoReady, newPath, openFile, openPage, replaceEditorText, savedWork, start } from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

const cell = (page, key, node) =>
  page.locator(`[data-testid=fleet-row][data-key="${key}"] [data-testid=fleet-cell][data-node="${node}"]`);

/** Opens the Nodes tab and waits for its panel, which comes with its code (fetched when first shown). */
async function openNodes(page) {
  await page.click("[data-testid=tab-nodes]");
  await page.locator("[data-testid=fleet-node]").first().waitFor();
}

/** Adds a node named `name` with the facts of the preset labelled `preset`. */
async function addNode(page, name, preset) {
  const columns = await page.locator("[data-testid=fleet-node]").count();
  await page.fill("[data-testid=add-node-name]", name);
  await page.selectOption("[data-testid=add-node-facts]", { label: preset });
  await page.click("[data-testid=add-node]");
  await eventually(() => page.locator("[data-testid=fleet-node]").count(), (n) => n === columns + 1, { message: `${name} added` });
}

test("nodes from presets, their answers side by side, and what an edit changed since the pin", async () => {
  const { page, errors, context } = await openPage(env.browser, env.server.url);
  await openNodes(page);
  const nodes = () => page.$$eval("[data-testid=fleet-node]", (els) => els.map((e) => e.dataset.node));
  assert.deepEqual(await nodes(), ["web01.example.com"]);
  await addNode(page, "db01.example.com", "RHEL / Rocky 9");
  await addNode(page, "", "Debian 12");
  assert.deepEqual(await nodes(), ["web01.example.com", "db01.example.com", "web01-2.example.com"]);

  // Each node's answer, the ones that differ from the shown node's marked.
  const port = "profile::web::port";
  assert.equal(await cell(page, port, "web01.example.com").innerText(), "8080");
  assert.equal(await cell(page, port, "db01.example.com").innerText(), "80");
  assert.equal(await cell(page, port, "db01.example.com").getAttribute("data-state"), "differs");
  // Another name, so the per-node file is not read; the same role and OS otherwise.
  assert.equal(await cell(page, port, "web01-2.example.com").innerText(), "80");
  const motd = "profile::base::motd";
  assert.equal(await cell(page, motd, "db01.example.com").innerText(), '"Managed by Puppet on RedHat 9"');
  assert.equal(await cell(page, motd, "web01-2.example.com").getAttribute("data-state"), "same");
  assert.equal(await page.locator(`[data-testid=fleet-row][data-key="${motd}"]`).getAttribute("data-varies"), "true");
  await page.screenshot({ path: `${SCREENSHOTS}/fleet.png` });

  // Pin, edit common.yaml: every (node, key) whose answer moved is marked and listed.
  await page.click("[data-testid=pin-fleet]");
  assert.match(await page.innerText("[data-testid=fleet-summary]"), /^0 answers changed since the pin/);
  await openFile(page, "data/common.yaml");
  const common = await page.locator("[data-testid=editor] .cm-content").innerText();
  await replaceEditorText(page, common.replace("profile::web::port: 80", "profile::web::port: 8081"));
  await eventually(() => cell(page, port, "db01.example.com").getAttribute("data-state"), (s) => s === "changed");
  assert.equal(await cell(page, port, "db01.example.com").innerText(), "8081");
  assert.equal(await cell(page, port, "web01.example.com").getAttribute("data-state"), "same");
  assert.match(await page.innerText("[data-testid=fleet-summary]"), /^2 answers changed since the pin/);
  assert.deepEqual(await page.$$eval("[data-testid=fleet-change]", (els) => els.map((e) => e.innerText)), [
    "db01.example.com profile::web::port: 80 -> 8081",
    "web01-2.example.com profile::web::port: 80 -> 8081",
  ]);
  await page.screenshot({ path: `${SCREENSHOTS}/fleet-changed.png` });

  // A click on a cell shows why that node gets its answer.
  await cell(page, port, "db01.example.com").click();
  await page.locator("[data-testid=tab-why][aria-selected=true]").waitFor();
  assert.equal(await page.inputValue("[data-testid=node-input]"), "db01.example.com");
  assert.match(await page.inputValue("[data-testid=facts-editor]"), /family: RedHat/);
  const selected = page.locator("[data-testid=lookup-row].selected");
  assert.equal(await selected.getAttribute("data-key"), port);
  assert.equal(await selected.getAttribute("data-value-json"), "8081");

  // The nodes are part of the work: a reload keeps them, the shown one first.
  await page.waitForTimeout(500);
  await gotoReady(page, env.server.url);
  await openNodes(page);
  assert.deepEqual(await nodes(), ["db01.example.com", "web01.example.com", "web01-2.example.com"]);
  await page.locator("[data-testid=remove-node]").first().click();
  await eventually(nodes, (n) => n.join() === "db01.example.com,web01-2.example.com", { message: "web01 removed" });
  assert.deepEqual(errors, []);
  await context.close();
});

test("on a desktop the results widen for the matrix and the keys: three nodes side by side, whole", async () => {
  const { page, errors, context } = await openPage(env.browser, env.server.url, { viewport: { width: 1440, height: 900 } });
  const results = page.locator(".results");
  const narrow = (await results.boundingBox()).width;
  await openNodes(page);
  await addNode(page, "db01.example.com", "RHEL / Rocky 9");
  await addNode(page, "web02.example.com", "Debian 12");
  // Every node's column is within the panel, none scrolled out of sight.
  const right = (await results.boundingBox()).x + (await results.boundingBox()).width;
  for (const node of await page.locator("[data-testid=fleet-node]").all()) {
    const box = await node.boundingBox();
    assert.ok(box.x + box.width <= right, `${await node.innerText()} ends at ${box.x + box.width}, the panel at ${right}`);
  }
  const scroller = page.locator(".fleet-scroll");
  assert.ok(await scroller.evaluate((e) => e.scrollWidth <= e.clientWidth), "the matrix fits without scrolling");
  await page.screenshot({ path: `${SCREENSHOTS}/fleet-wide.png` });
  // All keys' values get room too; Why gives the editor its width back.
  await page.click("[data-testid=tab-all-keys]");
  assert.ok((await results.boundingBox()).width > narrow * 1.4);
  await page.click("[data-testid=tab-why]");
  assert.equal((await results.boundingBox()).width, narrow);
  assert.deepEqual(errors, []);
  await context.close();
});

test("the matrix on a phone scrolls sideways inside its panel", async () => {
  const { page, errors, context } = await openPage(env.browser, env.server.url, { viewport: { width: 390, height: 844 } });
  await openNodes(page);
  await addNode(page, "db01.example.com", "RHEL / Rocky 9");
  await addNode(page, "win01.example.com", "Windows Server 2022");
  const table = page.locator("[data-testid=fleet-table]");
  await table.scrollIntoViewIfNeeded();
  // The page itself does not scroll sideways.
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1));
  assert.ok((await table.boundingBox()).height > 100);
  await page.screenshot({ path: `${SCREENSHOTS}/fleet-phone.png`, fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});

test("a node of another environment answers from that environment's files", async () => {
  const { page, errors, context } = await openPage(env.browser, env.server.url);
  // Staging's files, by their full path beside production's.
  const staging = "/etc/puppetlabs/code/environments/staging";
  await newPath(page, "file", `${staging}/hiera.yaml`);
  await replaceEditorText(page, "version: 5\n");
  await newPath(page, "file", `${staging}/data/common.yaml`);
  await replaceEditorText(page, "profile::web::port: 9999\n");
  await openNodes(page);
  await page.fill("[data-testid=add-node-environment]", "staging");
  await addNode(page, "stage01.example.com", "Debian 12");
  const port = "profile::web::port";
  await eventually(() => cell(page, port, "stage01.example.com").innerText(), (t) => t === "9999");
  assert.equal(await page.locator("[data-testid=fleet-node-environment]").innerText(), " (staging)");
  // Its environment is kept with the node.
  const saved = () => savedWork(page);
  await eventually(saved, (t) => /environment: staging/.test(t), { message: "the node saved with its environment" });
  await gotoReady(page, env.server.url);
  await openNodes(page);
  await eventually(() => cell(page, port, "stage01.example.com").innerText(), (t) => t === "9999");
  // Why and the facts show nodes of the document's environment, where its files are.
  await cell(page, port, "stage01.example.com").click();
  await eventually(() => page.locator("[data-testid=notice]").innerText(), (t) => /document's environment/.test(t));
  assert.equal(await page.locator("[data-testid=node-input]").inputValue(), "web01.example.com");
  // A name Puppet would not take as an environment is refused.
  await page.fill("[data-testid=add-node-environment]", "../prod");
  await page.fill("[data-testid=add-node-name]", "bad01");
  await page.click("[data-testid=add-node]");
  await eventually(() => page.locator("[data-testid=notice]").innerText(), (t) => /Could not add bad01/.test(t));
  assert.equal(await page.locator("[data-testid=fleet-node]").count(), 2);
  await page.screenshot({ path: `${SCREENSHOTS}/fleet-environments.png` });
  assert.deepEqual(errors, []);
  await context.close();
});

test("the Nodes table says what each node's hierarchy paths read, and what puppet lookup adds to its facts", async () => {
  const { page, errors, context } = await openPage(env.browser, env.server.url);
  // The node panel points there from under the facts.
  await page.click("[data-testid=show-variables]");
  assert.equal(await page.getAttribute("[data-testid=tab-nodes]", "aria-selected"), "true");
  await page.locator("[data-testid=fleet-variable]").first().waitFor();
  await addNode(page, "db01.example.com", "RHEL / Rocky 9");
  const values = (testid, name) =>
    page.$$eval(`[data-testid=${testid}][data-name="${name}"] td`, (tds) => tds.map((td) => [td.dataset.node, td.textContent, td.className]));
  // The paths: per node, what each variable became, the values that differ from the shown node's marked.
  const names = await page.$$eval("[data-testid=fleet-variable]", (rows) => rows.map((r) => r.dataset.name));
  assert.deepEqual(names, ["%{trusted.certname}", "%{facts.role}", "%{facts.os.family}"]);
  assert.deepEqual(await values("fleet-variable", "%{facts.os.family}"), [
    ["web01.example.com", "Debian", "variable"],
    ["db01.example.com", "RedHat", "variable differs"],
  ]);
  assert.deepEqual((await values("fleet-variable", "%{trusted.certname}")).map((v) => v[1]), ["web01.example.com", "db01.example.com"]);
  // What puppet lookup adds where the facts do not say.
  const hostname = await values("fleet-added", "%{facts.hostname}");
  assert.deepEqual(hostname.map((v) => v[1]), ["web01", "db01"]);
  const trusted = await values("fleet-added", "%{trusted}");
  assert.match(trusted[1][1], /'certname' => 'db01\.example\.com'/);
  assert.match((await values("fleet-added", "%{server_facts}"))[0][1], /'serverversion' => '8\.28\.1'/, "Puppet 8 fills server_facts");
  // They follow the facts.
  await page.locator("[data-testid=facts-editor]").fill("role: db\nos:\n  family: Debian\n");
  await eventually(() => values("fleet-variable", "%{facts.role}"), (v) => v[0][1] === "db");
  await page.locator("[data-testid=puppet-version]").selectOption("7");
  await eventually(() => page.locator('[data-testid=fleet-added][data-name="%{server_facts}"]').count(), (n) => n === 0, { message: "Puppet 7 has no server_facts" });
  await page.screenshot({ path: `${SCREENSHOTS}/fleet-variables.png` });
  assert.deepEqual(errors, []);
  await context.close();
});
