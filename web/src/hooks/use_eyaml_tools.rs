use wasm_bindgen::prelude::*;
use yew::prelude::*;

use crate::components::editor;
use crate::hooks::js_app::{use_js_panel, Handlers, JsApp, Latest};
use crate::state::{Action, Notice, State};

/// The eyaml tools panel (`www/eyaml-tools.js`, plain DOM fetched when first
/// opened, since the page must stay within its size budget): drawn into the
/// returned node while the state says it is open, again when the
/// document's key files change. What it does to the document goes through
/// the closures given here; it makes keys with WebCrypto and encrypts with
/// the backends module itself.
#[hook]
pub fn use_eyaml_tools(state: &UseReducerHandle<State>) -> NodeRef {
    // What the panel shows of the document: which files hold keys.
    let open = state.eyaml_open;
    let keys: Vec<String> = if open {
        let doc = state.document();
        doc.files.iter().filter(|(_, t)| t.contains("-----BEGIN ")).map(|(p, _)| p.clone()).collect()
    } else {
        Vec::new()
    };
    use_js_panel(state, open, keys, crate::backends::eyaml_tools_render, panel_app)
}

/// The `app` object the panel acts through.
fn panel_app(state: Latest, keep: &mut Handlers) -> js_sys::Object {
    let mut app = JsApp::new(keep);
    let dispatch = {
        let s = state.clone();
        move |a: Action| s.borrow().dispatch(a)
    };
    app.add("files", move |_, _| {
        let state = state.borrow();
        let doc = state.document();
        doc.files.iter().map(|(p, t)| js_sys::Array::of2(&p.into(), &t.into())).collect::<js_sys::Array>().into()
    });
    {
        let dispatch = dispatch.clone();
        app.add("addFiles", move |files, _| {
            let files = js_sys::Array::from(&files)
                .iter()
                .map(|pair| {
                    let pair = js_sys::Array::from(&pair);
                    (pair.get(0).as_string().unwrap_or_default(), pair.get(1).as_string().unwrap_or_default())
                })
                .collect();
            dispatch(Action::AddFiles(files));
            JsValue::UNDEFINED
        });
    }
    {
        let dispatch = dispatch.clone();
        app.add("notify", move |text, error| {
            dispatch(Action::Notify(Notice { text: text.as_string().unwrap_or_default(), error: error.is_truthy() }));
            JsValue::UNDEFINED
        });
    }
    app.add("selection", |_, _| editor::selected_text().map(JsValue::from).unwrap_or(JsValue::UNDEFINED));
    app.add("replaceSelection", |text, _| editor::replace_selection(&text.as_string().unwrap_or_default()).into());
    app.add("close", move |_, _| {
        dispatch(Action::ShowEyaml(false));
        JsValue::UNDEFINED
    });
    app.object()
}
