//! The visitor's works, kept in the browser: every document they edited or
//! opened, each under an id of its own, and what each tab shows.
//!
//! A work is saved in localStorage under `hiera-playground/work/ID`, as the
//! document's text or, when that does not fit, deflated as a share link's
//! fragment is (`h1.` and base64url); `hiera-playground/works` lists them,
//! newest first. What a tab shows (a work's id or an example's name) is in
//! its sessionStorage, which a reload keeps and another tab does not see: a
//! reload shows what was on screen, and two tabs keep two works. A tab holds
//! a Web Lock named after its work, so that a second tab that opens the
//! same work (a new tab, a duplicated one) can tell and keep a copy instead
//! of saving over the first.

use hiera_core::case::Document;
use hiera_core::share;
use hiera_core::value::{Hash, Value};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen_futures::JsFuture;
use yew::AttrValue;

use crate::browser;

/// The list of works.
const INDEX: &str = "hiera-playground/works";
/// Where the page kept its one document before it kept works.
const LEGACY: &str = "hiera-playground/document";
/// What this tab shows, in its sessionStorage.
const TAB: &str = "hiera-playground/tab";

/// One work, as the Works menu lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// Its id.
    pub id: AttrValue,
    /// What it is called: its description's start, else its first lookup.
    pub title: AttrValue,
    /// When it was last saved (milliseconds since 1970; an integer, as
    /// writing and reading floats would add their code to the page).
    pub saved: u64,
}

/// What a tab shows, kept through a reload.
#[derive(Clone, Debug, PartialEq)]
pub enum Shown {
    /// A work, by its id.
    Work(String),
    /// An example of the gallery, by its file name, and the work the tab
    /// showed before it.
    Example(String, Option<String>),
}

/// Why a work could not be saved, in words for the visitor.
#[derive(Clone, Debug, PartialEq)]
pub struct NotSaved(pub String);

fn key(id: &str) -> String {
    format!("hiera-playground/work/{id}")
}

/// A new work's id: the time, and a random part for works made in the same
/// millisecond in two tabs.
pub fn new_id() -> String {
    let time = js_sys::Date::now() as u64;
    let random = (js_sys::Math::random() * 1e9) as u64;
    format!("{time:x}-{random:x}")
}

/// The works, newest first.
pub fn list() -> Vec<Entry> {
    let Some(index) = browser::load(INDEX).and_then(|t| hiera_core::json::parse(&t).ok()) else { return Vec::new() };
    let Some(items) = index.as_array() else { return Vec::new() };
    items
        .iter()
        .filter_map(|item| {
            let field = |name: &str| item.as_hash()?.get(&Value::from(name)).cloned();
            Some(Entry {
                id: field("id")?.as_str()?.to_string().into(),
                title: field("title")?.as_str()?.to_string().into(),
                saved: field("saved").and_then(|s| s.as_str()?.parse().ok()).unwrap_or(0),
            })
        })
        .collect()
}

fn write_list(entries: &[Entry]) -> bool {
    let items: Vec<Value> = entries
        .iter()
        .map(|e| {
            let fields: Hash =
                [("id", e.id.to_string()), ("title", e.title.to_string()), ("saved", e.saved.to_string())]
                    .into_iter()
                    .map(|(k, v)| (Value::from(k), Value::from(v)))
                    .collect();
            Value::Hash(fields)
        })
        .collect();
    Value::Array(items.into()).to_json().is_ok_and(|json| browser::save(INDEX, &json))
}

/// What the Works menu calls a document.
fn title(doc: &Document) -> String {
    let from = doc
        .description
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(str::to_string)
        .or_else(|| doc.lookups.first().map(|l| l.keys.join(", ")).filter(|k| !k.is_empty()))
        .unwrap_or_else(|| "Untitled".into());
    match from.char_indices().nth(60) {
        Some((at, _)) => format!("{}…", &from[..at]),
        None => from,
    }
}

/// Saves `doc` as the work `id`, as its text. Fails when the browser's
/// storage is full (then [`save_packed`] may still fit it) or refused.
pub fn save(id: &str, doc: &Document) -> Result<(), NotSaved> {
    store(id, &doc.to_yaml(), &title(doc))
}

/// Saves `doc` as the work `id` deflated, for a document whose text does
/// not fit.
pub async fn save_packed(id: &str, doc: &Document) -> Result<(), NotSaved> {
    let text = doc.to_yaml();
    let packed = browser::deflate_raw(text.as_bytes()).await.map_err(NotSaved)?;
    store(id, &share::fragment(&packed), &title(doc))
}

fn store(id: &str, text: &str, title: &str) -> Result<(), NotSaved> {
    if !browser::save(&key(id), text) {
        let kilobytes = text.len() / 1000;
        return Err(NotSaved(format!("the browser's storage for this page is full ({kilobytes} KB to keep)")));
    }
    let mut entries = list();
    entries.retain(|e| e.id != id);
    let saved = js_sys::Date::now() as u64;
    entries.insert(0, Entry { id: id.to_string().into(), title: title.to_string().into(), saved });
    if write_list(&entries) {
        Ok(())
    } else {
        Err(NotSaved("the browser's storage for this page is full".into()))
    }
}

/// The work `id`'s document: `None` when there is no such work, an error
/// when its text cannot be read.
pub async fn read(id: &str) -> Option<Result<Document, String>> {
    let text = browser::load(&key(id))?;
    Some(document(&text).await)
}

async fn document(text: &str) -> Result<Document, String> {
    if text.starts_with(&format!("{}.", share::VERSION)) {
        let inflated = browser::inflate_raw(&share::unpack_kept(text).map_err(|e| e.0)?, 64 << 20).await;
        let bytes = inflated.map_err(|_| "the saved work is damaged".to_string())?;
        let text = String::from_utf8(bytes).map_err(|e| e.to_string())?;
        return Document::from_yaml(&text).map_err(|e| e.to_string());
    }
    Document::from_yaml(text).map_err(|e| e.to_string())
}

/// Forgets the work `id`.
pub fn remove(id: &str) {
    browser::forget(&key(id));
    let mut entries = list();
    entries.retain(|e| e.id != id);
    write_list(&entries);
}

/// The page's one document from before works, made the first work (once;
/// the old key goes only when the work is saved). `Err` holds its text
/// when it cannot be read.
pub fn adopt_legacy() -> Option<Result<(String, Document), String>> {
    let text = browser::load(LEGACY)?;
    match Document::from_yaml(&text) {
        Ok(doc) => {
            let id = new_id();
            if save(&id, &doc).is_ok() {
                browser::forget(LEGACY);
            }
            Some(Ok((id, doc)))
        }
        Err(_) => {
            browser::forget(LEGACY);
            Some(Err(text))
        }
    }
}

fn session() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok().flatten()
}

/// What this tab showed before a reload.
pub fn tab() -> Option<Shown> {
    let text = session()?.get_item(TAB).ok().flatten()?;
    let value = hiera_core::json::parse(&text).ok()?;
    let field = |name: &str| value.as_hash()?.get(&Value::from(name))?.as_str().map(str::to_string);
    match (field("work"), field("example")) {
        (Some(id), _) => Some(Shown::Work(id)),
        (None, Some(name)) => Some(Shown::Example(name, field("mine"))),
        _ => None,
    }
}

/// Notes what this tab shows.
pub fn set_tab(shown: &Shown) {
    let fields: Vec<(&str, &str)> = match shown {
        Shown::Work(id) => vec![("work", id)],
        Shown::Example(name, mine) => {
            let mut fields = vec![("example", name.as_str())];
            fields.extend(mine.as_deref().map(|m| ("mine", m)));
            fields
        }
    };
    let hash: Hash = fields.into_iter().map(|(k, v)| (Value::from(k), Value::from(v))).collect();
    if let (Some(s), Ok(json)) = (session(), Value::Hash(hash).to_json()) {
        let _ = s.set_item(TAB, &json);
    }
}

/// Forgets what this tab shows: a reload opens the latest work.
pub fn forget_tab() {
    if let Some(s) = session() {
        let _ = s.remove_item(TAB);
    }
}

#[wasm_bindgen(module = "/js/files.js")]
extern "C" {
    #[wasm_bindgen(js_name = holdWork)]
    fn hold_work_js(id: &str) -> js_sys::Promise;
}

/// Holds the work `id` for this tab (letting go of any other): false when
/// another tab holds it.
pub async fn hold(id: &str) -> bool {
    JsFuture::from(hold_work_js(id)).await.map(|held| held.as_bool() != Some(false)).unwrap_or(true)
}
