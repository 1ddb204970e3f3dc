// Trunk post-build hook: moves the loader Trunk writes inline into a file of
// its own and adds a strict Content-Security-Policy, so that the page runs no
// inline script and no eval beyond what WebAssembly needs; in a release
// build, also minifies the page's scripts and styles (minify.mjs).
import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { minify } from "./minify.mjs";

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) throw new Error("csp.mjs runs as a Trunk post_build hook (TRUNK_STAGING_DIR is not set)");
const file = path.join(dir, "index.html");
let html = await readFile(file, "utf8");
if (process.env.TRUNK_PROFILE === "release") html = await minify(dir, html);

const inline = /<script type="module">([\s\S]*?)<\/script>/;
const found = html.match(inline);
if (found) {
  const name = `start-${createHash("sha256").update(found[1]).digest("hex").slice(0, 16)}.js`;
  await writeFile(path.join(dir, name), found[1]);
  html = html.replace(inline, `<script type="module" src="/${name}"></script>`);
}

const policy = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  // CodeMirror styles its editor with <style> elements it creates.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");
const charset = '<meta charset="utf-8" />';
if (!html.includes(charset)) throw new Error("index.html has no <meta charset>");
html = html.replace(charset, `${charset}\n    <meta http-equiv="Content-Security-Policy" content="${policy}" />`);
await writeFile(file, html);
