// The tour (issue 41): a learner offered the tour on the welcome screen plays
// through four lessons (a check fails, a hint helps, a fresh start, the task
// done and every check passing), on a desktop and on a phone; progress and
// each lesson's link survive a reload.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { SCREENSHOTS, eventually, newPath, openFile, openPage, replaceEditorText, start } from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

const checks = (page) => page.$$eval("[data-testid=tour-check]", (els) => els.map((e) => e.dataset.passed === "true"));

/** Waits for the lesson `name` to be on show, with its checks. */
async function lessonShown(page, name) {
  await eventually(() => page.locator("[data-testid=tour]").getAttribute("data-lesson").catch(() => null), (l) => l === name, {
    message: `lesson ${name}`,
  });
  await page.locator("[data-testid=tour-check]").first().waitFor();
}

for (const [width, height, device] of [[1280, 800, "desktop"], [390, 844, "phone"]]) {
  test(`a learner plays four lessons: each fails its checks, takes a hint, passes (${device})`, async () => {
    const { page, errors, context } = await openPage(env.browser, env.server.url, { viewport: { width, height } });
    // A first visit offers the tour; its lessons are fetched only then.
    const fetchedLessons = () => page.evaluate(() => performance.getEntriesByType("resource").filter((e) => e.name.includes("/lessons/")).length);
    assert.equal(await fetchedLessons(), 0);
    await page.click("[data-testid=start-tour]");
    await lessonShown(page, "01-first-found.yaml");
    assert.match(await page.locator("[data-testid=tour-title]").innerText(), /^Lesson 1 of 21: The hierarchy$/);
    assert.deepEqual(await checks(page), [false, true, false]);
    assert.match(page.url(), /\?lesson=01-first-found$/);
    await page.screenshot({ path: `${SCREENSHOTS}/tour-${device}.png`, fullPage: width < 500 });

    // Lesson 1: a hint at a time, then the learner's own answer.
    await page.click("[data-testid=tour-hint-button]");
    assert.equal(await page.locator("[data-testid=tour-hint]").count(), 1);
    assert.match(await page.locator("[data-testid=tour-hint]").first().innerText(), /data\/nodes\/web01\.example\.com\.yaml/);
    await newPath(page, "file", "data/nodes/web01.example.com.yaml");
    await replaceEditorText(page, "profile::web::port: 8443\n");
    await eventually(() => checks(page), (c) => c.every(Boolean), { message: "lesson 1 passed" });
    await page.locator("[data-testid=tour-passed]").waitFor();
    await page.click("[data-testid=tour-next-lesson]");

    // Lesson 2: editing common.yaml breaks a check, the hinted level fixes the answer.
    await lessonShown(page, "02-facts-in-paths.yaml");
    assert.deepEqual(await checks(page), [false, true, true, false]);
    await openFile(page, "data/common.yaml");
    await replaceEditorText(page, "profile::base::package_manager: apt\n");
    await eventually(() => checks(page), (c) => c[0] === true && c[1] === false, { message: "answer right, common.yaml changed" });
    await page.click("[data-testid=tour-restart]");
    await eventually(() => checks(page), (c) => c[0] === false && c[1] === true, { message: "started over" });
    await page.click("[data-testid=tour-hint-button]");
    await page.click("[data-testid=tour-hint-button]");
    assert.equal(await page.locator("[data-testid=tour-hint]").count(), 2);
    await openFile(page, "hiera.yaml");
    await replaceEditorText(
      page,
      'version: 5\ndefaults:\n  datadir: data\n  data_hash: yaml_data\nhierarchy:\n  - name: "Per-node data"\n    path: "nodes/%{trusted.certname}.yaml"\n  - name: "Per-OS defaults"\n    path: "os/%{facts.os.family}.yaml"\n  - name: "Common data"\n    path: "common.yaml"\n',
    );
    await newPath(page, "file", "data/os/Debian.yaml");
    await replaceEditorText(page, "profile::base::package_manager: apt\n");
    await eventually(() => checks(page), (c) => c.every(Boolean), { message: "lesson 2 passed" });
    await page.click("[data-testid=tour-next-lesson]");

    // Lesson 3: the module's data is not to be edited; the environment's wins over it.
    await lessonShown(page, "03-layers.yaml");
    assert.deepEqual(await checks(page), [false, true, true, false]);
    await openFile(page, "modules/ntp/data/common.yaml");
    await replaceEditorText(page, "ntp::servers:\n  - ntp.example.com\n");
    await page.click("[data-testid=tour-hint-button]");
    await page.click("[data-testid=tour-restart]");
    await eventually(() => checks(page), (c) => c[0] === false && c[1] === true, { message: "started over" });
    await openFile(page, "data/common.yaml");
    await replaceEditorText(page, "profile::base::motd: Managed by Puppet\nntp::servers:\n  - ntp.example.com\n");
    await eventually(() => checks(page), (c) => c.every(Boolean), { message: "lesson 3 passed" });

    // Lesson 7, chosen from the list: a literal answer is not enough; interpolation is.
    await page.selectOption("[data-testid=tour-lessons]", "07-interpolation.yaml");
    await lessonShown(page, "07-interpolation.yaml");
    await openFile(page, "data/common.yaml");
    await replaceEditorText(page, "site::name: Example Corp\nprofile::base::motd: Welcome to web01, run by Example Corp\n");
    await eventually(() => checks(page), (c) => c[0] === true && c[1] === false, { message: "the literal text passes only the answer" });
    await replaceEditorText(page, "site::name: Example Corp\nprofile::base::motd: \"Welcome to %{facts.networking.hostname}, run by %{lookup('site::name')}\"\n");
    await eventually(() => checks(page), (c) => c.every(Boolean), { message: "lesson 7 passed" });

    // The lessons passed are kept, and a lesson's link opens it after a reload.
    await page.reload();
    await lessonShown(page, "07-interpolation.yaml");
    const options = await page.locator("[data-testid=tour-lessons] option").allInnerTexts();
    assert.deepEqual(options.slice(0, 8), ["✓ 1. First found", "✓ 2. Facts in paths", "✓ 3. Layers", "4. Paths", "5. Glob", "6. Mapped paths", "✓ 7. Interpolation", "8. Alias"]);
    // The solution, shown, passes; closing the tour leaves the lesson's link.
    await page.click("[data-testid=tour-next]");
    await lessonShown(page, "08-alias.yaml");
    assert.deepEqual(await checks(page), [false]);
    await page.click("[data-testid=tour-solution]");
    await eventually(() => checks(page), (c) => c.every(Boolean), { message: "the solution passes" });
    await page.click("[data-testid=tour-close]");
    await page.locator("[data-testid=tour]").waitFor({ state: "detached" });
    await eventually(() => page.url(), (u) => !u.includes("lesson="), { message: "the link is the page's again" });
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test("the keyboard reaches every control of a lesson", async () => {
  const { page, errors, context } = await openPage(env.browser, `${env.server.url}?lesson=21-class-parameters`);
  await lessonShown(page, "21-class-parameters.yaml");
  await page.locator("[data-testid=tour-hint-button]").focus();
  await page.keyboard.press("Enter");
  assert.equal(await page.locator("[data-testid=tour-hint]").count(), 1);
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), "tour-solution");
  await page.keyboard.press("Enter");
  await eventually(() => checks(page), (c) => c.every(Boolean), { message: "the solution passes" });
  assert.deepEqual(errors, []);
  await context.close();
});

test("a lesson embeds in a docs page: its panel above the embedded playground, checked as in the page", async () => {
  const { page, errors, context } = await openPage(env.browser);
  await page.setContent(`<!doctype html><body><iframe src="${env.server.url}index.html?embed&lesson=11-unique-merge" style="width:900px;height:800px"></iframe></body>`);
  const frame = await eventually(() => page.frames().find((f) => f.url().includes("lesson=")), Boolean, { message: "the frame" });
  await eventually(() => frame.locator("[data-testid=tour]").getAttribute("data-lesson").catch(() => null), (l) => l === "11-unique-merge.yaml", {
    message: "the lesson in the embed",
  });
  await frame.locator("[data-testid=embed]").waitFor();
  assert.deepEqual(await frame.$$eval("[data-testid=tour-check]", (els) => els.map((e) => e.dataset.passed)), ["false"]);
  await frame.click("[data-testid=tour-solution]");
  await eventually(() => frame.$$eval("[data-testid=tour-check]", (els) => els.map((e) => e.dataset.passed)), (c) => c.join() === "true");
  // The embed keeps its own address.
  assert.match(frame.url(), /\?embed&lesson=11-unique-merge$/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("the eyaml lesson decrypts in the page with the lesson's key pair, once the value is an ENC block", async () => {
  const { page, errors, context } = await openPage(env.browser, `${env.server.url}?lesson=19-eyaml`);
  await lessonShown(page, "19-eyaml.yaml");
  // The plain password answers, but is not kept encrypted: two checks fail.
  await eventually(() => checks(page), (c) => JSON.stringify(c) === "[true,false,false]", { message: "the plain value fails the lesson" });
  await page.click("[data-testid=tour-solution]");
  await eventually(() => checks(page), (c) => c.every(Boolean), { message: "the encrypted value passes" });
  assert.deepEqual(errors, []);
  await context.close();
});
