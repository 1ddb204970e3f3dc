// Share links, embedding, the documentation-page script, and offline use.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { deflateRawSync } from "node:zlib";
import { ROOT, SCREENSHOTS, addLookup, attrWhen, editorText, eventually, filePaths, gotoReady, openPage, rowAt, rows, rowsWhen, savedWork, savedWorks, start } from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

async function shareLink(page) {
  await page.click("[data-testid=share-button]");
  return page.inputValue("[data-testid=share-link]");
}


test("a link round-trip: a fresh browser sees exactly what its author saw", async () => {
  const a = await openPage(env.browser, env.server.url);
  await a.page.selectOption("[data-testid=gallery]", "05-hash-vs-deep-site-users.yaml");
  await rowsWhen(a.page, (rs) => rs.length === 3 && rs.every((r) => r.key === "site_users" && r.status));
  await rowAt(a.page, 1).click();
  const link = await shareLink(a.page);
  assert.ok(link.length < 2000, `link of ${link.length} characters`);
  const expected = await rows(a.page);
  const b = await openPage(env.browser, link);
  const got = await rowsWhen(b.page, (rs) => rs.length === 3 && rs.every((r) => r.status));
  assert.deepEqual(got, expected);
  await b.page.locator("[data-testid=shared-bar]").waitFor();
  // Nothing is saved until the visitor changes it.
  assert.deepEqual(await savedWorks(b.page), []);
  assert.deepEqual(b.errors, []);
  await a.context.close();
  await b.context.close();
});

test("opening a link keeps the visitor's work one click away", async () => {
  const author = await openPage(env.browser, env.server.url);
  await author.page.selectOption("[data-testid=gallery]", "03-hash-merge.yaml");
  await rowsWhen(author.page, (rs) => rs.length > 0 && rs[0].key === "mykey" && rs[0].status);
  const link = await shareLink(author.page);

  const v = await openPage(env.browser, env.server.url);
  await v.page.locator("[data-testid=node-input]").fill("mine.example.com");
  await eventually(() => savedWork(v.page), (t) => t.includes("mine.example.com"));
  // The visitor opens the link in a new tab.
  const tab = await v.context.newPage();
  await gotoReady(tab, link);
  await rowsWhen(tab, (rs) => rs[0]?.key === "mykey" && rs[0].status);
  assert.match((await savedWorks(tab)).join(), /mine\.example\.com/);
  await tab.click("[data-testid=back-to-my-work]");
  await eventually(() => tab.inputValue("[data-testid=node-input]"), (n) => n === "mine.example.com");
  await author.context.close();
  await v.context.close();
});

test("a truncated or foreign link says so, and shows the visitor's work", async () => {
  const a = await openPage(env.browser, env.server.url);
  const link = await shareLink(a.page);
  const bomb = deflateRawSync(Buffer.alloc((4 << 20) + 1, "a")).toString("base64url");
  for (const [bad, message] of [
    [link.slice(0, link.length - 40), /incomplete or damaged/],
    [`${env.server.url}#h1.${bomb}`, /expands to more than 4 MB/],
    [`${env.server.url}#h9.AAAA`, /newer version/],
    [`${env.server.url}#garbage`, /not a playground link/],
  ]) {
    const v = await openPage(env.browser);
    await gotoReady(v.page, bad);
    assert.match(await v.page.locator("[data-testid=notice]").innerText(), message);
    assert.ok((await rows(v.page)).length > 0, "the page still works");
    assert.deepEqual(v.errors, []);
    await v.context.close();
  }
  await a.context.close();
});

test("embed mode: read-only, one lookup, and a link back to the playground", async () => {
  const a = await openPage(env.browser, env.server.url);
  const link = await shareLink(a.page);
  const embed = link.replace("#", "?embed&readonly&lookup=1#");
  const v = await openPage(env.browser);
  await v.page.goto(embed);
  await v.page.locator("[data-testid=embed] [data-testid=lookup-row][data-status]").first().waitFor();
  const rs = await rows(v.page);
  assert.equal(rs.length, 1);
  assert.equal(rs[0].key, "ntp::servers");
  assert.notEqual(await v.page.locator("[data-testid=lookup-key]").getAttribute("readonly"), null);
  await v.page.locator("[data-testid=editor] .cm-content").waitFor();
  assert.equal(await v.page.locator("[data-testid=editor] .cm-content").getAttribute("contenteditable"), "false");
  const back = await v.page.locator("[data-testid=open-in-playground]").getAttribute("href");
  assert.ok(back.includes("#h1.") && !back.includes("embed"), back);
  await v.page.screenshot({ path: `${SCREENSHOTS}/embed.png` });
  await a.context.close();
  await v.context.close();
});

test("the documentation page's blocks become live playgrounds that fit their height", async () => {
  const v = await openPage(env.browser);
  await v.page.goto(`${env.server.url}demo.html`);
  const frame = v.page.frameLocator("iframe.hiera-playground-frame").first();
  // The frame shows the welcome example until the block's document arrives by message.
  await attrWhen(
    frame.locator("[data-testid=lookup-row]").first(),
    "data-value-json",
    '{"a":"common value","b":"per-node override","c":"other common value","d":"per-node value"}',
  );
  const heights = await eventually(
    () => v.page.locator("iframe.hiera-playground-frame").first().evaluate((f) => [f.getBoundingClientRect().height, f.contentDocument.querySelector(".embed").scrollHeight]),
    ([outer, inner]) => Math.abs(outer - inner) <= 24,
  );
  assert.ok(heights[0] > 150, `iframe height ${heights[0]}`);
  await v.page.getByRole("heading", { name: "Deep" }).scrollIntoViewIfNeeded();
  await eventually(() => v.page.locator("iframe.hiera-playground-frame").count(), (n) => n === 2);
  await v.page.screenshot({ path: `${SCREENSHOTS}/demo-page.png`, fullPage: true });
  assert.deepEqual(v.errors, []);
  await v.context.close();
});

test("embeds on another site's page have their height before they are seen: the page never jumps", async () => {
  const v = await openPage(env.browser);
  const demo = await readFile(`${ROOT}www/demo.html`, "utf8");
  const block = demo.match(/<div class="hiera-playground"[\s\S]*?<\/div>/)[0];
  const sections = Array.from({ length: 5 }, (_, i) => `<h2>Example ${i + 1}</h2><p style="height:1100px">Text.</p>${block}`);
  // A docs site is another site than the playground's, and a browser stops
  // telling such frames of their size while they are off-screen. Both are
  // served here by name (the browser would not let a public page reach
  // this machine's addresses).
  const guide = `<!doctype html><meta charset="utf-8"><title>Guide</title><body>${sections.join("")}<p style="height:1500px"></p><script src="http://playground.test/embed.js"></script></body>`;
  const docs = "http://docs.test/guide.html";
  await v.page.route(docs, (route) => route.fulfill({ contentType: "text/html", body: guide }));
  await v.page.route("http://playground.test/**", async (route) => {
    const response = await route.fetch({ url: route.request().url().replace("http://playground.test/", env.server.url) });
    await route.fulfill({ response });
  });
  await v.page.addInitScript(() => {
    window.shifts = [];
    new PerformanceObserver((list) => window.shifts.push(...list.getEntries().map((e) => e.value))).observe({ type: "layout-shift" });
  });
  await v.page.goto(docs);
  const frames = v.page.locator("iframe.hiera-playground-frame");
  // Made a screen ahead of the reader, not all at once.
  await eventually(() => frames.count(), (n) => n === 1);
  const viewport = v.page.viewportSize().height;
  for (let i = 0; i < 5; i++) {
    const frame = frames.nth(i);
    // Just below the fold: made, loaded, and not seen yet.
    await v.page.evaluate(([i, viewport]) => {
      const heading = document.querySelectorAll("h2")[i];
      window.scrollTo(0, heading.offsetTop + heading.offsetHeight + 1100 - viewport - 100);
    }, [i, viewport]);
    await eventually(() => frames.count(), (n) => n > i, { message: `frame ${i + 1} made` });
    const made = Date.now();
    const inside = await eventually(() => v.page.frames().filter((f) => f.url().includes("?embed"))[i], Boolean);
    await attrWhen(inside.locator("[data-testid=lookup-row]").first(), "data-value-json", '{"a":"common value","b":"per-node override","c":"other common value","d":"per-node value"}');
    const ready = Date.now() - made;
    assert.ok(ready < 2000, `frame ${i + 1} ready ${ready} ms after it was made`);
    const contentHeight = () => inside.evaluate(() => document.querySelector(".embed").scrollHeight);
    const unseen = await eventually(
      async () => [await frame.evaluate((f) => [parseFloat(f.style.height), f.getBoundingClientRect().top]), await contentHeight()],
      ([[outer], inner]) => outer === inner + 10,
      { message: `frame ${i + 1} sized off-screen` },
    );
    assert.ok(unseen[0][1] > viewport, `frame ${i + 1} is off-screen (top ${unseen[0][1]})`);
    await frame.scrollIntoViewIfNeeded();
    await v.page.waitForTimeout(300);
    assert.equal(await frame.evaluate((f) => parseFloat(f.style.height)), unseen[0][0], `frame ${i + 1} kept its height when seen`);
  }
  assert.deepEqual(await v.page.evaluate(() => window.shifts.filter((s) => s > 0.0001)), []);
  assert.deepEqual(v.errors, []);
  await v.context.close();
});

test("after the first visit the page works offline", async () => {
  const v = await openPage(env.browser, env.server.url);
  await v.page.evaluate(() => navigator.serviceWorker.ready);
  await gotoReady(v.page, env.server.url);
  await v.context.setOffline(true);
  await v.page.reload();
  await v.page.locator("[data-testid=lookup-row][data-status]").first().waitFor();
  assert.ok((await rows(v.page)).length > 0);
  await v.context.close();
});

test("the share field never shows a link to another document than the one shown", async () => {
  const { page, errors, context } = await openPage(env.browser, env.server.url);
  const first = await shareLink(page);
  const previous = await page.locator("[data-testid=description]").innerText();
  await page.selectOption("[data-testid=gallery]", "03-hash-merge.yaml");
  await eventually(() => page.locator("[data-testid=description]").innerText(), (d) => d !== previous);
  assert.equal(await page.locator("[data-testid=share-link]").count(), 0);
  const second = await shareLink(page);
  assert.notEqual(second, first);
  assert.deepEqual(errors, []);
  await context.close();
});

test("link lengths of the gallery examples", async () => {
  const index = (await readFile(`${ROOT}www/examples/index.txt`, "utf8")).split("\n").filter(Boolean);
  const v = await openPage(env.browser, env.server.url);
  const lengths = [];
  for (const file of index) {
    // The page opens with the welcome example: choosing it again would load
    // it again while its link is being made, and the link would be for the
    // document before.
    if (file !== "00-welcome.yaml") {
      const previous = await v.page.locator("[data-testid=description]").innerText().catch(() => "");
      await v.page.selectOption("[data-testid=gallery]", file);
      await eventually(() => v.page.locator("[data-testid=description]").innerText().catch(() => ""), (d) => d && d !== previous);
    }
    lengths.push([file, (await shareLink(v.page)).length]);
  }
  console.log(`share link lengths (characters): ${lengths.map(([f, n]) => `${f} ${n}`).join(", ")}`);
  // Ciphertext and certificates do not compress: the eyaml example's link is longer.
  const eyaml = (f) => f.includes("eyaml");
  assert.ok(lengths.every(([f, n]) => n < (eyaml(f) ? 4000 : 2000)), "typical examples fit in 2,000 characters, eyaml's in 4,000");
  await v.context.close();
});

test("export as a control-repo zip, then import it: the same document", async () => {
  const { page, context, errors } = await openPage(env.browser, env.server.url);
  await page.selectOption("[data-testid=gallery]", "31-three-layers.yaml");
  const before = await rowsWhen(page, (rs) => rs.length > 0 && rs.every((r) => r.status) && rs[0].key !== "profile::web::port");
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("[data-testid=export-zip]")]);
  const zip = `${ROOT}target/exported.zip`;
  await download.saveAs(zip);
  assert.equal(download.suggestedFilename(), "hiera-playground.zip");
  await page.selectOption("[data-testid=gallery]", "01-first-found.yaml");
  await rowsWhen(page, (rs) => rs.length > 0 && rs[0].key !== before[0].key);
  await page.setInputFiles("[data-testid=open-case]", zip);
  const after = await rowsWhen(page, (rs) => rs.length === before.length && rs[0].key === before[0].key && rs.every((r) => r.status));
  assert.deepEqual(after.map(({ selected, ...r }) => r), before.map(({ selected, ...r }) => r));

  // The same files deflated, as zip tools write them: the browser inflates them.
  const deflated = `${ROOT}target/exported-deflated.zip`;
  const rezip = "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1]) as a, zipfile.ZipFile(sys.argv[2], 'w', zipfile.ZIP_DEFLATED) as b:\n    for i in a.infolist(): b.writestr(i.filename, a.read(i))";
  execFileSync("python3", ["-c", rezip, zip, deflated]);
  await page.selectOption("[data-testid=gallery]", "01-first-found.yaml");
  await rowsWhen(page, (rs) => rs.length > 0 && rs[0].key !== before[0].key);
  await page.setInputFiles("[data-testid=open-case]", deflated);
  const inflated = await rowsWhen(page, (rs) => rs.length === before.length && rs[0].key === before[0].key && rs.every((r) => r.status));
  assert.deepEqual(inflated.map(({ selected, ...r }) => r), before.map(({ selected, ...r }) => r));

  // The same zip unpacked and dropped onto the page as a folder.
  const folder = `${ROOT}target/drop/exported`;
  await rm(folder, { recursive: true, force: true });
  execFileSync("python3", ["-m", "zipfile", "-e", zip, folder]);
  await page.selectOption("[data-testid=gallery]", "01-first-found.yaml");
  await rowsWhen(page, (rs) => rs.length > 0 && rs[0].key !== before[0].key);
  await drop(page, [folder]);
  const dropped = await rowsWhen(page, (rs) => rs.length === before.length && rs[0].key === before[0].key && rs.every((r) => r.status));
  assert.deepEqual(dropped.map(({ selected, ...r }) => r), before.map(({ selected, ...r }) => r));
  assert.deepEqual(errors, []);
  await context.close();
});

/**
 * Drops files or folders (paths on this machine) onto the middle of the page
 * the way the desktop does, through Chromium's own drag events.
 */
async function drop(page, paths, { release = true } = {}) {
  const cdp = await page.context().newCDPSession(page);
  const data = { items: [], files: paths, dragOperationsMask: 1 };
  for (const type of release ? ["dragEnter", "dragOver", "drop"] : ["dragEnter", "dragOver"]) {
    await cdp.send("Input.dispatchDragEvent", { type, x: 640, y: 400, data });
  }
  await cdp.detach();
}

async function writeTree(root, files) {
  await rm(root, { recursive: true, force: true });
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(`${root}/${path}`), { recursive: true });
    await writeFile(`${root}/${path}`, text);
  }
}

test("a control repository folder dropped onto the page opens its Hiera files", async () => {
  const repo = `${ROOT}target/drop/control-repo`;
  await writeTree(repo, {
    "hiera.yaml": "version: 5\nhierarchy:\n  - name: Roles\n    path: \"roles/%{facts.role}.yaml\"\n  - name: Common\n    path: common.yaml\n",
    "data/common.yaml": "profile::port: 80\n",
    "data/roles/web.yaml": "profile::port: 8443\n",
    "facts.yaml": "role: web\n",
    "manifests/site.pp": "node default {}\n",
    "Puppetfile": "mod 'puppetlabs-stdlib'\n",
    ".gitlab-ci.yml": "stages: []\n",
    ".git/HEAD": "ref: refs/heads/main\n",
  });
  const { page, context, errors } = await openPage(env.browser, env.server.url);
  await rowsWhen(page, (rs) => rs.length > 0 && rs.every((r) => r.status));
  await drop(page, [repo], { release: false });
  await page.locator("[data-testid=drop-overlay]").waitFor();
  await page.screenshot({ path: `${SCREENSHOTS}/drop-overlay.png` });
  await drop(page, [repo]);
  // Only Hiera's files, at their places in the environment.
  const expected = JSON.stringify(["data/common.yaml", "data/roles/web.yaml", "hiera.yaml"]);
  await eventually(() => filePaths(page), (ps) => JSON.stringify([...ps].sort()) === expected, { message: "the repository's Hiera files" });
  assert.equal(await page.locator("[data-testid=notice] span").textContent(), "Opened 3 Hiera files from the folder control-repo (other files are left out). Add a lookup to query them.");
  assert.equal(await page.locator("[data-testid=drop-overlay]").count(), 0);
  const row = await addLookup(page);
  await row.locator("[data-testid=lookup-key]").fill("profile::port");
  await attrWhen(row, "data-value-json", "8443");

  // Something that is no Hiera repository says so, and changes nothing.
  const other = `${ROOT}target/drop/notes`;
  await writeTree(other, { "todo.txt": "nothing here\n" });
  await drop(page, [other]);
  await eventually(() => page.locator("[data-testid=notice]").textContent(), (t) => t?.includes("Could not open what was dropped: it holds no Hiera configuration or data files"));
  assert.equal(await row.getAttribute("data-value-json"), "8443");
  assert.deepEqual(errors, []);
  await context.close();
});

test("a drop onto a shared playground does nothing, and does not leave the page", async () => {
  const a = await openPage(env.browser, env.server.url);
  await a.page.selectOption("[data-testid=gallery]", "03-hash-merge.yaml");
  const shown = await rowsWhen(a.page, (rs) => rs.length > 0 && rs[0].key !== "profile::web::port" && rs.every((r) => r.status));
  const link = await shareLink(a.page);
  await a.context.close();
  const { page, context, errors } = await openPage(env.browser, link);
  await rowsWhen(page, (rs) => rs.length === shown.length && rs[0].key === shown[0].key && rs.every((r) => r.status));
  await page.locator("[data-testid=editor] .cm-editor").waitFor();
  const text = await editorText(page);
  // Onto the editor, which would insert a dropped file's text itself.
  await drop(page, [`${ROOT}www/examples/01-first-found.yaml`]);
  await page.waitForTimeout(500);
  assert.equal(await editorText(page), text, "the file's text is not dropped into the editor");
  assert.equal(page.url(), link, "still on the shared link");
  assert.deepEqual((await rows(page)).map((r) => r.key), shown.map((r) => r.key), "the shared lookups are still shown");
  assert.equal(await page.locator("[data-testid=drop-overlay]").count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a case file dropped onto the page opens as Open does", async () => {
  const { page, context, errors } = await openPage(env.browser, env.server.url);
  await rowsWhen(page, (rs) => rs.length > 0 && rs.every((r) => r.status));
  await drop(page, [`${ROOT}www/examples/01-first-found.yaml`]);
  const text = await readFile(`${ROOT}www/examples/01-first-found.yaml`, "utf8");
  const firstKey = /key: (\S+)/.exec(text)[1];
  await rowsWhen(page, (rs) => rs.length > 0 && rs[0].key === firstKey && rs.every((r) => r.status));
  assert.deepEqual(errors, []);
  await context.close();
});

test("a minimal example of a dropped repository's lookup opens beside the work, and its link shows the same answer elsewhere", async () => {
  const repo = `${ROOT}target/drop/minimal-repo`;
  await writeTree(repo, {
    "hiera.yaml": "version: 5\nhierarchy:\n  - name: Roles\n    path: \"roles/%{facts.role}.yaml\"\n  - name: Common\n    path: common.yaml\n",
    "data/common.yaml": "profile::port: 80\nprofile::secret: hunter2\nntp::servers: [pool.ntp.org]\n",
    "data/roles/web.yaml": "profile::port: 8443\nprofile::workers: 4\n",
    "data/roles/db.yaml": "profile::port: 5432\n",
    "facts.yaml": "role: web\nos: {family: Debian}\n",
  });
  const { page, context, errors } = await openPage(env.browser, env.server.url);
  await rowsWhen(page, (rs) => rs.length > 0 && rs.every((r) => r.status));
  await drop(page, [repo]);
  await eventually(() => filePaths(page), (ps) => ps.includes("data/roles/db.yaml"), { message: "the repository" });
  const row = await addLookup(page);
  await row.locator("[data-testid=lookup-key]").fill("profile::port");
  await attrWhen(row, "data-value-json", "8443");
  await row.locator("[data-testid=share-minimal]").click();
  await eventually(() => page.locator("[data-testid=notice] span").textContent(), (t) => /^The smallest example of this lookup/.test(t ?? ""), { message: "the notice" });
  assert.match(await page.locator("[data-testid=notice] span").textContent(), /Left out: 1 file, 4 keys, 1 fact\./);
  assert.deepEqual([...(await filePaths(page))].sort(), ["data/common.yaml", "data/roles/web.yaml", "hiera.yaml"]);
  await page.locator("[data-testid=back-to-my-work]").waitFor();
  const link = await eventually(() => page.locator("[data-testid=report-link]").inputValue(), (l) => l.includes("#"), { message: "the link" });
  assert.doesNotMatch(await page.locator("[data-testid=report-markdown]").inputValue(), /hunter2/);
  // A fresh browser opens the link: the same answer, from the few files it holds.
  const other = await openPage(env.browser);
  await other.page.goto(link);
  await attrWhen(other.page.locator("[data-testid=lookup-row]").first(), "data-value-json", "8443");
  // The work is still there.
  await page.click("[data-testid=back-to-my-work]");
  await eventually(() => filePaths(page), (ps) => ps.includes("data/roles/db.yaml"), { message: "back to the work" });
  assert.deepEqual(errors, []);
  assert.deepEqual(other.errors, []);
  await other.context.close();
  await context.close();
});
