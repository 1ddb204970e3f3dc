// The All keys panel: every key the document's node resolves, its value and
// the levels it came from. Plain DOM, fetched with the extras module (crate
// extras-wasm, given as `m`, which answers from the document's YAML) when the
// tab is first opened: the page must stay within its size budget.
//
// app = {
//   document(): string   the document, case-format YAML
//   openFile(path)       opens a file of the document in the editor
// }

import { h, loadStyles, wrappedKey } from "./panel-dom.js";

/** Draws (or draws again, after the document changed) the table into `host`. */
export function render(host, app, m) {
  loadStyles();
  let keys;
  try {
    keys = JSON.parse(m.keys(app.document()));
  } catch (e) {
    host.replaceChildren(h("p", { class: "problem", role: "alert" }, String(e)));
    return;
  }
  if (keys.length === 0) {
    host.replaceChildren(h("p", { class: "muted" }, "This node resolves no keys yet."));
    return;
  }
  const rows = keys.map(({ key, value, error, sources }) => h("tr", { "data-testid": "resolved-key", "data-key": key },
    h("td", { class: "key" }, wrappedKey(key)),
    h("td", {}, error === null ? h("code", {}, value) : h("span", { class: "lookup-error" }, error)),
    h("td", {}, ...sources.map(({ level, file }) =>
      h("button", { type: "button", class: "link", title: file, onclick: () => app.openFile(file) }, `${level} (${file})`)))));
  host.replaceChildren(h("table", { class: "key-browser", "data-testid": "key-browser" },
    h("thead", {}, h("tr", {}, h("th", {}, "Key"), h("th", {}, "Value"), h("th", {}, "From"))),
    h("tbody", {}, ...rows)));
}
