// Trunk pre-build hook: bundles codemirror.js into one ES module in Trunk's staging
// directory, minified for release builds.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import path from "node:path";

const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) {
  console.error("build.mjs runs as a Trunk hook: TRUNK_STAGING_DIR is not set");
  process.exit(1);
}
const release = process.env.TRUNK_PROFILE === "release";

await build({
  entryPoints: [fileURLToPath(new URL("codemirror.js", import.meta.url))],
  outfile: path.join(staging, "codemirror.js"),
  bundle: true,
  format: "esm",
  target: "es2020",
  minify: release,
  // A separate map, fetched only when devtools are open.
  sourcemap: !release,
  logLevel: "warning",
});
