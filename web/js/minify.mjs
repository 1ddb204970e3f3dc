// Part of the post-build hook (csp.mjs): in a release build, minifies the
// scripts and the style sheet index.html loads (Trunk's own minifier cannot
// parse wasm-bindgen's glue) and updates their integrity hashes to match.
import { transform } from "esbuild";
import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";

/** Minifies what `html` (the text of `dir`'s index.html) loads; returns `html` with new hashes. */
export async function minify(dir, html) {
  const linked = /href="\/([^"]+\.(js|css))"[^>]*? integrity="([^"]+)"/g;
  for (const [whole, name, kind, integrity] of [...html.matchAll(linked)]) {
    const file = path.join(dir, name);
    const { code } = await transform(await readFile(file, "utf8"), { loader: kind, minify: true, target: "es2020" });
    await writeFile(file, code);
    const hash = `sha384-${createHash("sha384").update(code).digest("base64")}`;
    html = html.replace(whole, whole.replace(integrity, hash));
  }
  return html;
}
