// Trunk pre-build hook: builds the optional backends (crate backends-wasm:
// eyaml's PKCS7 encryptor and the HOCON reader) into a WebAssembly module of
// its own, in Trunk's staging directory under backends/. The page fetches it
// only for a document that uses them (web/js/backends.js), so that it costs
// every other visitor nothing.
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

// Offline, as Trunk builds: scripts/setup has fetched every crate.
run("cargo", [
  "build", "--offline", "--locked", "-p", "hiera-backends-wasm", "--target", "wasm32-unknown-unknown",
  ...(release ? ["--profile", "web"] : []),
]);
const wasm = path.join(root, "target/wasm32-unknown-unknown", release ? "web" : "debug", "hiera_backends_wasm.wasm");
const out = path.join(staging, "backends");
run("wasm-bindgen", ["--target", "web", "--no-typescript", "--out-dir", out, wasm]);
if (release) {
  const built = path.join(out, "hiera_backends_wasm_bg.wasm");
  run("wasm-opt", ["-Oz", "--enable-bulk-memory", "--enable-nontrapping-float-to-int", "-o", built, built]);
}
