// Trunk pre-build hook: builds the page's own WebAssembly (crate hiera-web)
// into Trunk's staging directory, under app-HASH/. wasm-split-cli cuts the
// module at the split points of web/src/chunks.rs: the first download keeps
// the engine, the state and the views every visit draws; each split point
// becomes a module of its own (split_NAME.wasm) with the code only it
// reaches, fetched the first time a view needs it or soon after the page is
// drawn (web/src/hooks/use_chunks.rs). Then wasm-bindgen writes
// the glue, and a release build is optimized for size. csp.mjs links the
// start script it writes from index.html.
//
// Everything sits in one folder named by a hash of its contents: a page
// opened before a deployment can only fetch parts of its own build.
import { createHash } from "node:crypto";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { release, root, run, staging } from "./hook.mjs";

// Offline, as Trunk builds: scripts/setup has fetched every crate.
// wasm-split-cli reads the linker's relocations; `cargo rustc` asks for them
// in the page's link only (the other modules' optimizer cannot read them,
// and the crates they share are not built again).
run("cargo", [
  "rustc", "--offline", "--locked", "-p", "hiera-web", "--bin", "hiera-web", "--features", "split",
  "--target", "wasm32-unknown-unknown", ...(release ? ["--profile", "web"] : []), "--", "-Clink-args=--emit-relocs",
]);
const built = path.join(root, "target/wasm32-unknown-unknown", release ? "web" : "debug", "hiera-web.wasm");

const work = await mkdtemp(path.join(tmpdir(), "hiera-web-"));
try {
  const split = path.join(work, "split");
  const out = path.join(work, "out");
  run("wasm-split-cli", ["--target", "web", "--out-name", "hiera-web", built, split]);
  // The parts import the first module's memory, table and functions by the
  // names the linker gave them: keep those exports.
  run("wasm-bindgen", [
    "--target", "web", "--no-typescript", "--keep-lld-exports", "--out-dir", out, "--out-name", "hiera-web",
    path.join(split, "hiera-web.wasm"),
  ]);
  for (const name of await readdir(split)) {
    if (name !== "hiera-web.wasm") await cp(path.join(split, name), path.join(out, name));
  }
  if (release) {
    for (const name of await readdir(out)) {
      if (!name.endsWith(".wasm")) continue;
      const file = path.join(out, name);
      const first = name === "hiera-web_bg.wasm" ? ["--zero-filled-memory", "--low-memory-unused"] : [];
      run("wasm-opt", ["-Oz", "--converge", ...first, "-o", file, file]);
    }
  }
  await writeFile(
    path.join(out, "start.js"),
    [
      'import init from "./hiera-web.js";',
      'const wasm = await init({ module_or_path: new URL("./hiera-web_bg.wasm", import.meta.url) });',
      "// The instance's exports (its memory among them), for the performance tests.",
      'dispatchEvent(new CustomEvent("playground-started", { detail: { wasm } }));',
      "",
    ].join("\n"),
  );

  const hash = createHash("sha256");
  const names = (await readdir(out, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(out, path.join(entry.parentPath, entry.name)));
  for (const name of names.sort()) hash.update(name).update(await readFile(path.join(out, name)));
  const dir = path.join(staging, `app-${hash.digest("hex").slice(0, 16)}`);
  await mkdir(dir, { recursive: true });
  await cp(out, dir, { recursive: true });
} finally {
  await rm(work, { recursive: true, force: true });
}
