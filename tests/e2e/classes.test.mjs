// Classes (issue 39): what each class of the document's manifests gets from
// Hiera for the node, type-checked as Puppet checks it.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { SCREENSHOTS, attrWhen, eventually, openFile, openPage, replaceEditorText, rowAt, rows, start } from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

const klass = (page, name) => page.locator(`[data-testid=class][data-class="${name}"]`);
const parameter = (page, cls, name) => klass(page, cls).locator(`[data-testid=class-parameter][data-parameter="${name}"]`);

async function openExample(page, name) {
  await page.locator("[data-testid=gallery]").selectOption(name);
  await page.locator("[data-testid=tab-classes]").click();
}

test("a quoted port fails its Integer parameter: shown, marked in the data file, fixed by removing the quotes, and Why looks it up with the type", async () => {
  const { page, errors, context } = await openPage(env.browser, env.server.url);
  await openExample(page, "38-class-quoted-integer.yaml");
  await attrWhen(klass(page, "profile::web"), "data-status", "error");
  await attrWhen(parameter(page, "profile::web", "port"), "data-status", "error");
  assert.equal(
    await parameter(page, "profile::web", "port").locator("[data-testid=parameter-mismatch]").innerText(),
    "✗ parameter 'port' expects an Integer value, got String",
  );
  assert.match(await klass(page, "profile::web").locator("[data-testid=class-error]").innerText(), /Class\[Profile::Web\]: parameter 'port' expects an Integer value, got String \(line: 1, column: 1\) on node web01\.example\.com/);
  // Defaults and values from other levels pass their types.
  assert.equal(await parameter(page, "profile::web", "ssl").getAttribute("data-status"), "ok");
  assert.match(await parameter(page, "profile::web", "ssl").innerText(), /default/);
  assert.match(await parameter(page, "profile::web", "docroot").innerText(), /Common data \(data\/common\.yaml:1\)/);
  await page.screenshot({ path: `${SCREENSHOTS}/classes-error.png` });
  // The source opens the data file at the value, which is marked there.
  await parameter(page, "profile::web", "port").locator("[data-testid=parameter-source]").click();
  await eventually(() => page.locator("[data-testid=revealed-line]").innerText().catch(() => ""), (t) => t.includes('profile::web::port: "8080"'));
  const marked = page.locator("[data-testid=editor] .cm-line", { has: page.locator(".cm-lintRange-error") });
  await page.locator("[data-testid=editor] .cm-lint-marker-error").first().waitFor();
  assert.match(await marked.first().innerText(), /profile::web::port/);
  // Without the quotes, the class binds.
  await replaceEditorText(page, "profile::web::port: 8080\n");
  await attrWhen(klass(page, "profile::web"), "data-status", "ok");
  await attrWhen(parameter(page, "profile::web", "port"), "data-status", "ok");
  assert.equal(await klass(page, "profile::web").locator("[data-testid=class-error]").count(), 0);
  assert.equal(await page.locator("[data-testid=editor] .cm-lint-marker-error").count(), 0);
  // A parameter opens Why for its key, looked up with its type.
  const before = (await rows(page)).length;
  await parameter(page, "profile::web", "port").getByRole("button", { name: "$port" }).click();
  await attrWhen(page.locator("[data-testid=tab-why]"), "aria-selected", "true");
  await eventually(async () => (await rows(page)).length, (n) => n === before, { message: "the example's own lookup reused" });
  assert.match(await rowAt(page, 0).innerText(), /8080/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a port out of range on one platform, and a required parameter missing on one OS, each with Puppet's message", async () => {
  const { page, errors, context } = await openPage(env.browser, env.server.url);
  await openExample(page, "39-class-port-out-of-range.yaml");
  await attrWhen(parameter(page, "app", "port"), "data-status", "error");
  assert.match(await parameter(page, "app", "port").innerText(), /expects a Stdlib::Port = Integer\[0, 65535\] value, got Integer\[80800, 80800\]/);
  assert.match(await parameter(page, "app", "port").innerText(), /Per-OS data \(data\/os\/RedHat\.yaml:1\)/);
  // The Debian node's data is in range.
  await page.locator("[data-testid=facts-editor]").fill("os:\n  family: Debian\n");
  await attrWhen(klass(page, "app"), "data-status", "ok");

  await openExample(page, "40-class-required-on-one-os.yaml");
  await attrWhen(klass(page, "ntp"), "data-status", "error");
  assert.match(await klass(page, "ntp").locator("[data-testid=class-error]").innerText(), /Class\[Ntp\]: expects a value for parameter 'servers'/);
  assert.match(await parameter(page, "ntp", "servers").innerText(), /no value/);
  await openFile(page, "data/common.yaml");
  await replaceEditorText(page, "ntp::driftfile: /var/lib/ntp/drift\nntp::servers: [pool.ntp.org]\n");
  await attrWhen(klass(page, "ntp"), "data-status", "ok");
  assert.match(await parameter(page, "ntp", "iburst").innerText(), /false/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a manifest is coloured as Puppet, its syntax error marked; a class without data tells how it binds, on a phone too", async () => {
  const { page, errors, context } = await openPage(env.browser, env.server.url, { viewport: { width: 390, height: 844 } });
  await openExample(page, "38-class-quoted-integer.yaml");
  await openFile(page, "modules/profile/manifests/web.pp");
  await page.locator("[data-testid=editor] .cm-content").waitFor();
  assert.ok(await page.locator("[data-testid=editor] .cm-line span").count() > 3, "the manifest is coloured");
  await replaceEditorText(page, "class profile::web (\n  Integer $port = ,\n) { }\n");
  await page.locator("[data-testid=editor] .cm-lint-marker-error").first().waitFor();
  assert.equal(await klass(page, "profile::web").count(), 0, "a class whose manifest does not parse is not listed");
  await replaceEditorText(page, "class profile::web (\n  Integer $port = 80,\n  $bind = \"${facts['role']}.example.com\",\n  $checks = lookup('checks'),\n) { }\n");
  await attrWhen(parameter(page, "profile::web", "bind"), "data-status", "ok");
  assert.match(await parameter(page, "profile::web", "bind").innerText(), /web\.example\.com/);
  assert.match(await parameter(page, "profile::web", "checks").innerText(), /lookup\('checks'\) \(evaluated by Puppet when compiling\)/);
  await page.screenshot({ path: `${SCREENSHOTS}/classes-phone.png`, fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});

test("every recorded class case, opened in the page, binds as Puppet bound it", async () => {
  const { readdir, readFile } = await import("node:fs/promises");
  const { ROOT, fromJson, readCase, samePlain } = await import("./helpers.mjs");
  const dirs = [["own", (n) => n.startsWith("classes-")], ["forge", () => true]];
  const { page, errors, context } = await openPage(env.browser, env.server.url);
  const input = page.locator("[data-testid=open-case]");
  await page.locator("[data-testid=tab-classes]").click();
  const counts = { classes: 0, parameters: 0, errors: 0, unlisted: 0 };
  const failures = [];
  for (const [dir, chosen] of dirs) {
    const names = (await readdir(`${ROOT}tests/conformance/${dir}/`)).filter((n) => n.endsWith(".yaml") && chosen(n)).sort();
    for (const name of names) {
      const file = `${ROOT}tests/conformance/${dir}/${name}`;
      const data = readCase(await readFile(file, "utf8"));
      await input.setInputFiles(file);
      await eventually(() => page.locator("[data-testid=description]").textContent().catch(() => ""), (t) => t.trim() === (data.description ?? "").trim(), { message: `${name} shown` });
      for (const { class: asked, expect, expectParameters } of data.classes ?? []) {
        const cls = klass(page, asked.replace(/^::/, ""));
        // A class no module defines, or whose manifest does not parse, is not listed.
        if ((await cls.count()) === 0) {
          if ("error" in expect && /Could not find class|Syntax error|Unclosed quote|redefines a built in parameter|declared more than once/.test(expect.error)) counts.unlisted += 1;
          else failures.push(`${dir}/${name}@${asked}: not listed`);
          continue;
        }
        counts.classes += 1;
        const error = cls.locator("[data-testid=class-error]");
        const shown = (await error.count()) ? await error.textContent() : null;
        if ("error" in expect) {
          counts.errors += 1;
          if (shown !== expect.error) failures.push(`${dir}/${name}@${asked}: expected error ${expect.error}, page ${shown}`);
          continue;
        }
        if (shown !== null) failures.push(`${dir}/${name}@${asked}: page shows error ${shown}`);
        for (const [param, value] of expectParameters) {
          counts.parameters += 1;
          const cell = parameter(page, asked.replace(/^::/, ""), param).locator("td").nth(2);
          const text = (await cell.textContent()).trim();
          if (/evaluated by Puppet when compiling/.test(text)) continue;
          const rendered = (expect.rendered ?? []).includes(param);
          const same = rendered ? text === expect.parameters[param].value_rendered : samePlain(fromJson(text), value);
          if (!same) failures.push(`${dir}/${name}@${asked} ${param}: expected ${JSON.stringify(value, (_, v) => (typeof v === "bigint" ? String(v) : v))}, page ${text}`);
        }
      }
    }
  }
  console.log(`classes through the page: ${counts.classes} classes (${counts.parameters} parameters, ${counts.errors} errors word for word), ${counts.unlisted} not listed as Puppet finds none`);
  assert.deepEqual(failures, []);
  assert.deepEqual(errors, []);
  await context.close();
});
