// Files and documents: creating, renaming and deleting files and folders; opening
// and saving case files; the gallery; autosave and reset.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile, readdir } from "node:fs/promises";
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
  newPath,
  openFile,
  openPage,
  readCase,
  rowAt,
  rows,
  rowsWhen,
  savedWorks,
  typeAtEnd,
  browserSuite,
} from "./helpers.mjs";

const suite = browserSuite();
const { pageTest } = suite;


const entry = (page, path) => page.locator(`[data-testid=file-entry][data-path="${path}"]`);
const CASES = `${ROOT}tests/conformance/cases/`;
const EXAMPLES = `${ROOT}www/examples/`;

pageTest("New file, rename and delete: a path box for new ones, dialogs for the others", async ({ page, answers, asked }) => {
  // The path box starts in data/ with the cursor in it; Escape creates nothing.
  const before = await filePaths(page);
  await page.locator("[data-testid=new-file]").click();
  const box = page.locator("[data-testid=new-path]");
  assert.equal(await box.inputValue(), "data/");
  assert.ok(await box.evaluate((el) => el === document.activeElement), "the cursor is in the box");
  await page.keyboard.press("Escape");
  await page.locator("[data-testid=new-path-form]").waitFor({ state: "detached" });
  assert.deepEqual(await filePaths(page), before);
  assert.equal(asked.length, 0, "no browser dialog");

  await newPath(page, "file", "data/notes.yaml");
  await entry(page, "data/notes.yaml").waitFor();
  await page.locator(".file-title code", { hasText: "data/notes.yaml" }).waitFor();
  assert.equal(await entry(page, "data/notes.yaml").getAttribute("aria-current"), "true");
  assert.equal((await editorText(page)).trim(), "");
  await typeAtEnd(page, "hello: world");

  answers.push("data/renamed.yaml");
  await page.getByRole("button", { name: "Rename data/notes.yaml" }).click();
  await entry(page, "data/renamed.yaml").waitFor();
  assert.equal(await entry(page, "data/notes.yaml").count(), 0);
  assert.equal(asked.at(-1).defaultValue, "data/notes.yaml");
  await page.locator(".file-title code", { hasText: "data/renamed.yaml" }).waitFor();
  assert.equal((await editorText(page)).trim(), "hello: world", "the open file follows its rename, text and all");

  // Dismissing the confirmation keeps the file.
  answers.push(false);
  await page.getByRole("button", { name: "Delete data/renamed.yaml" }).click();
  await eventually(() => asked.at(-1).type, (t) => t === "confirm");
  assert.equal(asked.at(-1).message, "Delete the file data/renamed.yaml?");
  assert.equal(await entry(page, "data/renamed.yaml").count(), 1);
  answers.push(true);
  await page.getByRole("button", { name: "Delete data/renamed.yaml" }).click();
  await entry(page, "data/renamed.yaml").waitFor({ state: "detached" });
  assert.deepEqual(await filePaths(page), before);
  // The editor falls back to the first file.
  await page.locator(".file-title code", { hasText: "hiera.yaml" }).waitFor();
  assert.deepEqual((await rows(page)).map((r) => r.json)[0], "8080");
});

pageTest("renaming or deleting a data file changes the results", async ({ page, answers }) => {
  // The per-node file, renamed for another node, no longer applies.
  answers.push("data/nodes/web02.example.com.yaml");
  await page.getByRole("button", { name: "Rename data/nodes/web01.example.com.yaml" }).click();
  await entry(page, "data/nodes/web02.example.com.yaml").waitFor();
  await attrWhen(rowAt(page, 0), "data-value-json", "80");
  await page.locator("[data-testid=node-input]").fill("web02.example.com");
  await attrWhen(rowAt(page, 0), "data-value-json", "8080");

  // A whole folder goes with its files.
  answers.push(true);
  await page.getByRole("button", { name: "Delete data/os", exact: true }).click();
  await entry(page, "data/os/Debian.yaml").waitFor({ state: "detached" });
  await attrWhen(rowAt(page, 3), "data-value-json", '["nginx","curl"]');
  await page.locator(".folder-name", { hasText: "os/" }).waitFor({ state: "detached" });
});

pageTest("a new folder, a new level and a new file that changes a result", async ({ page, answers }) => {
  await newPath(page, "folder", "data/teams");
  await page.locator(".folder-name", { hasText: "teams/" }).waitFor();

  // A level for teams, after the common data.
  await openFile(page, "hiera.yaml");
  await typeAtEnd(page, '  - {name: "Per-team data", path: "teams/%{facts.team}.yaml"}');
  await page.locator("[data-testid=facts-editor]").click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type("\nteam: blue");
  await rowAt(page, 3).click();
  await explainWhen(page, /Hierarchy entry "Per-team data"\n\s+Path "\/etc\/puppetlabs\/code\/environments\/production\/data\/teams\/blue\.yaml"\n\s+Original path: "teams\/%\{facts\.team\}\.yaml"\n\s+Path not found/);

  // The team's file adds a package to the unique merge.
  await newPath(page, "file", "data/teams/blue.yaml");
  await entry(page, "data/teams/blue.yaml").waitFor();
  await page.locator(".file-title code", { hasText: "data/teams/blue.yaml" }).waitFor();
  await page.locator("[data-testid=editor] .cm-content").click();
  await page.keyboard.insertText("profile::base::packages:\n  - git\n");
  await attrWhen(rowAt(page, 3), "data-value-json", '["nginx","apt-transport-https","unattended-upgrades","curl","git"]');
  await explainWhen(page, /Found key: "profile::base::packages" value: \[\n\s+"git"\n\s+\]/);
});

pageTest("open a case file, save it, open the saved file again", async ({ page }) => {
  const input = page.locator("[data-testid=open-case]");
  const name = "merge-deep-knockout-hash-values-and-keys.yaml";
  const data = readCase(await readFile(`${CASES}${name}`, "utf8"));
  await input.setInputFiles(`${CASES}${name}`);
  const opened = await rowsWhen(page, (r) => JSON.stringify(r.map((x) => x.key)) === JSON.stringify(data.lookups.map((l) => l.label)));
  data.lookups.forEach((l, i) => assert.equal(checkRow(opened[i], l), null, `row ${i}`));
  assert.equal((await page.locator("[data-testid=description]").innerText()).trim(), data.description.trim());
  assert.deepEqual((await filePaths(page)).sort(), Object.keys(data.files).sort());

  // Change something, then save: the download is the document as it stands.
  await rowAt(page, 0).locator("[data-testid=lookup-default]").fill("saved default");
  await page.locator("[data-testid=environment-input]").fill("qa");
  const edited = await rowsWhen(page, (r) => r.length === opened.length);
  const [download] = await Promise.all([page.waitForEvent("download"), page.locator("[data-testid=save-case]").click()]);
  assert.equal(download.suggestedFilename(), "hiera-playground.yaml");
  const saved = `${ROOT}target/e2e-saved-case.yaml`;
  await download.saveAs(saved);
  const text = await readFile(saved, "utf8");
  const savedCase = readCase(text);
  assert.equal(savedCase.environment, "qa");
  assert.equal(savedCase.lookups[0].default, "saved default");
  assert.deepEqual(savedCase.files, data.files, "the files are saved as they were, in order");
  assert.equal(savedCase.description, data.description);

  // Something else, then the saved file again: the same rows.
  await page.locator("[data-testid=reset]").click(); // dismissed: nothing happens
  await input.setInputFiles(`${CASES}first-found.yaml`);
  await rowsWhen(page, (r) => JSON.stringify(r) !== JSON.stringify(edited), "another document");
  await input.setInputFiles(saved);
  await rowsWhen(page, (r) => JSON.stringify(r) === JSON.stringify(edited), "the saved document's rows");
  assert.equal(await page.locator("[data-testid=environment-input]").inputValue(), "qa");
  assert.equal(await rowAt(page, 0).locator("[data-testid=lookup-default]").inputValue(), "saved default");
});

pageTest("a broken case file shows a notice and keeps the document", async ({ page }) => {
  const before = await rows(page);
  await page.locator("[data-testid=open-case]").setInputFiles({
    name: "broken.yaml",
    mimeType: "application/x-yaml",
    buffer: Buffer.from("files:\n  hiera.yaml: [unclosed\n"),
  });
  const notice = page.locator("[data-testid=notice]");
  await notice.waitFor();
  assert.match(await notice.innerText(), /^Could not open broken\.yaml: /);
  assert.equal(await notice.getAttribute("role"), "alert");
  assert.deepEqual(await rows(page), before);
  assert.match(await page.locator("[data-testid=description]").innerText(), /four-level hierarchy/);
  await page.screenshot({ path: `${SCREENSHOTS}/notice.png` });

  // Not a case file at all.
  await page.locator("[data-testid=open-case]").setInputFiles({ name: "list.yaml", mimeType: "application/x-yaml", buffer: Buffer.from("- a\n- b\n") });
  await eventually(() => notice.innerText(), (t) => t.startsWith("Could not open list.yaml"), { message: "the second notice" });
  assert.deepEqual(await rows(page), before);

  await notice.getByRole("button", { name: "Dismiss" }).click();
  await notice.waitFor({ state: "detached" });
});

pageTest("choosing a gallery example shows its lookups, as Puppet answered them", async ({ page }) => {
  const gallery = page.locator("[data-testid=gallery]");
  const options = await gallery.locator("option").evaluateAll((os) => os.map((o) => o.value).filter(Boolean));
  const files = (await readdir(EXAMPLES)).filter((f) => f.endsWith(".yaml")).sort();
  assert.deepEqual(options, ["blank", ...files]);

  const name = "18-hierarchy-example.yaml";
  const data = readCase(await readFile(`${EXAMPLES}${name}`, "utf8"));
  await gallery.selectOption({ label: "Hierarchy example" });
  const shown = await rowsWhen(page, (r) => JSON.stringify(r.map((x) => x.key)) === JSON.stringify(data.lookups.map((l) => l.label)));
  assert.equal(await gallery.inputValue(), "", "the menu goes back to its label");
  data.lookups.forEach((l, i) => assert.equal(checkRow(shown[i], l), null, `${name} row ${i}`));
  assert.deepEqual(shown.map((r) => r.json), ['"www.example.com"', '"pdx-cdn.example.com"', '"marketing-it@example.com"', '"apt"', '"UTC"']);
  assert.match(await page.locator("[data-testid=description]").innerText(), /sample hierarchy of the hiera\.yaml v5 reference/);
  assert.equal(await page.locator("[data-testid=node-input]").inputValue(), "web01.example.com");
  assert.match(await page.locator("[data-testid=facts-editor]").inputValue(), /whereami: pdx/);
  await explainWhen(page, /Searching for "profile::web::vhost"/);
  await page.screenshot({ path: `${SCREENSHOTS}/gallery.png` });
});

pageTest("every gallery example gives Puppet's recorded results", async ({ page }) => {
  const gallery = page.locator("[data-testid=gallery]");
  const files = (await readdir(EXAMPLES)).filter((f) => f.endsWith(".yaml")).sort();
  const failures = [];
  for (const name of files) {
    const data = readCase(await readFile(`${EXAMPLES}${name}`, "utf8"));
    await gallery.selectOption(name);
    const shown = await eventually(
      async () => ({ description: await page.locator("[data-testid=description]").textContent().catch(() => ""), rows: await rows(page) }),
      (s) => s.description.trim() === (data.description ?? "").trim() && JSON.stringify(s.rows.map((r) => r.key)) === JSON.stringify(data.lookups.map((l) => l.label)),
      { message: `${name} to be shown` },
    );
    let shownRows = shown.rows;
    // An eyaml or HOCON example fetches the backends first, then is evaluated again.
    if (/eyaml_lookup_key|hocon_data/.test(JSON.stringify(data.files))) {
      await attrWhen(page.locator(".playground"), "data-backends", "loaded", 15000);
      shownRows = await eventually(() => rows(page), (rs) => rs.every((r, i) => !checkRow(r, data.lookups[i])), {
        message: `${name} evaluated with its backends`,
      }).catch(() => rows(page));
    }
    data.lookups.forEach((l, i) => {
      const diff = checkRow(shownRows[i], l);
      if (diff) failures.push(`${name}#${i}: ${diff.problem}`);
    });
  }
  assert.deepEqual(failures, []);
});

test("autosave: edits survive a reload; Reset brings back the welcome example", async () => {
  const { page, context, errors, answers, asked } = await openPage(suite.env.browser, suite.env.server.url);
  try {
    await openFile(page, "data/nodes/web01.example.com.yaml");
    await page.locator("[data-testid=editor] .cm-content").click();
    await page.keyboard.press("Control+Home");
    await page.keyboard.press("End");
    await page.keyboard.press("Backspace");
    await page.keyboard.type("1");
    await attrWhen(rowAt(page, 0), "data-value-json", "8081");
    await page.locator("[data-testid=add-lookup]").click();
    await rowAt(page, 7).locator("[data-testid=lookup-key]").fill("profile::base::motd");
    await attrWhen(rowAt(page, 7), "data-key", "profile::base::motd");
    await page.locator("[data-testid=environment-input]").fill("qa");

    // Same context, so the same localStorage.
    await gotoReady(page, suite.env.server.url);
    const shown = await rows(page);
    assert.equal(shown.length, 8);
    assert.equal(shown[0].json, "8081");
    assert.equal(shown[7].key, "profile::base::motd");
    assert.equal(await page.locator("[data-testid=environment-input]").inputValue(), "qa");
    await openFile(page, "data/nodes/web01.example.com.yaml");
    assert.match(await editorText(page), /^profile::web::port: 8081\n/);

    // A dismissed New keeps the work; an accepted one starts a new work from
    // the welcome example, and the first stays in Works.
    answers.push(false);
    await page.locator("[data-testid=reset]").click();
    await eventually(() => asked.length, (n) => n === 1);
    assert.equal(asked[0].message, "Start a new work from the welcome example? Your work stays in Works.");
    assert.equal((await rows(page)).length, 8);
    answers.push(true);
    await page.locator("[data-testid=reset]").click();
    await rowsWhen(page, (r) => r.length === 7 && r[0].json === "8080", "the welcome example");
    assert.equal(await page.locator("[data-testid=environment-input]").inputValue(), "production");

    // A reload shows what was on screen; both works are kept.
    await gotoReady(page, suite.env.server.url);
    const again = await rows(page);
    assert.equal(again.length, 7);
    assert.equal(again[0].json, "8080");
    const kept = await savedWorks(page);
    assert.equal(kept.length, 2);
    assert.match(kept[1], /environment: qa/);

    // A fresh context starts from the welcome example, whatever another saved.
    const other = await openPage(suite.env.browser, suite.env.server.url);
    assert.equal((await rows(other.page)).length, 7);
    await other.context.close();
  } finally {
    await context.close();
  }
  assert.deepEqual(errors, []);
});

test("saved work that cannot be read is kept aside, with a notice", async () => {
  const { page, context, errors } = await openPage(suite.env.browser, null);
  try {
    await page.addInitScript(() => {
      if (!sessionStorage.getItem("seeded")) {
        sessionStorage.setItem("seeded", "1");
        localStorage.setItem("hiera-playground/document", "files: [not, a, hash");
      }
    });
    await gotoReady(page, suite.env.server.url);
    const notice = page.locator("[data-testid=notice]");
    await notice.waitFor();
    assert.match(await notice.innerText(), /Your saved work could not be read .*hiera-playground\/unreadable-document/);
    assert.equal(await page.evaluate(() => localStorage.getItem("hiera-playground/unreadable-document")), "files: [not, a, hash");
    assert.equal((await rows(page)).length, 7);
  } finally {
    await context.close();
  }
  assert.deepEqual(errors, []);
});
