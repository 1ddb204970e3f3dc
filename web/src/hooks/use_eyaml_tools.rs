use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use yew::prelude::*;

use crate::components::editor;
use crate::state::{Action, Notice, State};

/// The panel's closures, alive while it is drawn.
type Handlers = Vec<Closure<dyn FnMut(JsValue, JsValue) -> JsValue>>;

/// The eyaml tools panel (`www/eyaml-tools.js`, plain DOM fetched when first
/// opened, since the page must stay within its size budget): drawn into the
/// returned node while `open`, again when the document's key files change.
/// What it does to the document goes through the closures given here; it
/// makes keys with WebCrypto and encrypts with the backends module itself.
#[hook]
pub fn use_eyaml_tools(open: UseStateHandle<bool>, state: &UseReducerHandle<State>) -> NodeRef {
    let host = use_node_ref();
    let handlers = use_mut_ref(Handlers::new);
    let latest = crate::hooks::use_latest::use_latest(state.clone());
    // What the panel shows of the document: which files hold keys.
    let keys: Vec<String> = if *open {
        let doc = state.document();
        doc.files.iter().filter(|(_, t)| t.contains("-----BEGIN ")).map(|(p, _)| p.clone()).collect()
    } else {
        Vec::new()
    };
    {
        let (host, open) = (host.clone(), open.clone());
        use_effect_with((*open, keys), move |(shown, _)| {
            handlers.borrow_mut().clear();
            if let (true, Some(element)) = (*shown, host.cast::<web_sys::HtmlElement>()) {
                let app = panel_app(latest, open, &mut handlers.borrow_mut());
                let render = crate::backends::eyaml_tools_render(&element, &app);
                wasm_bindgen_futures::spawn_local(async move {
                    let _ = wasm_bindgen_futures::JsFuture::from(render).await;
                });
            }
        });
    }
    host
}

/// The `app` object the panel acts through.
fn panel_app(
    state: Rc<RefCell<UseReducerHandle<State>>>,
    open: UseStateHandle<bool>,
    keep: &mut Handlers,
) -> js_sys::Object {
    let app = js_sys::Object::new();
    let mut add = |name: &str, f: Box<dyn FnMut(JsValue, JsValue) -> JsValue>| {
        let closure = Closure::wrap(f);
        js_sys::Reflect::set(&app, &name.into(), closure.as_ref()).expect("setting a plain object's field");
        keep.push(closure);
    };
    let dispatch = {
        let s = state.clone();
        move |a: Action| s.borrow().dispatch(a)
    };
    {
        let state = state.clone();
        add(
            "files",
            Box::new(move |_, _| {
                let state = state.borrow();
                let doc = state.document();
                doc.files
                    .iter()
                    .map(|(p, t)| js_sys::Array::of2(&p.into(), &t.into()))
                    .collect::<js_sys::Array>()
                    .into()
            }),
        );
    }
    {
        let dispatch = dispatch.clone();
        add(
            "addFiles",
            Box::new(move |files, _| {
                let files = js_sys::Array::from(&files)
                    .iter()
                    .map(|pair| {
                        let pair = js_sys::Array::from(&pair);
                        (pair.get(0).as_string().unwrap_or_default(), pair.get(1).as_string().unwrap_or_default())
                    })
                    .collect();
                dispatch(Action::AddFiles(files));
                JsValue::UNDEFINED
            }),
        );
    }
    {
        let dispatch = dispatch.clone();
        add(
            "notify",
            Box::new(move |text, error| {
                dispatch(Action::Notify(Notice {
                    text: text.as_string().unwrap_or_default(),
                    error: error.is_truthy(),
                }));
                JsValue::UNDEFINED
            }),
        );
    }
    add("selection", Box::new(|_, _| editor::selected_text().map(JsValue::from).unwrap_or(JsValue::UNDEFINED)));
    add(
        "replaceSelection",
        Box::new(|text, _| editor::replace_selection(&text.as_string().unwrap_or_default()).into()),
    );
    add(
        "close",
        Box::new(move |_, _| {
            open.set(false);
            JsValue::UNDEFINED
        }),
    );
    app
}
