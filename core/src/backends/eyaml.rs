//! The `eyaml_lookup_key` backend's own part: finding `ENC[...]` blocks in a
//! string and decrypting them as hiera-eyaml 3.3.0 does. The file is read as
//! `yaml_data` reads it; the lookup decrypts each string of a value found in
//! it, then interpolates it (`lookup::Run::eyaml_value`).
//!
//! The scanning is written out rather than left to a regex crate because
//! hiera-eyaml's regexps decide what counts as a block (a lazy match, a
//! whitespace-stripped reparse, `.` not crossing lines), and Puppet prints
//! the block and every error as they are.
//!
//! The cryptography is behind [`Pkcs7`]: the engine reads the key files
//! through its filesystem and hands their bytes over, so the page can load
//! the crypto only for documents that use eyaml.

use crate::load::fs::Files;
use crate::value::{Hash, Value};

/// hiera-eyaml's PKCS7 encryptor: decrypts a block's base64 with the key
/// files' contents, or says why not in OpenSSL's words.
pub trait Pkcs7 {
    /// `decrypt(decode(cipher))`: `OpenSSL::PKCS7.new(Base64.decode64(cipher))
    /// .decrypt(RSA.new(private_key), Certificate.new(public_key))`; a key
    /// file that could not be read comes as its error, which this reports
    /// where Ruby would meet it (the private key is read and parsed before
    /// the public one).
    fn decrypt(
        &self,
        cipher: &str,
        private_key: Result<&[u8], String>,
        public_key: Result<&[u8], String>,
    ) -> Result<Vec<u8>, String>;
}

/// How decrypting a string failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// A `StandardError`: Puppet wraps it as "hiera-eyaml backend error
    /// decrypting ...".
    Standard(String),
    /// A `LoadError` (an encryption scheme without its plugin), which
    /// hiera-eyaml does not catch: `puppet lookup` fails hard with it.
    Load(String),
}

/// What decrypting needs: the level's options (with `path`), where to read
/// key files, and the encryptor.
pub struct Keys<'a> {
    /// The hierarchy level's `options`.
    pub options: Option<&'a Hash>,
    /// The files key paths are read from.
    pub files: &'a Files,
    /// The PKCS7 encryptor, if one is loaded.
    pub pkcs7: Option<&'a dyn Pkcs7>,
    /// What was decrypted before, if it is remembered.
    pub decrypted: Option<&'a Decrypted>,
}

/// Blocks decrypted before, by their base64 and digests of the key files
/// read for them (or of why they could not be read): a value's blocks are
/// decrypted at every lookup that finds it, and one RSA decryption costs
/// milliseconds natively and tens of them in WebAssembly.
pub type Decrypted = std::cell::RefCell<rustc_hash::FxHashMap<(String, u64, u64), Result<Vec<u8>, String>>>;

/// The encryptor built in with the `pkcs7` feature (RustCrypto's, through
/// `hiera-pkcs7`); `None` without it.
pub fn builtin() -> Option<std::rc::Rc<dyn Pkcs7>> {
    #[cfg(feature = "pkcs7")]
    return Some(std::rc::Rc::new(RustCrypto));
    #[cfg(not(feature = "pkcs7"))]
    None
}

/// [`Pkcs7`] by RustCrypto's crates.
#[cfg(feature = "pkcs7")]
pub struct RustCrypto;

#[cfg(feature = "pkcs7")]
impl Pkcs7 for RustCrypto {
    fn decrypt(
        &self,
        cipher: &str,
        private_key: Result<&[u8], String>,
        public_key: Result<&[u8], String>,
    ) -> Result<Vec<u8>, String> {
        let key = hiera_pkcs7::PrivateKey::from_pem(private_key?).map_err(|e| e.to_string())?;
        let cert = hiera_pkcs7::PublicKey::from_pem(public_key?).map_err(|e| e.to_string())?;
        hiera_pkcs7::decrypt(&hiera_pkcs7::decode64(cipher), &key, &cert).map_err(|e| e.to_string())
    }
}

/// The message when no [`Pkcs7`] is there to decrypt with.
pub const NO_PKCS7: &str = "the PKCS7 encryptor is not loaded (yet)";

/// Whether hiera-eyaml sees an encrypted value: `/.*ENC\[.*?\]/`, where `.`
/// does not cross a line break.
pub fn is_encrypted(text: &str) -> bool {
    text.split('\n').any(|line| line.find("ENC[").is_some_and(|at| line[at + 4..].contains(']')))
}

/// Whether a value found in an eyaml file holds a string that is decrypted.
pub fn holds_block(value: &Value) -> bool {
    match value {
        Value::String(s) => is_encrypted(s),
        Value::Array(a) => a.iter().any(holds_block),
        Value::Hash(h) => h.values().any(holds_block),
        _ => false,
    }
}

/// A block found in a string: where it is, its scheme (`PKCS7` when it names
/// none) and its base64 text without whitespace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// Byte range of `ENC[...]` in the string.
    pub range: std::ops::Range<usize>,
    /// The encryption scheme, as written (`PKCS7`, `GPG`...); `None` for the default.
    pub scheme: Option<String>,
    /// The base64 text, whitespace removed; `None` when nothing is left of
    /// it (hiera-eyaml then fails on a `nil` match).
    pub cipher: Option<String>,
}

/// The blocks of a string, left to right, as hiera-eyaml's backend parser
/// (`ENC\[(\w+,)?([a-zA-Z0-9+/ =\n]+?)\]`) finds them.
pub fn blocks(text: &str) -> Vec<Block> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(found) = text[at..].find("ENC[") {
        let start = at + found;
        match block_at(bytes, start) {
            Some(block) => {
                at = block.range.end;
                out.push(block);
            }
            None => at = start + 1,
        }
    }
    out
}

fn block_at(bytes: &[u8], start: usize) -> Option<Block> {
    let body = start + 4;
    let word = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
    let cipher_char = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b' ' | b'=' | b'\n');
    let run = |from: usize, f: &dyn Fn(&u8) -> bool| bytes[from..].iter().take_while(|b| f(b)).count();
    let cipher_from = |from: usize| {
        let n = run(from, &cipher_char);
        (n > 0 && bytes.get(from + n) == Some(&b']')).then_some(from + n)
    };
    let scheme_len = run(body, &word);
    let (scheme, from, end) = match (scheme_len > 0 && bytes.get(body + scheme_len) == Some(&b','))
        .then(|| cipher_from(body + scheme_len + 1))
        .flatten()
    {
        Some(end) => (Some(&bytes[body..body + scheme_len]), body + scheme_len + 1, end),
        None => (None, body, cipher_from(body)?),
    };
    let cipher: String = bytes[from..end].iter().filter(|b| !b.is_ascii_whitespace()).map(|&b| b as char).collect();
    Some(Block {
        range: start..end + 1,
        scheme: scheme.map(|s| String::from_utf8_lossy(s).into_owned()),
        cipher: (!cipher.is_empty()).then_some(cipher),
    })
}

/// Decrypts every block of `text` and joins them with the text between
/// them, less one final line break (Ruby's `chomp`), as
/// `hiera_backend_parser.parse(text).map(&:to_plain_text).join.chomp` does.
pub fn decrypt(text: &str, keys: &Keys) -> Result<String, Failure> {
    let mut out = String::new();
    let mut at = 0;
    for block in blocks(text) {
        out.push_str(&text[at..block.range.start]);
        out.push_str(&decrypt_block(&block, keys)?);
        at = block.range.end;
    }
    out.push_str(&text[at..]);
    if out.ends_with("\r\n") {
        out.truncate(out.len() - 2);
    } else if out.ends_with(['\n', '\r']) {
        out.pop();
    }
    Ok(out)
}

fn decrypt_block(block: &Block, keys: &Keys) -> Result<String, Failure> {
    let Some(cipher) = &block.cipher else {
        return Err(Failure::Standard("undefined method `[]' for nil:NilClass".into()));
    };
    let scheme = block.scheme.as_deref().unwrap_or("PKCS7").to_ascii_lowercase();
    if scheme != "pkcs7" {
        return Err(Failure::Load(format!("cannot load such file -- hiera/backend/eyaml/encryptors/{scheme}")));
    }
    let option = |name: &str| keys.options.and_then(|o| o.get(&crate::value::Str(name)));
    let defined = |name: &str| option(name).is_some_and(Value::is_truthy);
    // A key named only by `*_env_var` passes this check; without the
    // variable in the environment (the engine has none) it is read from a
    // `nil` path.
    for which in ["public", "private"] {
        if !defined(&format!("pkcs7_{which}_key")) && !defined(&format!("pkcs7_{which}_key_env_var")) {
            return Err(Failure::Standard(format!("pkcs7_{which}_key is not defined")));
        }
    }
    let (public, private) = (option("pkcs7_public_key"), option("pkcs7_private_key"));
    let read = |path: Option<&Value>| -> Result<&[u8], String> {
        match path {
            Some(Value::String(p)) => read_file(keys.files, p),
            other => Err(format!("no implicit conversion of {} into String", ruby_class(other))),
        }
    };
    let pkcs7 = keys.pkcs7.ok_or_else(|| Failure::Standard(NO_PKCS7.into()))?;
    let (private, public) = (read(private), read(public));
    let digest = |r: &Result<&[u8], String>| {
        use std::hash::{Hash as _, Hasher as _};
        let mut h = rustc_hash::FxHasher::default();
        r.hash(&mut h);
        h.finish()
    };
    let key = (cipher.clone(), digest(&private), digest(&public));
    let remembered = keys.decrypted.and_then(|d| d.borrow().get(&key).cloned());
    let plain = match remembered {
        Some(plain) => plain,
        None => {
            let plain = pkcs7.decrypt(cipher, private, public);
            if let Some(d) = keys.decrypted {
                d.borrow_mut().insert(key, plain.clone());
            }
            plain
        }
    };
    let plain = plain.map_err(Failure::Standard)?;
    Ok(String::from_utf8_lossy(&plain).into_owned())
}

/// `File.read(path)` through the engine's files, with Ruby's errors.
fn read_file<'a>(files: &'a Files, path: &str) -> Result<&'a [u8], String> {
    if files.is_dir(path) {
        return Err(format!("Is a directory @ io_fread - {path}"));
    }
    // A relative path is relative to Puppet's working directory, which holds
    // no key files.
    match files.load(path).filter(|_| path.starts_with('/')) {
        Some(Ok(text)) => Ok(text.as_bytes()),
        // The loader's own words (`Permission denied @ rb_sysopen - PATH`).
        Some(Err(message)) => Err(message.to_string()),
        None => Err(format!("No such file or directory @ rb_sysopen - {path}")),
    }
}

/// The Ruby class `File.read` names when given something other than a string.
fn ruby_class(value: Option<&Value>) -> &'static str {
    match value {
        None | Some(Value::Undef) => "nil",
        Some(Value::Bool(true)) => "true",
        Some(Value::Bool(false)) => "false",
        Some(Value::Integer(_)) => "Integer",
        Some(Value::Float(_)) => "Float",
        Some(Value::Array(_)) => "Array",
        Some(Value::Hash(_)) => "Hash",
        Some(_) => "Symbol",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_blocks_as_hiera_eyaml_does() {
        let found = |t: &str| blocks(t).into_iter().map(|b| (b.scheme, b.cipher)).collect::<Vec<_>>();
        let s = |x: &str| Some(x.to_string());
        assert_eq!(found("ENC[PKCS7,abc=]"), [(s("PKCS7"), s("abc="))]);
        assert_eq!(found("a ENC[abc] b ENC[GPG,x y\nz] c"), [(None, s("abc")), (s("GPG"), s("xyz"))]);
        // `_` and `,` are not base64: no block where they stand in the cipher.
        assert_eq!(found("ENC[a,b,c] ENC[x_y]"), []);
        assert_eq!(found("ENC[PKCS7,] ENC[]"), []);
        assert_eq!(found("ENC[ ]"), [(None, None)]);
        assert_eq!(found("ENC[ENC[x]"), [(None, s("x"))]);
    }

    #[test]
    fn encrypted_means_a_block_on_one_line() {
        assert!(is_encrypted("x ENC[abc] y"));
        assert!(is_encrypted("ENC[a\nENC[b]"));
        assert!(!is_encrypted("ENC[abc\n]"));
        assert!(!is_encrypted("ENC]["));
    }

    #[test]
    fn text_around_blocks_is_kept_and_one_line_break_chomped() {
        let files = Files::new();
        let keys = Keys { options: None, files: &files, pkcs7: None, decrypted: None };
        assert_eq!(decrypt("plain\n\n", &keys), Ok("plain\n".into()));
        assert_eq!(decrypt("plain\r\n", &keys), Ok("plain".into()));
        assert_eq!(
            decrypt("x ENC[GPG,abc]", &keys),
            Err(Failure::Load("cannot load such file -- hiera/backend/eyaml/encryptors/gpg".into()))
        );
        assert_eq!(decrypt("ENC[abc]", &keys), Err(Failure::Standard("pkcs7_public_key is not defined".into())));
    }
}
