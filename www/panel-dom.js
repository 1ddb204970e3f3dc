// What the plain-DOM panel (fleet.js) builds with.

/** `tag` with attributes (`on*` ones are listeners) and children. */
export function h(tag, attributes = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes)) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== false && v !== null && v !== undefined) e.setAttribute(k, v === true ? "" : v);
  }
  e.append(...children);
  return e;
}

/** A key that wraps after a `::` when long, never inside a name. */
export function wrappedKey(key) {
  const code = h("code");
  key.split("::").forEach((part, i) => {
    if (i > 0) code.append("::", h("wbr"));
    code.append(part);
  });
  return code;
}

/** The panels' styles (panels.css), which come with them rather than with the page. */
export function loadStyles() {
  if (!document.querySelector("link[data-panels]")) {
    document.head.append(h("link", { rel: "stylesheet", href: "panels.css", "data-panels": "" }));
  }
}
