// The Puppet version: a document answers as Puppet 8 or Puppet 7, a row tells
// when the other one answers otherwise, and links and exports keep the version.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { deflateRawSync } from "node:zlib";
import { SCREENSHOTS, eventually, gotoReady, openPage, rowAt, rowsWhen, start } from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

const UNDEFINED = "Undefined variable '::role'; ";

test("switching the Puppet version re-evaluates, and each row offers the other version's answer", async () => {
  const { page, errors, context } = await openPage(env.browser, env.server.url);
  // A new visit answers as Puppet 8.
  assert.equal(await page.inputValue("[data-testid=puppet-version]"), "8");
  await page.selectOption("[data-testid=gallery]", "37-puppet-8-strict.yaml");
  let shown = await rowsWhen(page, (rs) => rs.length === 4 && rs[0].key === "profile::base::motd" && rs[0].status);
  assert.equal(shown[0].error, UNDEFINED);
  assert.equal(shown[3].json, '"8.28.1"');
  // The row says Puppet 7 answers otherwise, one click away.
  const motd = rowAt(page, 0);
  const other = motd.locator("[data-testid=other-puppet]");
  assert.match(await other.locator("summary").innerText(), /Puppet 7\.23 answers otherwise/);
  await other.locator("summary").click();
  assert.equal(
    await motd.locator("[data-testid=other-puppet-value]").innerText(),
    "Welcome to web01.example.com, a  server",
  );
  // Rows both versions agree on say nothing.
  assert.equal(await rowAt(page, 1).locator("[data-testid=other-puppet]").count(), 0);
  await page.screenshot({ path: `${SCREENSHOTS}/puppet-version-8.png` });

  // Switching answers as Puppet 7 at once.
  await motd.locator("[data-testid=switch-puppet]").click();
  shown = await rowsWhen(page, (rs) => rs[0].status === "found");
  assert.equal(shown[0].json, '"Welcome to web01.example.com, a  server"');
  assert.equal(shown[3].json, '""');
  assert.equal(await page.inputValue("[data-testid=puppet-version]"), "7");
  assert.match(await rowAt(page, 0).locator("[data-testid=other-puppet] summary").innerText(), /OpenVox 8\.28\.1/);
  // And back with the selector.
  await page.selectOption("[data-testid=puppet-version]", "8");
  shown = await rowsWhen(page, (rs) => rs[0].status === "error");
  assert.equal(shown[0].error, UNDEFINED);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SCREENSHOTS}/puppet-version-phone.png`, fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});

test("a link made under Puppet 7 opens under Puppet 7, and so does one made before there was a choice", async () => {
  const a = await openPage(env.browser, env.server.url);
  await a.page.selectOption("[data-testid=gallery]", "37-puppet-8-strict.yaml");
  await rowsWhen(a.page, (rs) => rs[0]?.key === "profile::base::motd" && rs[0].status === "error");
  await a.page.selectOption("[data-testid=puppet-version]", "7");
  await rowsWhen(a.page, (rs) => rs[0].status === "found");
  await a.page.click("[data-testid=share-button]");
  const link = await a.page.inputValue("[data-testid=share-link]");
  const b = await openPage(env.browser, link);
  const shown = await rowsWhen(b.page, (rs) => rs[0]?.key === "profile::base::motd" && rs[0].status);
  assert.equal(shown[0].status, "found");
  assert.equal(await b.page.inputValue("[data-testid=puppet-version]"), "7");

  // A document without `puppet:` (every link and saved document older than the choice) is Puppet 7's.
  const old = "files:\n  hiera.yaml: \"version: 5\\n\"\n  data/common.yaml: |\n    motd: \"a %{::role} server\"\nlookups:\n- key: motd\n";
  const fragment = `h1.${deflateRawSync(Buffer.from(old)).toString("base64url")}`;
  const older = await b.context.newPage();
  await gotoReady(older, `${env.server.url}#${fragment}`);
  await eventually(() => older.inputValue("[data-testid=puppet-version]"), (v) => v === "7");
  const motd = await rowsWhen(older, (rs) => rs[0]?.key === "motd" && rs[0].status);
  assert.equal(motd[0].json, "\"a  server\"", JSON.stringify(motd));
  assert.deepEqual([...a.errors, ...b.errors], []);
  await a.context.close();
  await b.context.close();
});
