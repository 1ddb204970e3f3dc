// @ts-check
// Imported by the wasm glue (wasm-bindgen snippet): loads the optional
// backends (the backends-wasm crate, built by backends.mjs: eyaml's PKCS7
// encryptor and the HOCON reader) when a document first needs them or the
// eyaml tools first make keys or encrypt, and the extras module (the
// extras-wasm crate: zips and dropped folders) when one of those is first
// used. Nothing here sends a key anywhere: every function works on what it
// is given, in this page, and keys are made by the browser's WebCrypto.
// What crosses to the page's wasm is typed on both sides: strings and bytes,
// or backends-wasm's own classes (`KeyPair`, `HoconError`), whose fields
// web/src/backends.rs reads through getters it declares.

/**
 * @typedef {{ private_pem: string, public_pem: string }} KeyPair
 * @typedef {{ message: string, line: number, ruby: boolean }} HoconError
 * @typedef {{
 *   private_key_error(pem: Uint8Array): string | undefined,
 *   decrypt(cipher: string, privateKey: Uint8Array, publicKey: Uint8Array): Uint8Array,
 *   encrypt(plain: string, publicKey: Uint8Array): string,
 *   key_pair(pkcs8: Uint8Array, nowSeconds: number): KeyPair,
 *   hocon_parse(text: string): string,
 * }} Backends
 */

/** @type {Backends | null} */
let module = null;
/** @type {Promise<void> | null} */
let pending = null;

/** Whether the backends are loaded. */
export function backendsReady() {
  return module !== null;
}

/** Loads the backends once; resolves when they are ready. */
export function backendsLoad() {
  pending ??= (async () => {
    const m = await import(new URL("backends/hiera_backends_wasm.js", document.baseURI).href);
    await m.default({ module_or_path: new URL("backends/hiera_backends_wasm_bg.wasm", document.baseURI) });
    module = m;
  })();
  return pending;
}

/** The loaded backends (backendsLoad has resolved). */
function loaded() {
  if (!module) throw "the eyaml and HOCON module is not loaded";
  return module;
}

/**
 * Why the private key file would not read, or undefined.
 * @param {Uint8Array} pem
 */
export function pkcs7PrivateKeyError(pem) {
  return loaded().private_key_error(pem);
}

/**
 * Decrypts a block's base64; throws OpenSSL's message as a string.
 * @param {string} cipher @param {Uint8Array} privateKey @param {Uint8Array} publicKey
 */
export function pkcs7Decrypt(cipher, privateKey, publicKey) {
  return loaded().decrypt(cipher, privateKey, publicKey);
}

/**
 * `plain` as an ENC[PKCS7,...] block for the certificate; throws a message.
 * @param {string} plain @param {Uint8Array} certificate
 */
export function pkcs7Encrypt(plain, certificate) {
  return loaded().encrypt(plain, certificate);
}

/**
 * A new 2048-bit key pair as `eyaml createkeys` writes it; rejects with a message.
 * @returns {Promise<KeyPair>}
 */
export async function eyamlKeyPair() {
  await backendsLoad();
  const keys = await crypto.subtle.generateKey(
    { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
    true,
    ["sign", "verify"],
  );
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey("pkcs8", keys.privateKey));
  return loaded().key_pair(pkcs8, Date.now() / 1000);
}

/**
 * A HOCON text as JSON; throws a HoconError.
 * @param {string} text
 */
export function hoconParse(text) {
  return loaded().hocon_parse(text);
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
