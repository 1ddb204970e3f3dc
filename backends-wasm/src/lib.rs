//! The page's optional backends: eyaml's PKCS7 encryptor ([`hiera_pkcs7`])
//! and the HOCON reader ([`hiera_core::hocon`]) behind wasm-bindgen, built
//! into a module of its own (`web/js/backends.mjs`) that the page fetches
//! only when a document uses `eyaml_lookup_key` or `hocon_data`, so that
//! every other visitor downloads none of it. Errors are OpenSSL's words, or
//! a [`HoconError`] that the page reads field by field.

use wasm_bindgen::prelude::*;

/// Why `OpenSSL::PKey::RSA.new` would refuse this key file, if it would.
#[wasm_bindgen]
pub fn private_key_error(pem: &[u8]) -> Option<String> {
    hiera_pkcs7::PrivateKey::from_pem(pem).err().map(|e| e.to_string())
}

/// The content of a block (its base64), decrypted with the key pair's files.
#[wasm_bindgen]
pub fn decrypt(cipher: &str, private_key: &[u8], public_key: &[u8]) -> Result<Vec<u8>, String> {
    let key = hiera_pkcs7::PrivateKey::from_pem(private_key).map_err(|e| e.to_string())?;
    let cert = hiera_pkcs7::PublicKey::from_pem(public_key).map_err(|e| e.to_string())?;
    hiera_pkcs7::decrypt(&hiera_pkcs7::decode64(cipher), &key, &cert).map_err(|e| e.to_string())
}

/// `plain` encrypted to the certificate's key, as an `ENC[PKCS7,...]` block.
#[wasm_bindgen]
pub fn encrypt(plain: &str, public_key: &[u8]) -> Result<String, String> {
    let cert = hiera_pkcs7::PublicKey::from_pem(public_key).map_err(|e| e.to_string())?;
    let der = hiera_pkcs7::encrypt(plain.as_bytes(), &cert, &mut rand_core::OsRng).map_err(|e| e.to_string())?;
    Ok(hiera_pkcs7::block(&der))
}

/// `eyaml createkeys`'s two files, as PEM texts.
#[wasm_bindgen(getter_with_clone)]
pub struct KeyPair {
    /// The private key's file.
    pub private_pem: String,
    /// The certificate's file.
    pub public_pem: String,
}

/// `eyaml createkeys`'s two files for a PKCS #8 private key.
#[wasm_bindgen]
pub fn key_pair(pkcs8: &[u8], now_seconds: f64) -> Result<KeyPair, String> {
    let pair = hiera_pkcs7::key_pair_from_pkcs8(pkcs8, now_seconds as u64).map_err(|e| e.to_string())?;
    Ok(KeyPair { private_pem: pair.private_pem, public_pem: pair.public_pem })
}

/// Why a HOCON text could not be read: [`hiera_core::hocon::Error`] as the
/// page's engine takes it back.
#[wasm_bindgen(getter_with_clone)]
pub struct HoconError {
    /// ruby-hocon's message.
    pub message: String,
    /// The 1-based line it points at (0: none, see [`hiera_core::hocon::Error::line`]).
    pub line: u32,
    /// Whether Ruby itself failed (see [`hiera_core::hocon::Error::ruby`]).
    pub ruby: bool,
}

/// A HOCON text read as `hocon_data` reads it, as JSON (which keeps every
/// kind of value HOCON has, and the hashes' order).
#[wasm_bindgen]
pub fn hocon_parse(text: &str) -> Result<String, HoconError> {
    let failed = |e: hiera_core::hocon::Error| HoconError { message: e.message, line: e.line as u32, ruby: e.ruby };
    let hash = hiera_core::hocon::parse(text).map_err(failed)?;
    hiera_core::Value::Hash(hash).to_json().map_err(|e| HoconError { message: e.to_string(), line: 1, ruby: false })
}
