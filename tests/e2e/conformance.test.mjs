// Every conformance case through the page: opened with the Open… file input, one
// after another in one page, each row checked against what Puppet recorded.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { ROOT, checkRow, eventually, filePaths, openFile, openPage, readCase, rows, start } from "./helpers.mjs";


let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

/** `case#index` lines of known-failures.txt. */
async function knownFailures() {
  const text = await readFile(`${ROOT}tests/conformance/known-failures.txt`, "utf8");
  return new Set(text.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#")));
}

// Puppet 7.23's cases, the same recorded from OpenVox 8.28.1 (each says `puppet: 8`), this
// project's own and the YAML test suite's, ruby-hocon's and lightbend/config's documents,
// recorded from both.
for (const dir of ["cases", "puppet8", "own", "yaml-suite", "hocon-suite", "lightbend"]) test(`every conformance case of ${dir}/, opened in the page, gives Puppet's recorded results`, async () => {
  const CASES = `${ROOT}tests/conformance/${dir}/`;
  const known = await knownFailures();
  const names = (await readdir(CASES)).filter((f) => f.endsWith(".yaml")).sort();
  assert.ok(names.length > 50, `found ${names.length} cases`);
  const { page, errors, context } = await openPage(env.browser, env.server.url);
  const started = Date.now();
  const counts = { cases: 0, lookups: 0, values: 0, rendered: 0, errors: 0, exactErrors: 0, known: 0, knownStillFailing: 0 };
  const failures = [];
  const inexact = [];
  const input = page.locator("[data-testid=open-case]");
  for (const name of names) {
    const file = `${CASES}${name}`;
    const data = readCase(await readFile(file, "utf8"));
    const caseName = name.replace(/\.yaml$/, "");
    const labels = data.lookups.map((l) => l.label);
    const paths = Object.keys(data.files ?? {}).filter((p) => !p.endsWith("/")).sort();
    await input.setInputFiles(file);
    // The document is in once the description, the file tree and the rows are the case's
    // (descriptions are unique among the cases, so a stale page cannot pass for the new one).
    const shown = await eventually(
      async () => ({
        description: await page.locator("[data-testid=description]").textContent().catch(() => null),
        paths: (await filePaths(page)).sort(),
        rows: await rows(page),
      }),
      (s) =>
        (s.description ?? "").trim() === (data.description ?? "").trim() &&
        JSON.stringify(s.paths) === JSON.stringify(paths) &&
        JSON.stringify(s.rows.map((r) => r.key)) === JSON.stringify(labels) &&
        // Until the eyaml and HOCON module arrives, its levels say it is not loaded yet.
        s.rows.every((r) => r.status === "found" || (r.status === "error" && !/is not loaded \(yet\)/.test(r.error ?? ""))),
      { message: `${name} to be shown`, timeout: 10000 },
    );
    counts.cases += 1;
    data.lookups.forEach((lookup, i) => {
      const id = `${dir}/${caseName}#${i}`;
      const row = shown.rows[i];
      const diff = checkRow(row, lookup);
      counts.lookups += 1;
      if (known.has(id)) {
        counts.known += 1;
        if (diff) counts.knownStillFailing += 1;
        return;
      }
      if (diff) {
        failures.push(`${id} (${lookup.label}): ${diff.problem}`);
        return;
      }
      const expect = lookup.expect;
      if ("value" in expect) counts.values += 1;
      else if ("value_rendered" in expect) counts.rendered += 1;
      else {
        counts.errors += 1;
        if (row.error === expect.error) counts.exactErrors += 1;
        else inexact.push(`${id}\n    expected: ${expect.error}\n    page:     ${row.error}`);
      }
    });
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `conformance through the page (${dir}/): ${counts.cases} cases, ${counts.lookups} lookups in ${seconds}s: ` +
      `${counts.values} values, ${counts.rendered} rendered values and ${counts.errors} errors as Puppet ` +
      `(${counts.exactErrors} of the errors word for word), ${counts.known} known failures skipped ` +
      `(${counts.knownStillFailing} of them still differ), ${failures.length} unexpected differences`,
  );
  if (process.env.SHOW_INEXACT_ERRORS) console.log(inexact.join("\n"));
  await context.close();
  assert.deepEqual(failures, [], "rows differ from Puppet's recorded results");
  assert.deepEqual(errors, [], "the page threw");
});

test("keystroke to updated row, in the largest gallery example (measured, not asserted)", async () => {
  const { page, errors, context } = await openPage(env.browser, env.server.url);
  try {
    // 18-hierarchy-example has the most files (7) and text of the gallery.
    await page.locator("[data-testid=gallery]").selectOption("18-hierarchy-example.yaml");
    const timezone = page.locator('[data-testid=lookup-row][data-key="profile::base::timezone"]');
    await timezone.waitFor();
    await openFile(page, "data/common.yaml");
    // The cursor at the end of "profile::base::timezone: UTC".
    await page.locator("[data-testid=editor] .cm-line", { hasText: "profile::base::timezone: UTC" }).click();
    await page.keyboard.press("End");
    const times = [];
    for (const ch of "abcdefghijklmnopqrst") {
      // Page side: from the keydown event's time to the frame where the row has changed.
      await page.evaluate(() => {
        const row = document.querySelector('[data-testid=lookup-row][data-key="profile::base::timezone"]');
        const before = row.getAttribute("data-value-json");
        window.__keystroke = new Promise((resolve) => {
          document.addEventListener(
            "keydown",
            (event) => {
              const start = event.timeStamp;
              const poll = () => {
                if (row.getAttribute("data-value-json") !== before) resolve(performance.now() - start);
                else requestAnimationFrame(poll);
              };
              requestAnimationFrame(poll);
            },
            { capture: true, once: true },
          );
        });
      });
      await page.keyboard.press(ch);
      times.push(await page.evaluate(() => window.__keystroke));
    }
    assert.match(await timezone.getAttribute("data-value-json"), /^"UTCabcdefghijklmnopqrst"$/);
    const sorted = [...times].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    console.log(
      `keystroke to updated row (18-hierarchy-example, ${times.length} keystrokes): ` +
        `median ${median.toFixed(1)} ms, min ${sorted[0].toFixed(1)} ms, max ${sorted.at(-1).toFixed(1)} ms`,
    );
  } finally {
    await context.close();
  }
  assert.deepEqual(errors, []);
});
