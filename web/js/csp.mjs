// Trunk post-build hook: links the page's module that app.mjs built (its
// start script, and a preload of every file the first download fetches, so
// that they come at once) and adds a strict Content-Security-Policy, so that
// the page runs no inline script and no eval beyond what WebAssembly needs;
// in a release build, also minifies the page's scripts and styles
// (minify.mjs).
import { createHash } from "node:crypto";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { release, staging as dir } from "./hook.mjs";
import { minify } from "./minify.mjs";

const file = path.join(dir, "index.html");
let html = await readFile(file, "utf8");

const app = (await readdir(dir)).find((name) => name.startsWith("app-"));
if (!app) throw new Error("the staging directory has no app-HASH/ (web/js/app.mjs)");
const integrity = async (name) => `sha384-${createHash("sha384").update(await readFile(path.join(dir, name))).digest("base64")}`;
// The parts fetched later (split_NAME.wasm) are not preloaded.
const scripts = (await readdir(path.join(dir, app), { recursive: true }))
  .map(String)
  .filter((name) => name.endsWith(".js") && name !== "start.js");
const links = [`<script type="module" src="/${app}/start.js"></script>`];
for (const name of scripts.sort()) {
  const href = `${app}/${name}`;
  links.push(`<link rel="modulepreload" href="/${href}" crossorigin="anonymous" integrity="${await integrity(href)}">`);
}
const wasm = `${app}/hiera-web_bg.wasm`;
links.push(
  `<link rel="preload" href="/${wasm}" crossorigin="anonymous" integrity="${await integrity(wasm)}" as="fetch" type="application/wasm">`,
);
if (!html.includes("</head>")) throw new Error("index.html has no </head>");
html = html.replace("</head>", `${links.join("\n    ")}\n  </head>`);
if (release) html = await minify(dir, html);

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
