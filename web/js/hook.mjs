// What the Trunk hooks (app.mjs, backends.mjs, csp.mjs) share: where Trunk
// stages the page, whether it builds for release, and a way to run a tool
// from the repository's root with its output shown.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/** Trunk's staging directory, which becomes dist/. */
export const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) {
  console.error("this script runs as a Trunk hook: TRUNK_STAGING_DIR is not set");
  process.exit(1);
}
/** Whether this is `trunk build --release` (optimised for size) or a debug build. */
export const release = process.env.TRUNK_PROFILE === "release";
/** The repository's root. */
export const root = fileURLToPath(new URL("../..", import.meta.url));
/** Runs `command` with `args` from the root; throws if it fails. */
export const run = (command, args) => execFileSync(command, args, { cwd: root, stdio: "inherit" });
