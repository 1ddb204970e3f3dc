// @ts-check
// Imported by the wasm glue (wasm-bindgen snippet): loads the optional
// backends (the backends-wasm crate, built by backends.mjs: eyaml's PKCS7
// encryptor and the HOCON reader) when a document first needs them, the
// eyaml tools panel when it is first opened, and the extras module (the
// extras-wasm crate: zips and dropped folders) when one of those is first used. Nothing here sends a key
// anywhere: every function works on what it is given, in this page.
let module = null;
let pending = null;

/** Whether the backends are loaded. */
export function backendsReady() {
  return module !== null;
}

/** Loads the backends once; resolves when they are ready. */
export function backendsLoad() {
  pending ??= (async () => {
    const tools = await import(new URL("eyaml-tools.js", document.baseURI).href);
    module = await tools.backends();
  })();
  return pending;
}

/** Why the private key file would not read, or undefined. */
export function pkcs7PrivateKeyError(pem) {
  return module.private_key_error(pem);
}

/** Decrypts a block's base64; throws OpenSSL's message as a string. */
export function pkcs7Decrypt(cipher, privateKey, publicKey) {
  return module.decrypt(cipher, privateKey, publicKey);
}

/** A HOCON text as JSON; throws "line<TAB>message" as a string. */
export function hoconParse(text) {
  return module.hocon_parse(text);
}

/** Draws the eyaml tools panel (www/eyaml-tools.js, fetched once) into `host`. */
export async function eyamlToolsRender(host, app) {
  const tools = await import(new URL("eyaml-tools.js", document.baseURI).href);
  tools.render(host, app);
}

let extras = null;

/** The extras module, instantiated once. */
function extrasModule() {
  extras ??= (async () => {
    const m = await import(new URL("extras/hiera_extras_wasm.js", document.baseURI).href);
    await m.default({ module_or_path: new URL("extras/hiera_extras_wasm_bg.wasm", document.baseURI) });
    return m;
  })();
  return extras;
}

/** The zip of a document (YAML); throws a message. */
export async function extrasExportZip(text) {
  return (await extrasModule()).export_zip(text);
}

/** The document (YAML) a zip's bytes hold; throws a message. */
export async function extrasImportZip(bytes) {
  return (await extrasModule()).import_zip(bytes);
}

/** The document (YAML) a folder's files make; throws a message. */
export async function extrasImportFolder(names, lengths, bytes) {
  return (await extrasModule()).import_folder(names, lengths, bytes);
}
