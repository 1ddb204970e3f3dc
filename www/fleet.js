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
//   addNode(name, facts)   a node beside the document's own (facts: text)
//   removeNode(i)          the i-th of the other nodes
//   openWhy(column, row)   why that node gets that lookup's answer
//   notify(text)
// }

/** `tag` with attributes (`on*` ones are listeners) and children. */
function h(tag, attributes = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes)) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== false && v !== null && v !== undefined) e.setAttribute(k, v === true ? "" : v);
  }
  e.append(...children);
  return e;
}

// The document's YAML when the answers were pinned, and the load it was in.
let pinned = "";
let pinnedIn = null;

/** Draws (or draws again, after the document changed) the panel into `host`. */
export function render(host, app, m) {
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
  const source = h("select", { "data-testid": "add-node-facts", "aria-label": "New node's facts" },
    h("option", { value: "" }, "this node's facts"),
    ...app().presets().map(([label], i) => h("option", { value: String(i) }, label)));
  const form = h("form", {
    class: "add-node", "data-testid": "add-node-form",
    onsubmit: async (e) => {
      e.preventDefault();
      const preset = source.value === "" ? null : app().presets()[Number(source.value)];
      const base = name.value.trim() || (preset ? preset[1] : "") || "node";
      // Columns are told apart by name: a name the document has gets a number.
      let node = base;
      for (let i = 2; form.nodes.includes(node); i++) node = `${base}-${i}`;
      name.value = "";
      try {
        let facts = app().facts();
        if (preset) {
          const response = await fetch(new URL(`facts/${preset[2]}`, document.baseURI));
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
          facts = await response.text();
        }
        app().addNode(node, facts);
      } catch (error) {
        app().notify(`Could not add ${node}: ${error.message ?? error}`);
      }
    },
  }, name, source, h("button", { type: "submit", "data-testid": "add-node" }, "+ Add node"));
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

/** A key that wraps after a `::` when long, never inside a name. */
function wrappedKey(key) {
  const code = h("code");
  key.split("::").forEach((part, i) => {
    if (i > 0) code.append("::", h("wbr"));
    code.append(part);
  });
  return code;
}

function table(app, view) {
  const head = h("tr", {}, h("th", { scope: "col" }, "Lookup"), ...view.nodes.map((node, column) =>
    h("th", { scope: "col", "data-testid": "fleet-node", "data-node": node, class: column === 0 ? "shown" : false },
      h("span", { title: column === 0 ? "The node shown in Why, Explain and the facts" : node }, node),
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
    h("table", { class: "fleet-table", "data-testid": "fleet-table" }, h("thead", {}, head), h("tbody", {}, ...rows)));
}

function changes(view) {
  if (view.changes.length === 0) return [];
  return [h("ul", { class: "fleet-changes", "data-testid": "fleet-changes" },
    ...view.changes.map((line) => h("li", { "data-testid": "fleet-change" }, h("code", {}, line))))];
}
