// Trunk pre-build hook: builds the WebAssembly modules beside the page's own
// (app.mjs) into Trunk's staging directory: the optional backends (crate
// backends-wasm: eyaml's PKCS7 encryptor and the HOCON reader) under
// backends/, fetched only for a document that uses them, and the zips'
// packing (crate extras-wasm) under extras/, fetched when a zip or a folder
// is first opened or made (web/js/backends.js). Neither costs other visitors
// anything.
import path from "node:path";
import { release, root, run, staging } from "./hook.mjs";

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
