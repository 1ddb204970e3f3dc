// Trunk pre-build hook: builds the page's lazily fetched WebAssembly modules
// into Trunk's staging directory: the optional backends (crate backends-wasm:
// eyaml's PKCS7 encryptor and the HOCON reader) under backends/, fetched only
// for a document that uses them, and what most visits never use (crate
// extras-wasm: Report it, Nodes, zips) under extras/, fetched when first
// used (web/js/backends.js). Neither costs other visitors anything.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";

const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) {
  console.error("backends.mjs runs as a Trunk hook: TRUNK_STAGING_DIR is not set");
  process.exit(1);
}
const release = process.env.TRUNK_PROFILE === "release";
const root = fileURLToPath(new URL("../..", import.meta.url));
const run = (command, args) => execFileSync(command, args, { cwd: root, stdio: "inherit" });

// Offline, as Trunk builds: scripts/setup has fetched every crate. One
// after the other: the machine that builds may have two cores.
for (const [crate, dir] of [["hiera-backends-wasm", "backends"], ["hiera-extras-wasm", "extras"]]) {
  run("cargo", [
    "build", "--offline", "--locked", "-p", crate, "--target", "wasm32-unknown-unknown",
    ...(release ? ["--profile", "web"] : []),
  ]);
  const name = crate.replaceAll("-", "_");
  const wasm = path.join(root, "target/wasm32-unknown-unknown", release ? "web" : "debug", `${name}.wasm`);
  const out = path.join(staging, dir);
  run("wasm-bindgen", ["--target", "web", "--no-typescript", "--out-dir", out, wasm]);
  if (release) {
    const built = path.join(out, `${name}_bg.wasm`);
    run("wasm-opt", ["-Oz", "--enable-bulk-memory", "--enable-nontrapping-float-to-int", "-o", built, built]);
  }
}
