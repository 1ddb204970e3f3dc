// eyaml and HOCON in the page: the backends cases recorded from Puppet, the
// gallery's examples, making keys and encrypting values as a person would,
// and what share links carry of a private key.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import {
  ROOT, SCREENSHOTS, addLookup, attrWhen, browserSuite, checkRow, editorText, eventually, filePaths, gotoReady, openFile,
  newPath, openPage, readCase, replaceEditorText, rowAt, rows, rowsWhen,
} from "./helpers.mjs";

const BACKENDS = `${ROOT}tests/conformance/backends/`;

const suite = browserSuite();

/** Opens a gallery example; resolves once its rows are evaluated. */
async function example(page, file) {
  const welcome = await page.locator("[data-testid=description]").innerText();
  await page.selectOption("[data-testid=gallery]", file);
  await eventually(() => page.locator("[data-testid=description]").innerText(), (d) => d !== welcome, { message: `${file} to open` });
  await rowsWhen(page, (rs) => rs.length > 0 && rs.every((r) => r.status));
}

/**
 * Opens every case of `dir` in one page with Open…, waits for the backends
 * where a case uses them, and returns the lookups whose row differs from
 * Puppet's recorded answer (errors word for word, values as data).
 */
async function casesInThePage(dir) {
  const names = (await readdir(dir)).filter((f) => f.endsWith(".yaml")).sort();
  const { page, errors, context } = await openPage(suite.env.browser, suite.env.server.url);
  const input = page.locator("[data-testid=open-case]");
  const failures = [];
  let lookups = 0;
  for (const name of names) {
    const file = `${dir}${name}`;
    const text = await readFile(file, "utf8");
    const data = readCase(text);
    const labels = data.lookups.map((l) => l.label);
    await input.setInputFiles(file);
    await eventually(
      async () => ({ description: await page.locator("[data-testid=description]").textContent(), rows: await rows(page) }),
      (s) => (s.description ?? "").trim() === (data.description ?? "").trim() &&
        JSON.stringify(s.rows.map((r) => r.key)) === JSON.stringify(labels) && s.rows.every((r) => r.status),
      { message: `${name} to be shown`, timeout: 15000 },
    );
    // An eyaml or HOCON document fetches the backends, then every row is evaluated again.
    if (/eyaml_lookup_key|hocon_data/.test(text)) await attrWhen(page.locator(".playground"), "data-backends", "loaded", 15000);
    const differs = (r, lookup) => {
      const diff = checkRow(r, lookup);
      if (diff) return diff.problem;
      const error = lookup.expect?.error;
      return error !== undefined && r.error !== error ? `error ${JSON.stringify(r.error)}, expected ${JSON.stringify(error)}` : null;
    };
    const shown = await eventually(() => rows(page), (rs) => rs.every((r, i) => !differs(r, data.lookups[i])), {
      message: `${name} to match Puppet`,
      timeout: 5000,
    }).catch(() => rows(page));
    data.lookups.forEach((lookup, i) => {
      lookups += 1;
      const diff = differs(shown[i], lookup);
      if (diff) failures.push(`${name.replace(/\.yaml$/, "")}#${i}: ${diff}`);
    });
  }
  assert.deepEqual(errors, []);
  await context.close();
  return { names, lookups, failures };
}

test("every backends case, opened in the page, gives Puppet's recorded results", async () => {
  const { names, lookups, failures } = await casesInThePage(BACKENDS);
  assert.ok(names.length >= 30, `found ${names.length} cases`);
  console.log(`backends in the page: ${lookups - failures.length} of ${lookups} lookups match Puppet`);
  assert.deepEqual(failures, []);
});

// Other people's data: read where it lies (it does in CI), never copied here.
const REALWORLD = `${ROOT}../shared/realworld/`;
test("every real-world case, opened in the page, gives Puppet's recorded results", { skip: !existsSync(REALWORLD) && "no ../shared/realworld" }, async () => {
  const { names, lookups, failures } = await casesInThePage(REALWORLD);
  // Puppet's type mismatch describer names the first element that fails; the engine, the array's type.
  const known = ["module-prometheus-archlinux#139", "module-prometheus-darwin14#139"];
  const unexpected = failures.filter((f) => !known.some((k) => f.startsWith(`${k}:`)));
  console.log(`real world in the page: ${lookups - failures.length} of ${lookups} lookups in ${names.length} cases match Puppet, word for word`);
  assert.deepEqual(unexpected, []);
});

test("the eyaml example decrypts in the page, and Why marks the decrypted value", async () => {
  const { page, errors, context } = await openPage(suite.env.browser);
  const fetched = [];
  page.on("request", (r) => fetched.push(r.url()));
  await gotoReady(page, suite.env.server.url);
  // The welcome document uses neither eyaml nor HOCON: their module is not fetched.
  assert.deepEqual(fetched.filter((u) => u.includes("/backends/")), []);
  await example(page, "36-eyaml-secrets.yaml");
  await attrWhen(page.locator(".playground"), "data-backends", "loaded", 15000);
  const shown = await rowsWhen(page, (rs) => rs[0].status === "found" && rs[0].json === '"correct horse battery staple"');
  assert.equal(shown[1].json, '"tok_db01.example.com"', "the decrypted text is interpolated");
  assert.ok(fetched.some((u) => u.includes("/backends/hiera_backends_wasm_bg.wasm")), "the backends were fetched for eyaml");
  await rowAt(page, 0).click();
  const found = page.locator("[data-testid=merge-step][data-outcome=found]").first();
  await found.locator("[data-testid=step-decrypted]").waitFor();
  // The plain value of common.yaml is not marked.
  await rowAt(page, 3).click();
  await attrWhen(rowAt(page, 3), "aria-selected", "true");
  await page.locator("[data-testid=merge-step][data-outcome=found]").first().waitFor();
  assert.equal(await page.locator("[data-testid=step-decrypted]").count(), 0);
  // The document holds a private key: the page says so.
  assert.match(await page.locator("[data-testid=secrets-bar]").innerText(), /private_key\.pkcs7\.pem/);
  await page.screenshot({ path: `${SCREENSHOTS}/eyaml-example.png`, fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});

test("make keys, encrypt a value into a file, and look it up decrypted", async () => {
  const { page, errors, context } = await openPage(suite.env.browser, suite.env.server.url);
  await openFile(page, "hiera.yaml");
  await replaceEditorText(page, [
    "version: 5",
    "hierarchy:",
    "  - name: Secrets",
    "    lookup_key: eyaml_lookup_key",
    "    path: secrets.eyaml",
    "    options:",
    "      pkcs7_private_key: /etc/puppetlabs/puppet/eyaml/private_key.pkcs7.pem",
    "      pkcs7_public_key: /etc/puppetlabs/puppet/eyaml/public_key.pkcs7.pem",
    "  - name: Common",
    "    path: common.yaml",
    "",
  ].join("\n"));
  await newPath(page, "file", "data/secrets.eyaml");
  await page.locator(".file-title code", { hasText: "data/secrets.eyaml" }).waitFor();
  await replaceEditorText(page, "profile::db::password: ");

  await page.click("[data-testid=eyaml-button]");
  await page.locator("[data-testid=eyaml-create-keys]").waitFor();
  const workspaceTop = async () => (await page.locator(".workspace").boundingBox()).y;
  const before = await workspaceTop();
  await page.click("[data-testid=eyaml-create-keys]");
  await page.locator("[data-testid=eyaml-keys]").waitFor({ timeout: 15000 });
  const moved = (await workspaceTop()) - before;
  assert.ok(moved <= 40, `the files moved ${moved}px down`);
  const paths = await filePaths(page);
  assert.ok(paths.includes("/etc/puppetlabs/puppet/eyaml/private_key.pkcs7.pem"), paths.join(", "));
  assert.ok(paths.includes("/etc/puppetlabs/puppet/eyaml/public_key.pkcs7.pem"));

  // The data file stays in the editor, and one bar (the private key's) is all that is added above it.
  assert.equal(await page.locator(".file-title code").innerText(), "data/secrets.eyaml");
  assert.equal(await page.locator("[data-testid=notice]").count(), 0);
  // The cursor after the key, then encrypt a typed value there.
  await page.locator("[data-testid=editor] .cm-content").click();
  await page.keyboard.press("Control+End");
  await page.fill("[data-testid=eyaml-plaintext]", "hunter2");
  await page.click("[data-testid=eyaml-encrypt]");
  const block = await eventually(() => page.inputValue("[data-testid=eyaml-block]"), (b) => b.startsWith("ENC[PKCS7,"));
  await page.click("[data-testid=eyaml-insert]");
  await eventually(() => editorText(page), (t) => t.includes(block.slice(0, 60)), { message: "the block in the file" });

  const row = await addLookup(page);
  await row.locator("[data-testid=lookup-key]").fill("profile::db::password");
  await attrWhen(row, "data-value-json", '"hunter2"', 15000);
  await row.click();
  await page.locator("[data-testid=step-decrypted]").waitFor();
  await page.screenshot({ path: `${SCREENSHOTS}/eyaml-made-keys.png`, fullPage: true });

  // A value selected in the editor is encrypted where it stands.
  await page.locator("[data-testid=editor] .cm-content").click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type("\nprofile::db::user: admin");
  await page.keyboard.down("Shift");
  for (let i = 0; i < "admin".length; i++) await page.keyboard.press("ArrowLeft");
  await page.keyboard.up("Shift");
  await page.click("[data-testid=eyaml-encrypt-selection]");
  await eventually(() => editorText(page), (t) => /profile::db::user: ENC\[PKCS7,[^\]]+\]/.test(t), { message: "the selection encrypted" });
  const user = await addLookup(page);
  await user.locator("[data-testid=lookup-key]").fill("profile::db::user");
  await attrWhen(user, "data-value-json", '"admin"', 15000);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator("[data-testid=eyaml-tools]").screenshot({ path: `${SCREENSHOTS}/eyaml-tools-phone.png` });
  assert.deepEqual(errors, []);
  await context.close();
});

test("a share link leaves the private key out unless the user includes it", async () => {
  const author = await openPage(suite.env.browser, suite.env.server.url);
  await example(author.page, "36-eyaml-secrets.yaml");
  await rowsWhen(author.page, (rs) => rs[0].json === '"correct horse battery staple"');
  await author.page.click("[data-testid=share-button]");
  const without = await author.page.inputValue("[data-testid=share-link]");

  const v = await openPage(suite.env.browser);
  await gotoReady(v.page, without);
  // Until the backends arrive the rows say the encryptor is not loaded yet: wait for the key's error.
  const missing = await rowsWhen(v.page, (rs) => rs.length === 5 && /rb_sysopen/.test(rs[0].error ?? ""));
  assert.match(missing[0].error, /hiera-eyaml backend error decrypting ENC\[PKCS7,.*No such file or directory @ rb_sysopen - \/etc\/puppetlabs\/puppet\/eyaml\/private_key\.pkcs7\.pem/s);
  assert.ok(!(await filePaths(v.page)).includes("/etc/puppetlabs/puppet/eyaml/private_key.pkcs7.pem"));
  assert.equal(await v.page.locator("[data-testid=secrets-bar]").count(), 0);

  await author.page.check("[data-testid=include-private-keys]");
  await author.page.click("[data-testid=share-button]");
  const withKey = await eventually(() => author.page.inputValue("[data-testid=share-link]"), (l) => l !== without);
  const w = await openPage(suite.env.browser);
  await gotoReady(w.page, withKey);
  await rowsWhen(w.page, (rs) => rs.length === 5 && rs[0].json === '"correct horse battery staple"');
  assert.deepEqual([...author.errors, ...v.errors, ...w.errors], []);
  for (const c of [author, v, w]) await c.context.close();
});

test("Report it answers without the private key unless the user includes it: no decrypted secret in its Markdown", async () => {
  const { page, errors, context } = await openPage(suite.env.browser, suite.env.server.url);
  await example(page, "36-eyaml-secrets.yaml");
  await rowsWhen(page, (rs) => rs[0].json === '"correct horse battery staple"');
  await page.click("[data-testid=report-button]");
  const without = await eventually(() => page.inputValue("[data-testid=report-markdown]"), (t) => t.length > 0);
  assert.ok(!without.includes("correct horse battery staple"), "the decrypted secret stays in the page");
  assert.ok(!without.includes("PRIVATE KEY"));
  assert.match(without, /Error: hiera-eyaml backend error decrypting ENC\[PKCS7,.*No such file or directory @ rb_sysopen/s);
  await page.check("[data-testid=include-private-keys]");
  const withKey = await eventually(() => page.inputValue("[data-testid=report-markdown]"), (t) => t.includes("correct horse battery staple"));
  assert.match(withKey, /PRIVATE KEY/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("an exported zip leaves the private key out unless the user includes it", async () => {
  const { page, errors, context } = await openPage(suite.env.browser, suite.env.server.url);
  await example(page, "36-eyaml-secrets.yaml");
  const exported = async () => {
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("[data-testid=export-zip]")]);
    // The zip stores its entries: their names and texts are plain in its bytes.
    return (await readFile(await download.path())).toString("latin1");
  };
  const without = await exported();
  assert.ok(without.includes("etc/puppetlabs/puppet/eyaml/public_key.pkcs7.pem"));
  assert.ok(!without.includes("PRIVATE KEY-----"), "no private key in the zip");
  await page.check("[data-testid=include-private-keys]");
  const withKey = await exported();
  assert.ok(withKey.includes("-----BEGIN RSA PRIVATE KEY-----"), "the private key in the zip");
  assert.deepEqual(errors, []);
  await context.close();
});

test("the HOCON example: values from a .conf level, and a syntax error marked in the editor", async () => {
  const { page, errors, context } = await openPage(suite.env.browser, suite.env.server.url);
  await example(page, "35-hocon-level.yaml");
  await attrWhen(page.locator(".playground"), "data-backends", "loaded", 15000);
  const shown = await rowsWhen(page, (rs) => rs[0].json === "8080");
  assert.deepEqual(shown.slice(0, 3).map((r) => r.json), ["8080", '"/var/log/nginx"', '"www.lon2.example.com"']);
  await openFile(page, "data/roles/web.conf");
  // HOCON is coloured: comments and keys get their own styles.
  assert.ok((await page.locator("[data-testid=editor] .cm-content span").count()) > 5, "highlighted");
  await page.locator("[data-testid=editor] .cm-content").click();
  await page.keyboard.press("Control+End");
  await page.keyboard.insertText('"profile::broken" = [1, 2\n');
  await page.locator("[data-testid=editor] .cm-lint-marker-error").first().waitFor();
  const failed = await rowsWhen(page, (rs) => rs[0].status === "error");
  assert.match(failed[0].error, /Unable to parse \(.*web\.conf\): String: \d+: List should have/);
  await page.screenshot({ path: `${SCREENSHOTS}/hocon-error.png`, fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});

test("an unknown backend function is marked on its level in hiera.yaml", async () => {
  const { page, errors, context } = await openPage(suite.env.browser, suite.env.server.url);
  await openFile(page, "hiera.yaml");
  const text = await editorText(page);
  await replaceEditorText(page, `${text.trimEnd()}\n  - name: Vault\n    data_hash: vault_hiera_hash\n    path: common.yaml\n`);
  const failed = await rowsWhen(page, (rs) => rs.some((r) => r.status === "error" && /vault_hiera_hash/.test(r.error ?? "")));
  assert.ok(failed.length > 0);
  await page.locator("[data-testid=editor] .cm-lint-marker-error").first().waitFor();
  // The mark is on the level that names the function.
  const marked = await eventually(() => page.$$eval(".cm-lintRange-error", (els) => els.map((e) => e.textContent).join("|")), (t) => /vault_hiera_hash/.test(t));
  assert.match(marked, /data_hash: vault_hiera_hash/);
  // Why still shows the levels read before the one that failed.
  await rowAt(page, 0).click();
  await page.locator("[data-testid=failed-in-options]").waitFor();
  const levels = await page.$$eval("[data-testid=merge-step]", (els) => els.map((e) => e.dataset.path));
  assert.ok(levels.some((p) => p.endsWith("/data/common.yaml")), levels.join(", "));
  await page.screenshot({ path: `${SCREENSHOTS}/unknown-backend.png`, fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});
