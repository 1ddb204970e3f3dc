// Imported by the wasm glue (wasm-bindgen snippet): loads the optional
// backends (the backends-wasm crate, built by backends.mjs: eyaml's PKCS7
// encryptor and the HOCON reader) when a document first needs them, and the
// eyaml tools panel when it is first opened. Nothing here sends a key
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
