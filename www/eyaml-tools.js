// @ts-check
// The eyaml tools panel: what `eyaml createkeys` and `eyaml encrypt` do, for
// the document on show, and the loader of the backends module (eyaml's
// encryptor and the HOCON reader, built from backends-wasm). Plain DOM in a
// module of its own, fetched only when needed, because the page must stay
// within its size budget before the editor arrives. The app
// (web/src/hooks/use_eyaml_tools.rs) hands it what it acts through on the
// document, which stays in the app's reducer:
//
// app: {
//   files(): [[path, text], ...]           the document's files
//   addFiles([[path, text], ...])          adds files (a new key pair)
//   selection(): string | undefined        the editor's selected text
//   replaceSelection(text): boolean        types text over the selection
//   notify(text, isError)
//   close()
// }
//
// Keys are made by the browser's WebCrypto and go nowhere.

/** The panel's styles (panels.css), which come with it rather than with the page. */
function loadStyles() {
  if (!document.querySelector("link[data-panels]")) {
    const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href: "panels.css" });
    link.dataset.panels = "";
    document.head.append(link);
  }
}

let loading = null;

/** The backends module, instantiated once. */
export function backends() {
  loading ??= (async () => {
    const m = await import(new URL("backends/hiera_backends_wasm.js", document.baseURI).href);
    await m.default({ module_or_path: new URL("backends/hiera_backends_wasm_bg.wasm", document.baseURI) });
    return m;
  })();
  return loading;
}

/** A new 2048-bit key pair as `eyaml createkeys` writes it: [private PEM, certificate PEM]. */
async function createKeys() {
  const m = await backends();
  const keys = await crypto.subtle.generateKey(
    { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
    true,
    ["sign", "verify"],
  );
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey("pkcs8", keys.privateKey));
  return m.key_pair(pkcs8, Date.now() / 1000);
}

export const PRIVATE_KEY = "/etc/puppetlabs/puppet/eyaml/private_key.pkcs7.pem";
export const PUBLIC_KEY = "/etc/puppetlabs/puppet/eyaml/public_key.pkcs7.pem";

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "testid") e.dataset.testid = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
}

const code = (text) => el("code", {}, text);

/** The certificate to encrypt with: the documented path's, else the first one. */
function certificate(files) {
  const certs = files.filter(([, text]) => text.includes("-----BEGIN CERTIFICATE-----"));
  return certs.find(([path]) => path === PUBLIC_KEY) ?? certs[0];
}

/** Draws the panel into `host` (emptied first); call again when the document changes. */
export function render(host, app) {
  loadStyles();
  const files = app.files();
  const cert = certificate(files);
  const hasKeys = files.some(([path]) => path === PRIVATE_KEY || path === PUBLIC_KEY);
  const fail = (text) => app.notify(text, true);
  host.replaceChildren();

  // A few lines at most: the panel sits above the files being edited.
  host.append(
    el("div", { class: "eyaml-head" },
      el("h2", {}, "eyaml"),
      el("span", { class: "muted" }, "keys and encryption in this browser, as ", code("eyaml createkeys"), " and ",
        code("eyaml encrypt"), " do"),
      el("button", { type: "button", class: "icon", "aria-label": "Close eyaml", onclick: () => app.close() }, "×")),
  );
  if (hasKeys) {
    const to = cert ? [", encrypting to ", code(cert[0])] : [];
    host.append(el("p", { testid: "eyaml-keys" }, "Key pair: ", code(PRIVATE_KEY), ", ", code(PUBLIC_KEY), ...to));
  } else {
    const make = el("button", { type: "button", testid: "eyaml-create-keys" }, "Make a key pair");
    make.addEventListener("click", async () => {
      make.disabled = true;
      make.textContent = "Making keys…";
      try {
        const [privatePem, publicPem] = await createKeys();
        // The panel names the new files and the private-key bar says where the key
        // goes; the file being edited stays open.
        app.addFiles([[PUBLIC_KEY, publicPem], [PRIVATE_KEY, privatePem]]);
      } catch (e) {
        fail(`Could not make a key pair: ${e?.message ?? e}`);
        make.disabled = false;
        make.textContent = "Make a key pair";
      }
    });
    host.append(
      el("p", {}, make, el("span", { class: "muted" }, " at ", code("/etc/puppetlabs/puppet/eyaml/"), ", where a level's options name them:")),
      el("pre", { class: "snippet" }, `options:\n  pkcs7_private_key: ${PRIVATE_KEY}\n  pkcs7_public_key: ${PUBLIC_KEY}`),
    );
  }

  const encrypt = async (plain) => {
    if (!cert) throw new Error("There is no certificate (public key) in this document: make a key pair first.");
    const m = await backends();
    return m.encrypt(plain, new TextEncoder().encode(cert[1]));
  };
  const input = el("input", { id: "eyaml-plaintext", type: "text", testid: "eyaml-plaintext", placeholder: "a secret value", autocomplete: "off" });
  const result = el("div", { class: "eyaml-block" });
  const form = el("form", { class: "eyaml-encrypt" },
    el("label", { for: "eyaml-plaintext" }, "Encrypt"), input,
    el("button", { type: "submit", testid: "eyaml-encrypt" }, "Encrypt"),
    el("button", {
      type: "button", testid: "eyaml-encrypt-selection", title: "Replace the value selected in the editor with its encrypted block",
      onclick: async () => {
        const selected = app.selection();
        if (!selected) return fail("Select a value in the editor first: the selection is replaced by its ENC[PKCS7,...] block.");
        try {
          app.replaceSelection(await encrypt(selected));
        } catch (e) {
          fail(`Could not encrypt: ${e?.message ?? e}`);
        }
      },
    }, "Encrypt the selection"),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const block = await encrypt(input.value);
      const text = el("textarea", { readonly: "", testid: "eyaml-block", "aria-label": "Encrypted block" });
      text.value = block;
      const insert = el("button", { type: "button", testid: "eyaml-insert", onclick: () => {
        if (!app.replaceSelection(block)) fail("Open a file in the editor first.");
      } }, "Insert at the cursor");
      result.replaceChildren(text, insert);
    } catch (e) {
      fail(`Could not encrypt: ${e?.message ?? e}`);
    }
  });
  if (!cert) for (const b of form.querySelectorAll("button")) b.disabled = true;
  host.append(form);
  if (cert && !hasKeys) host.append(el("p", { class: "muted" }, "Encrypts to ", code(cert[0])));
  host.append(result);
}
