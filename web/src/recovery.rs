//! Never losing work: the text of the last edit is held before the engine
//! runs on it, and if the engine ever panics (which aborts WebAssembly), a
//! panic hook stores that edit and says so; the next start puts it back.

use std::cell::RefCell;

use hiera_core::case::Document;
use hiera_core::value::{Hash, Value};

use crate::browser;

/// Where a crash leaves the last edit.
pub const RECOVERED_EDIT: &str = "hiera-playground/recovered-edit";

thread_local! {
    static LAST_EDIT: RefCell<Option<(String, String)>> = const { RefCell::new(None) };
}

/// Holds a file's new text before the engine evaluates it.
pub fn hold(path: &str, text: &str) {
    LAST_EDIT.with(|e| *e.borrow_mut() = Some((path.to_string(), text.to_string())));
}

/// Installs the panic hook.
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        let held = LAST_EDIT.with(|e| e.borrow().clone());
        if let Some((path, text)) = held {
            browser::save(RECOVERED_EDIT, &edit_json(&path, &text));
        }
        web_sys::console::error_1(&format!("Hiera Playground: {info}").into());
        show_crash(&info.to_string());
    }));
}

fn show_crash(message: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let (Ok(banner), Some(body)) = (document.create_element("div"), document.body()) else { return };
    banner.set_class_name("notice error crash");
    let _ = banner.set_attribute("role", "alert");
    let _ = banner.set_attribute("data-testid", "crash");
    banner.set_text_content(Some(&format!(
        "The engine failed ({message}). Your last edit is kept: reload the page to get it back."
    )));
    let _ = body.prepend_with_node_1(&banner);
}

/// An edit as it is kept in the browser's storage: `{"path": .., "text": ..}`.
fn edit_json(path: &str, text: &str) -> String {
    let edit: Hash =
        [("path", path), ("text", text)].into_iter().map(|(k, v)| (Value::from(k), Value::from(v))).collect();
    Value::Hash(edit).to_json().unwrap_or_default()
}

/// Puts a crashed session's last edit back into `doc`; returns the file's path.
pub fn restore(doc: &mut Document) -> Option<String> {
    let saved = browser::load(RECOVERED_EDIT)?;
    browser::forget(RECOVERED_EDIT);
    let edit = hiera_core::json::parse(&saved).ok()?;
    let field = |name: &str| edit.as_hash()?.get(&Value::from(name))?.as_str();
    let (path, text) = (field("path")?, field("text")?);
    match doc.files.iter_mut().find(|(p, _)| p == path) {
        Some((_, t)) => *t = text.into(),
        None => doc.files.push((path.to_string(), text.into())),
    }
    Some(path.to_string())
}

#[cfg(all(test, target_arch = "wasm32"))]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn a_crashed_edit_comes_back() {
        hold("data/common.yaml", "a: 2\n");
        let held = LAST_EDIT.with(|e| e.borrow().clone()).unwrap();
        browser::save(RECOVERED_EDIT, &edit_json(&held.0, &held.1));
        let mut doc = Document::from_yaml("files:\n  data/common.yaml: |\n    a: 1\n").unwrap();
        assert_eq!(restore(&mut doc).as_deref(), Some("data/common.yaml"));
        assert_eq!(&*doc.files[0].1, "a: 2\n");
        assert_eq!(browser::load(RECOVERED_EDIT), None, "restored once");
    }
}
