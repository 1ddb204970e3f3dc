//! The backends the page's engine is built without: eyaml's PKCS7 encryptor
//! and the HOCON reader live in a WebAssembly module of their own (crate
//! `backends-wasm`), fetched the first time a document uses
//! `eyaml_lookup_key` or `hocon_data` (`web/js/backends.js`), so that they
//! cost other documents nothing. The eyaml tools
//! ([`crate::components::eyaml`]) use the same module to make keys and
//! encrypt. What comes back is typed: strings and bytes, or the module's own
//! classes, read through the getters declared here.

use std::rc::Rc;

use hiera_core::case::Document;
use hiera_core::value::Hash;
use hiera_core::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen(module = "/js/backends.js")]
extern "C" {
    #[wasm_bindgen(js_name = backendsReady)]
    fn ready() -> bool;

    #[wasm_bindgen(js_name = backendsLoad)]
    fn load_js() -> js_sys::Promise;

    #[wasm_bindgen(js_name = pkcs7PrivateKeyError)]
    fn private_key_error(pem: &[u8]) -> Option<String>;

    #[wasm_bindgen(js_name = pkcs7Decrypt, catch)]
    fn decrypt_js(cipher: &str, private_key: &[u8], public_key: &[u8]) -> Result<Vec<u8>, JsValue>;

    #[wasm_bindgen(js_name = pkcs7Encrypt, catch)]
    fn encrypt_js(plain: &str, public_key: &[u8]) -> Result<String, JsValue>;

    #[wasm_bindgen(js_name = eyamlKeyPair)]
    fn key_pair_js() -> js_sys::Promise;

    /// backends-wasm's `KeyPair`.
    type KeyPair;
    #[wasm_bindgen(method, getter)]
    fn private_pem(this: &KeyPair) -> String;
    #[wasm_bindgen(method, getter)]
    fn public_pem(this: &KeyPair) -> String;

    #[wasm_bindgen(js_name = hoconParse, catch)]
    fn hocon_parse_js(text: &str) -> Result<String, HoconError>;

    /// backends-wasm's `HoconError`.
    type HoconError;
    #[wasm_bindgen(method, getter)]
    fn message(this: &HoconError) -> String;
    #[wasm_bindgen(method, getter)]
    fn line(this: &HoconError) -> u32;
    #[wasm_bindgen(method, getter)]
    fn ruby(this: &HoconError) -> bool;

    #[wasm_bindgen(js_name = extrasExportZip)]
    fn extras_export_zip(document: &str) -> js_sys::Promise;

    #[wasm_bindgen(js_name = extrasImportZip)]
    fn extras_import_zip(bytes: &[u8]) -> js_sys::Promise;

    #[wasm_bindgen(js_name = extrasImportFolder)]
    fn extras_import_folder(names: Vec<String>, lengths: Vec<u32>, bytes: &[u8]) -> js_sys::Promise;
}

/// The zip of a document (see `hiera_core::archive::export`), made by the
/// extras module.
pub async fn export_zip(document: &Document) -> Result<Vec<u8>, String> {
    let zip = JsFuture::from(extras_export_zip(&document.to_yaml())).await.map_err(message)?;
    Ok(js_sys::Uint8Array::new(&zip).to_vec())
}

/// The document a zip holds, read by the extras module.
pub async fn import_zip(bytes: &[u8]) -> Result<Document, String> {
    read(JsFuture::from(extras_import_zip(bytes)).await)
}

/// The document the files of a dropped folder (path, bytes) make, read by
/// the extras module.
pub async fn import_folder(files: Vec<(String, Vec<u8>)>) -> Result<Document, String> {
    let lengths = files.iter().map(|(_, b)| b.len() as u32).collect();
    let (names, bytes): (Vec<String>, Vec<Vec<u8>>) = files.into_iter().unzip();
    read(JsFuture::from(extras_import_folder(names, lengths, &bytes.concat())).await)
}

/// A document the extras module answered with.
fn read(answer: Result<JsValue, JsValue>) -> Result<Document, String> {
    let text = answer.map_err(message)?.as_string().unwrap_or_default();
    Document::from_yaml(&text).map_err(|e| e.to_string())
}

fn message(e: JsValue) -> String {
    e.as_string().unwrap_or_else(|| "the backends module failed".into())
}

/// The engine's [`hiera_core::eyaml::Pkcs7`] and [`hiera_core::hocon::Reader`],
/// once [`load`] has finished.
struct Loaded;

impl hiera_core::eyaml::Pkcs7 for Loaded {
    fn decrypt(
        &self,
        cipher: &str,
        private_key: Result<&[u8], String>,
        public_key: Result<&[u8], String>,
    ) -> Result<Vec<u8>, String> {
        // In Ruby's order: the private key is read and parsed first.
        let private_key = private_key?;
        if let Some(e) = private_key_error(private_key) {
            return Err(e);
        }
        decrypt_js(cipher, private_key, public_key?).map_err(message)
    }
}

impl hiera_core::hocon::Reader for Loaded {
    fn parse(&self, text: &str) -> Result<Hash, hiera_core::hocon::Error> {
        let json = hocon_parse_js(text).map_err(|e| hiera_core::hocon::Error {
            message: e.message(),
            line: e.line() as usize,
            ruby: e.ruby(),
        })?;
        match hiera_core::json::parse(&json) {
            Ok(Value::Hash(hash)) => Ok(hash),
            _ => Err(hiera_core::hocon::Error {
                message: "the HOCON reader returned no hash".into(),
                line: 1,
                ruby: false,
            }),
        }
    }
}

/// What [`load`] gives the engine.
pub struct Backends {
    /// eyaml's PKCS7 encryptor.
    pub pkcs7: Rc<dyn hiera_core::eyaml::Pkcs7>,
    /// The HOCON reader.
    pub hocon: Rc<dyn hiera_core::hocon::Reader>,
}

/// `plain` as an `ENC[PKCS7,...]` block for the certificate `public_pem`
/// (fetching the backends first, once).
pub async fn encrypt(plain: &str, public_pem: &str) -> Result<String, String> {
    load().await?;
    encrypt_js(plain, public_pem.as_bytes()).map_err(message)
}

/// A new key pair as `eyaml createkeys` makes it, made by the browser's
/// WebCrypto: the private key's PEM and the certificate's.
pub async fn make_key_pair() -> Result<(String, String), String> {
    let pair: KeyPair = JsFuture::from(key_pair_js())
        .await
        .map_err(|e| e.as_string().unwrap_or_else(|| js_sys::Error::from(e).message().into()))?
        .unchecked_into();
    Ok((pair.private_pem(), pair.public_pem()))
}

/// Fetches the backends (once).
pub async fn load() -> Result<Backends, String> {
    if !ready() {
        JsFuture::from(load_js()).await.map_err(|e| {
            format!("The eyaml and HOCON module could not be loaded: {}", js_sys::Error::from(e).message())
        })?;
    }
    Ok(Backends { pkcs7: Rc::new(Loaded), hocon: Rc::new(Loaded) })
}
