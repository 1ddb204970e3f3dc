// @ts-check
// Imported by the wasm glue (wasm-bindgen snippet). It only knows where the CodeMirror
// bundle is, so the page renders before that bundle has been fetched.
let pending;

/** Resolves to the CodeMirror bundle's module (see codemirror.js), fetched once. */
export function loadCodeMirror() {
  pending ??= import(new URL("codemirror.js", document.baseURI).href);
  return pending;
}
