//! Share links: the whole document (and which file and lookup are open) in
//! a URL fragment, compressed and versioned so that today's links open the
//! same way in later versions.
//!
//! A link's fragment is `h1.` followed by the base64url (unpadded) of the
//! raw deflate of the document in the case format, with two extra
//! top-level keys, `open` (the file) and `selected` (the lookup's index).

use crate::document::case::Document;
use crate::value::Value;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

/// The version tag links are made with.
pub const VERSION: &str = "h1";

/// The most a link may expand to: a link is a few kilobytes, and a
/// "decompression bomb" must end here.
pub const MAX_EXPANDED: usize = 4 << 20;

/// The longest fragment decoded at all.
pub const MAX_LINK: usize = 1 << 20;

/// What a link holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Shared {
    /// The document.
    pub document: Document,
    /// The file that was open.
    pub open: Option<String>,
    /// The lookup that was selected.
    pub selected: Option<usize>,
}

/// Why a link cannot be opened, in words for the person who clicked it.
#[derive(Clone, Debug, PartialEq)]
pub struct ShareError(pub String);

impl std::fmt::Display for ShareError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ShareError {}

/// The text a link packs: the document in the case format, with `open` and
/// `selected`.
pub fn text(shared: &Shared) -> String {
    let mut text = shared.document.to_yaml();
    if let Some(open) = &shared.open {
        text.push_str(&format!(
            "open: {}\n",
            crate::formats::yaml::to_yaml(&Value::String(open.clone())).trim_start_matches("--- ").trim_end()
        ));
    }
    if let Some(i) = shared.selected {
        text.push_str(&format!("selected: {i}\n"));
    }
    text
}

/// The fragment (without `#`) of a link whose [`text`] deflates (raw
/// deflate, RFC 1951) to `packed`. The page has the browser deflate it.
pub fn fragment(packed: &[u8]) -> String {
    format!("{VERSION}.{}", URL_SAFE_NO_PAD.encode(packed))
}

/// Why a link's payload did not inflate, as the page's inflater tells.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Inflate {
    /// It expands to more than [`MAX_EXPANDED`] bytes.
    TooLarge,
    /// It is not a whole raw deflate stream.
    Damaged,
}

/// The payload of a link's fragment (with or without `#`): its raw deflate
/// (RFC 1951), for the page to inflate to at most [`MAX_EXPANDED`] bytes
/// and hand to [`read`]. The browser inflates, which spares the page a
/// decoder of its own.
pub fn unpack(fragment: &str) -> Result<Vec<u8>, ShareError> {
    let fragment = fragment.trim().trim_start_matches('#');
    if fragment.len() > MAX_LINK {
        return Err(ShareError(format!(
            "This link is too long to be a playground link ({} characters).",
            fragment.len()
        )));
    }
    unpack_any(fragment)
}

/// The payload of a work the page kept packed as a link's fragment, of any
/// length (the browser's storage bounds it).
pub fn unpack_kept(packed: &str) -> Result<Vec<u8>, ShareError> {
    unpack_any(packed.trim())
}

fn unpack_any(fragment: &str) -> Result<Vec<u8>, ShareError> {
    let Some((version, payload)) = fragment.split_once('.') else {
        return Err(ShareError("This is not a playground link: it has no version tag.".into()));
    };
    if version != VERSION {
        let newer = version.strip_prefix('h').and_then(|n| n.parse::<u32>().ok()).is_some_and(|n| n > 1);
        return Err(ShareError(if newer {
            format!("This link was made by a newer version of the playground (format {version}); this page reads {VERSION}.")
        } else {
            format!("This is not a playground link (unknown format \"{version}\").")
        }));
    }
    URL_SAFE_NO_PAD.decode(payload.trim_end_matches('=')).map_err(|_| damaged("not base64url"))
}

/// What a link holds, from its [`unpack`]ed payload as inflated.
pub fn read(inflated: Result<Vec<u8>, Inflate>) -> Result<Shared, ShareError> {
    let bytes = inflated.map_err(|e| match e {
        Inflate::TooLarge => {
            ShareError(format!("This link expands to more than {} MB; it is refused.", MAX_EXPANDED >> 20))
        }
        Inflate::Damaged => damaged("it does not decompress"),
    })?;
    let text = String::from_utf8(bytes).map_err(|_| damaged("not UTF-8"))?;
    let document = Document::from_yaml(&text).map_err(|e| damaged(&e.message))?;
    let top = crate::formats::yaml::load(&text).ok().flatten().map(|(v, _)| v);
    let get = |k: &str| top.as_ref().and_then(|t| t.get(k)).cloned();
    let open = get("open").map(|v| v.to_ruby_s());
    let selected = match get("selected") {
        Some(Value::Integer(i)) => i.to_usize(),
        _ => None,
    };
    Ok(Shared { document, open, selected })
}

fn damaged(why: &str) -> ShareError {
    ShareError(format!("This link is incomplete or damaged ({why}). Was it cut off when it was copied?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc() -> Document {
        Document::from_yaml("facts:\n  role: web\nfiles:\n  hiera.yaml: |\n    version: 5\n  data/common.yaml: |\n    a: 1\nlookups:\n  - key: a\n").unwrap()
    }

    fn encode(shared: &Shared) -> String {
        fragment(&miniz_oxide::deflate::compress_to_vec(text(shared).as_bytes(), 9))
    }

    /// What the page does with a link, with miniz_oxide for the browser's inflater.
    fn decode(fragment: &str) -> Result<Shared, ShareError> {
        let packed = unpack(fragment)?;
        read(miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_EXPANDED).map_err(|e| match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => Inflate::TooLarge,
            _ => Inflate::Damaged,
        }))
    }

    #[test]
    fn round_trips() {
        let shared = Shared { document: doc(), open: Some("data/common.yaml".into()), selected: Some(0) };
        let link = encode(&shared);
        assert!(link.starts_with("h1."));
        assert_eq!(decode(&format!("#{link}")).unwrap(), shared);
    }

    #[test]
    fn bad_links_say_what_is_wrong() {
        let link = encode(&Shared { document: doc(), open: None, selected: None });
        assert!(decode(&link[..link.len() / 2]).unwrap_err().0.contains("incomplete or damaged"));
        assert!(decode("h1.!!!").unwrap_err().0.contains("not base64url"));
        assert!(decode("h7.abc").unwrap_err().0.contains("newer version"));
        assert!(decode("hello").unwrap_err().0.contains("no version tag"));
        let bomb = fragment(&miniz_oxide::deflate::compress_to_vec(&vec![b'a'; MAX_EXPANDED + 1], 9));
        assert!(decode(&bomb).unwrap_err().0.contains("expands to more than"));
    }
}
