// The Nodes panel: every lookup's answer for every node of the document, the
// cells that differ from the shown node's marked; nodes added from presets or
// as copies of the shown one; and, once the answers are pinned, every (node,
// key) whose answer an edit changed, said as `hiera-lookup diff` says it.
//
// Plain DOM, fetched when the panel is first opened, like the eyaml tools:
// the page must stay within its size budget. The answers come from the
// extras module (crate extras-wasm, given as `m`), which reads the document
// with an engine of its own; what the panel does to the document goes
// through `app`:
//
// app = {
//   document(): string     the document, case-format YAML
//   loaded(): number       which document load this is (a pin is per load)
//   facts(): string        the shown node's facts, as typed
//   presets(): [label, node name, file under facts/][]
//   addNode([name, environment], facts)
//                          a node beside the document's own (facts: text;
//                          environment "": the document's)
//   removeNode(i)          the i-th of the other nodes
//   openWhy(column, row)   why that node gets that lookup's answer
//   notify(text)
// }

import { h, loadStyles, wrappedKey } from "./panel-dom.js";

// The document's YAML when the answers were pinned, and the load it was in.
let pinned = "";
let pinnedIn = null;

/** Draws (or draws again, after the document changed) the panel into `host`. */
export function render(host, app, m) {
  loadStyles();
  if (pinnedIn !== app.loaded()) {
    pinned = "";
    pinnedIn = app.loaded();
  }
  let view;
  try {
    view = JSON.parse(m.fleet(app.document(), pinned));
  } catch (e) {
    host.replaceChildren(h("p", { class: "problem", role: "alert" }, String(e)));
    return;
  }
  // The form is kept across redraws, so that what is typed in it stays; it
  // acts through the newest app (an older one's functions are gone).
  host.app = app;
  host.form ??= addNodeForm(host);
  host.form.nodes = view.nodes;
  const body = view.rows.length === 0
    ? [h("p", { class: "muted" }, "Add a lookup to compare its answer across nodes.")]
    : [pinBar(host, app, m, view), table(app, view), ...changes(view)];
  host.replaceChildren(host.form, ...body);
}

function addNodeForm(host) {
  const app = () => host.app;
  const name = h("input", {
    type: "text", "data-testid": "add-node-name", "aria-label": "New node's name", placeholder: "node name",
    spellcheck: "false", autocomplete: "off",
  });
  const environment = h("input", {
    type: "text", "data-testid": "add-node-environment", "aria-label": "New node's environment", placeholder: "environment",
    title: "Empty: the document's. Another environment's files are given by their full path, /etc/puppetlabs/code/environments/NAME/…",
    spellcheck: "false", autocomplete: "off", size: "11",
  });
  const source = h("select", { "data-testid": "add-node-facts", "aria-label": "New node's facts" },
    h("option", { value: "" }, "this node's facts"),
    ...app().presets().map(([label], i) => h("option", { value: String(i) }, label)));
  const form = h("form", {
    class: "add-node", "data-testid": "add-node-form",
    onsubmit: async (e) => {
      e.preventDefault();
      const preset = source.value === "" ? null : app().presets()[Number(source.value)];
      const base = name.value.trim() || (preset ? preset[1] : "") || "node";
      // Columns are told apart by name: a name the document has gets a number,
      // on its host part (web01-2.example.com keeps its domain).
      const dot = base.indexOf(".");
      const [host, domain] = dot > 0 ? [base.slice(0, dot), base.slice(dot)] : [base, ""];
      let node = base;
      for (let i = 2; form.nodes.includes(node); i++) node = `${host}-${i}${domain}`;
      name.value = "";
      const env = environment.value.trim();
      try {
        let facts = app().facts();
        if (preset) {
          const response = await fetch(new URL(`facts/${preset[2]}`, document.baseURI));
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
          facts = await response.text();
        }
        app().addNode([node, env], facts);
      } catch (error) {
        app().notify(`Could not add ${node}: ${error.message ?? error}`);
      }
    },
  }, name, environment, source, h("button", { type: "submit", "data-testid": "add-node" }, "+ Add node"));
  return form;
}

function pinBar(host, app, m, view) {
  const toggle = () => {
    pinned = pinned ? "" : app.document();
    render(host, app, m);
  };
  const summary = pinned
    ? `${view.changes.length} answer${view.changes.length === 1 ? "" : "s"} changed since the pin`
    : view.nodes.length === 1
      ? "Add nodes to compare their answers; pin the answers, then edit, to see what changes."
      : "Pin the answers, then edit, to see every node's answer that changes.";
  return h("div", { class: "fleet-bar" },
    h("button", { type: "button", "data-testid": "pin-fleet", "aria-pressed": String(Boolean(pinned)), onclick: toggle },
      pinned ? "Unpin" : "Pin these answers"),
    h("span", { class: "muted", "data-testid": "fleet-summary" }, summary));
}

function table(app, view) {
  const head = h("tr", {}, h("th", { scope: "col" }, "Lookup"), ...view.nodes.map((node, column) =>
    h("th", { scope: "col", "data-testid": "fleet-node", "data-node": node, class: column === 0 ? "shown" : false },
      h("span", { title: column === 0 ? "The node shown in Why, Explain and the facts" : node }, node),
      ...(view.environments[column] === view.environments[0] ? [] : [h("span", {
        class: "muted", "data-testid": "fleet-node-environment", title: "This node's environment",
      }, ` (${view.environments[column]})`)]),
      ...(column === 0 ? [] : [h("button", {
        type: "button", class: "icon", "aria-label": `Remove ${node}`, "data-testid": "remove-node",
        onclick: () => app.removeNode(column - 1),
      }, "×")]))));
  const rows = view.rows.map((row, r) => h("tr", { "data-testid": "fleet-row", "data-key": row.key, "data-varies": String(row.varies) },
    h("th", { scope: "row" }, wrappedKey(row.key)),
    ...row.cells.map((cell, column) => h("td", {}, h("button", {
      type: "button", class: cell.failed ? "cell failed" : "cell", "data-testid": "fleet-cell",
      "data-node": view.nodes[column], "data-state": cell.state, title: cell.title,
      onclick: () => app.openWhy(column, r),
    }, cell.text)))));
  return h("div", { class: "fleet-scroll" },
    h("table", { class: "fleet-table", "data-testid": "fleet-table" }, h("thead", {}, head), h("tbody", {}, ...rows),
      variables(view, view.used, "fleet-variable", "What the hierarchy's paths read",
        "The variables the hierarchy's paths interpolated for these lookups: where they differ, the nodes read different files"),
      variables(view, view.added, "fleet-added", "What puppet lookup adds to the facts",
        "puppet lookup fills in clientcert, fqdn, hostname and domain where the facts do not give them, and sets trusted (and, on Puppet 8, server_facts)")));
}

/** A group of variable rows (`testid` each), a value per node; those that differ from the shown node's marked. */
function variables(view, rows, testid, title, help) {
  if (rows.length === 0) return "";
  const span = view.nodes.length + 1;
  return h("tbody", { "data-testid": `${testid}s` },
    h("tr", {}, h("th", { colspan: String(span), class: "fleet-group", title: help }, title)),
    ...rows.map((row) => h("tr", { "data-testid": testid, "data-name": row.name },
      h("th", { scope: "row" }, h("code", {}, row.name)),
      ...row.values.map((value, column) => h("td", {
        class: value === row.values[0] ? "variable" : "variable differs", "data-node": view.nodes[column],
      }, value ?? "—")))));
}

function changes(view) {
  if (view.changes.length === 0) return [];
  return [h("ul", { class: "fleet-changes", "data-testid": "fleet-changes" },
    ...view.changes.map((line) => h("li", { "data-testid": "fleet-change" }, h("code", {}, line))))];
}
