//! What the page asks of the browser: local storage, fetching the gallery,
//! reading an opened or dropped file or folder, offering a download, and dialogs.

use std::future::Future;

use hiera_core::share::Inflate;
use wasm_bindgen::prelude::{wasm_bindgen, Closure};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Where a saved document that could not be read is kept, so it is never lost.
pub const UNREADABLE_DOCUMENT: &str = "hiera-playground/unreadable-document";
/// Where the chosen colour theme lives.
pub const THEME: &str = "hiera-playground/theme";
/// The tour's lessons the visitor has passed, a file name a line.
pub const TOUR: &str = "hiera-playground/tour";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// A stored string.
pub fn load(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

/// Stores a string; false when the browser refused (private mode, quota).
pub fn save(key: &str, value: &str) -> bool {
    storage().is_some_and(|s| s.set_item(key, value).is_ok())
}

/// Forgets a stored string.
pub fn forget(key: &str) {
    if let Some(s) = storage() {
        let _ = s.remove_item(key);
    }
}

fn message(e: JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| format!("{e:?}"))
}

/// Fetches a text file that ships with the page (a path relative to it).
pub async fn fetch_text(path: &str) -> Result<String, String> {
    let window = web_sys::window().ok_or("no window")?;
    let response: web_sys::Response =
        JsFuture::from(window.fetch_with_str(path)).await.map_err(message)?.unchecked_into();
    if !response.ok() {
        return Err(format!("{path}: HTTP {}", response.status()));
    }
    let text = JsFuture::from(response.text().map_err(message)?).await.map_err(message)?;
    text.as_string().ok_or_else(|| format!("{path}: not text"))
}

/// Reads a file the user picked.
pub async fn read_file(file: web_sys::File) -> Result<String, String> {
    let text = JsFuture::from(file.text()).await.map_err(message)?;
    text.as_string().ok_or_else(|| "the file is not text".into())
}

/// Reads a file the user picked, as bytes.
pub async fn read_bytes(file: web_sys::File) -> Result<Vec<u8>, String> {
    let buffer = JsFuture::from(file.array_buffer()).await.map_err(message)?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

#[wasm_bindgen(module = "/js/files.js")]
extern "C" {
    #[wasm_bindgen(js_name = deflateRaw)]
    fn deflate_raw_js(bytes: &[u8]) -> js_sys::Promise;

    #[wasm_bindgen(js_name = inflateRaw)]
    fn inflate_raw_js(bytes: &[u8], limit: f64) -> js_sys::Promise;

    #[wasm_bindgen(js_name = droppedFiles)]
    fn dropped_files_js(
        transfer: &web_sys::DataTransfer,
        keep: &Closure<dyn Fn(String) -> bool>,
        max_files: usize,
    ) -> js_sys::Promise;
}

/// The raw deflate of `bytes`, by the browser.
pub async fn deflate_raw(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let packed = JsFuture::from(deflate_raw_js(bytes)).await.map_err(message)?;
    Ok(js_sys::Uint8Array::new(&packed).to_vec())
}

/// What the raw deflate `bytes` inflates to, by the browser, if it is at
/// most `limit` bytes.
pub async fn inflate_raw(bytes: &[u8], limit: usize) -> Result<Vec<u8>, Inflate> {
    let inflated = JsFuture::from(inflate_raw_js(bytes, limit as f64)).await.map_err(|_| Inflate::Damaged)?;
    match inflated.dyn_into::<js_sys::Uint8Array>() {
        Ok(bytes) => Ok(bytes.to_vec()),
        Err(_) => Err(Inflate::TooLarge),
    }
}

/// The files of a drop as `(path, file)`: a dropped file by its name, the
/// files of a dropped folder that Hiera can use (see [`hiera_core::archive::wanted`])
/// by their paths from its parent (`repo/data/a.yaml`). Must be called while
/// the drop event is handled; the listing finishes later.
pub fn dropped_files(
    transfer: &web_sys::DataTransfer,
) -> impl Future<Output = Result<Vec<(String, web_sys::File)>, String>> {
    let keep = Closure::<dyn Fn(String) -> bool>::new(|path: String| hiera_core::archive::wanted(&path));
    let listing = JsFuture::from(dropped_files_js(transfer, &keep, hiera_core::archive::MAX_FILES));
    async move {
        let result = listing.await;
        // JavaScript calls `keep` until the listing is over.
        drop(keep);
        let pairs = js_sys::Array::from(&result.map_err(message)?);
        Ok(pairs
            .iter()
            .filter_map(|pair| {
                let pair = js_sys::Array::from(&pair);
                Some((pair.get(0).as_string()?, pair.get(1).dyn_into().ok()?))
            })
            .collect())
    }
}

/// Reads the files of a dropped folder, refusing more than an archive may hold.
pub async fn read_folder(files: Vec<(String, web_sys::File)>) -> Result<Vec<(String, Vec<u8>)>, String> {
    let total: f64 = files.iter().map(|(_, f)| f.size()).sum();
    if total > hiera_core::archive::MAX_EXPANDED as f64 {
        return Err(format!("its Hiera files come to more than {} MB", hiera_core::archive::MAX_EXPANDED >> 20));
    }
    let mut out = Vec::with_capacity(files.len());
    for (path, file) in files {
        out.push((path, read_bytes(file).await?));
    }
    Ok(out)
}

/// Offers `text` as a file download named `name`.
pub fn download(name: &str, text: &str) -> Result<(), String> {
    offer(name, &JsValue::from_str(text), "application/x-yaml")
}

/// Offers bytes as a file download named `name`.
pub fn download_bytes(name: &str, bytes: &[u8], mime: &str) -> Result<(), String> {
    offer(name, &js_sys::Uint8Array::from(bytes).into(), mime)
}

fn offer(name: &str, part: &JsValue, mime: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(part);
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_buffer_source_sequence_and_options(&parts, &options).map_err(message)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(message)?;
    let document = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let a: web_sys::HtmlAnchorElement = document.create_element("a").map_err(message)?.unchecked_into();
    a.set_href(&url);
    a.set_download(name);
    a.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// Asks for a line of text (`None` when cancelled).
pub fn prompt(question: &str, default: &str) -> Option<String> {
    web_sys::window()?.prompt_with_message_and_default(question, default).ok().flatten()
}

/// Asks for confirmation.
pub fn confirm(question: &str) -> bool {
    web_sys::window().and_then(|w| w.confirm_with_message(question).ok()).unwrap_or(false)
}

/// Applies a colour theme (`light`, `dark`, or empty for the system's).
pub fn apply_theme(theme: &str) {
    if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
        let _ = if theme.is_empty() {
            root.remove_attribute("data-theme")
        } else {
            root.set_attribute("data-theme", theme)
        };
    }
}

/// The page's URL without query or fragment.
pub fn page_url() -> String {
    web_sys::window()
        .and_then(|w| {
            let l = w.location();
            Some(format!("{}{}", l.origin().ok()?, l.pathname().ok()?))
        })
        .unwrap_or_default()
}

/// The URL's fragment, without `#`.
pub fn fragment() -> String {
    web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default().trim_start_matches('#').to_string()
}

/// The URL's query parameters, without `?`, split at `&`.
pub fn query() -> Vec<(String, String)> {
    let search = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    search
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| match p.split_once('=') {
            Some((k, v)) => (
                k.to_string(),
                js_sys::decode_uri_component(v).ok().and_then(|v| v.as_string()).unwrap_or_else(|| v.to_string()),
            ),
            None => (p.to_string(), String::new()),
        })
        .collect()
}

/// Puts `query` (without `?`; empty: none) in the address bar, without the
/// fragment and without reloading: a lesson's own link.
pub fn replace_query(query: &str) {
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let url = if query.is_empty() { page_url() } else { format!("{}?{query}", page_url()) };
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}

/// Removes the fragment from the address bar without reloading.
pub fn clear_fragment() {
    if let Some(w) = web_sys::window() {
        if let Ok(history) = w.history() {
            let url = format!("{}{}", page_url(), w.location().search().unwrap_or_default());
            let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
        }
    }
}

/// Calls `f` on each `event` (such as `pagehide`, `hashchange`, `keydown`)
/// of the window; stops when the returned guard is dropped.
pub fn on_window(event: &'static str, f: impl Fn(web_sys::Event) + 'static) -> Option<impl Drop> {
    struct Listener(&'static str, Closure<dyn FnMut(web_sys::Event)>);
    impl Drop for Listener {
        fn drop(&mut self) {
            if let Some(w) = web_sys::window() {
                let _ = w.remove_event_listener_with_callback(self.0, self.1.as_ref().unchecked_ref());
            }
        }
    }
    let closure = Closure::<dyn FnMut(web_sys::Event)>::new(f);
    web_sys::window()?.add_event_listener_with_callback(event, closure.as_ref().unchecked_ref()).ok()?;
    Some(Listener(event, closure))
}

/// Loads the page again, as a fresh tab would.
pub fn reload() {
    if let Some(w) = web_sys::window() {
        let _ = w.location().reload();
    }
}

/// Installs the service worker (www/sw.js) that keeps the page for offline use.
pub fn keep_offline() {
    let Some(w) = web_sys::window() else { return };
    // Only secure contexts (https, localhost) have service workers.
    if js_sys::Reflect::get(&w.navigator(), &"serviceWorker".into()).is_ok_and(|sw| !sw.is_undefined()) {
        let _ = w.navigator().service_worker().register("sw.js");
    }
}

/// Resolves after `ms` milliseconds (at once where there is no window).
pub async fn sleep(ms: i32) {
    let wait = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            if w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms).is_ok() {
                return;
            }
        }
        let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(wait).await;
}

/// Copies text to the clipboard, where the browser allows it.
pub fn copy(text: &str) {
    if let Some(w) = web_sys::window() {
        let _ = w.navigator().clipboard().write_text(text);
    }
}

/// Whether the page is in a frame of another page.
pub fn in_frame() -> bool {
    web_sys::window().is_some_and(|w| w.parent().ok().flatten().is_some_and(|p| p != w))
}

thread_local! {
    /// The height last told to the embedding page.
    static TOLD_HEIGHT: std::cell::Cell<i32> = const { std::cell::Cell::new(-1) };
}

/// Tells the embedding page how tall this page is, so the iframe fits, once
/// the editor is in; a height already told is not told again.
pub fn post_height() {
    // The app's own height: the document's would never shrink below the frame's.
    let app = web_sys::window().and_then(|w| w.document()).and_then(|d| d.query_selector(".embed").ok().flatten());
    let Some(app) = app else { return };
    // Not while the editor is the plain textarea CodeMirror replaces: the
    // frame would grow again when it arrives, maybe while it is seen.
    if app.query_selector("textarea.fallback").ok().flatten().is_some() {
        return;
    }
    let height = app.scroll_height() + 8;
    if TOLD_HEIGHT.with(|told| told.replace(height)) != height {
        post_message("hiera-playground:height", Some(height));
    }
}

/// Posts the page's height to the parent now and whenever it changes; the
/// watching stops when the returned guard is dropped.
pub fn watch_height() -> Option<impl Drop> {
    struct Watch {
        resized: web_sys::ResizeObserver,
        changed: web_sys::MutationObserver,
        // JavaScript calls it for as long as the observers live.
        _callback: Closure<dyn FnMut()>,
    }
    impl Drop for Watch {
        fn drop(&mut self) {
            self.resized.disconnect();
            self.changed.disconnect();
        }
    }
    let app = web_sys::window()?.document()?.query_selector(".embed").ok()??;
    let callback = Closure::<dyn FnMut()>::new(post_height);
    let resized = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()).ok()?;
    resized.observe(&app);
    // A browser stops telling an off-screen frame of another site that it
    // resized until it is scrolled to, and the host page would jump then;
    // a change to the page is told at once, and its height measured there.
    let changed = web_sys::MutationObserver::new(callback.as_ref().unchecked_ref()).ok()?;
    let what = web_sys::MutationObserverInit::new();
    what.set_child_list(true);
    what.set_subtree(true);
    what.set_attributes(true);
    what.set_character_data(true);
    changed.observe_with_options(&app, &what).ok()?;
    post_height();
    Some(Watch { resized, changed, _callback: callback })
}

/// Tells the embedding page something (`hiera-playground:ready`).
pub fn post_to_parent(kind: &str) {
    post_message(kind, None);
}

// Only a type and a height ever go to the parent, which may be any site.
fn post_message(kind: &str, height: Option<i32>) {
    let Some(w) = web_sys::window() else { return };
    let message = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&message, &"type".into(), &kind.into());
    if let Some(h) = height {
        let _ = js_sys::Reflect::set(&message, &"height".into(), &h.into());
    }
    if let Ok(Some(parent)) = w.parent().map(|p| p.filter(|_| in_frame())) {
        let _ = parent.post_message(&message, "*");
    }
}

#[cfg(all(test, target_arch = "wasm32"))]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    async fn the_browser_inflates_what_it_deflated_up_to_a_limit() {
        let text = b"a: 1\n".repeat(1000);
        let packed = deflate_raw(&text).await.unwrap();
        assert_eq!(inflate_raw(&packed, text.len()).await, Ok(text.clone()));
        // A bomb stops at the limit; a cut or foreign stream is damaged.
        assert_eq!(inflate_raw(&packed, text.len() - 1).await, Err(Inflate::TooLarge));
        assert_eq!(inflate_raw(&packed[..packed.len() / 2], text.len()).await, Err(Inflate::Damaged));
        assert_eq!(inflate_raw(b"\xff\xff\xff\xff", text.len()).await, Err(Inflate::Damaged));
    }
}
