//! The `app` object a plain-DOM panel (`www/eyaml-tools.js`)
//! acts through: named functions that call back into the page.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use yew::prelude::*;

use crate::state::State;

/// The page's state as a panel's closures see it: always the newest.
pub type Latest = Rc<RefCell<UseReducerHandle<State>>>;

/// Draws a plain-DOM panel into the returned node with `render` (a
/// `web/js/backends.js` function) whenever `shown` and `drawn_for` (what the
/// panel shows of the state) change while it is shown, giving it the `app`
/// that `app` builds.
#[hook]
pub fn use_js_panel<D: PartialEq + 'static>(
    state: &UseReducerHandle<State>,
    shown: bool,
    drawn_for: D,
    render: fn(&web_sys::HtmlElement, &js_sys::Object) -> js_sys::Promise,
    app: fn(Latest, &mut Handlers) -> js_sys::Object,
) -> NodeRef {
    let host = use_node_ref();
    let handlers = use_mut_ref(Handlers::new);
    let latest = crate::hooks::use_latest::use_latest(state.clone());
    {
        let host = host.clone();
        use_effect_with((shown, drawn_for), move |(shown, _)| {
            handlers.borrow_mut().clear();
            if let (true, Some(element)) = (*shown, host.cast::<web_sys::HtmlElement>()) {
                let drawn = render(&element, &app(latest, &mut handlers.borrow_mut()));
                wasm_bindgen_futures::spawn_local(async move {
                    let _ = wasm_bindgen_futures::JsFuture::from(drawn).await;
                });
            }
        });
    }
    host
}

/// The closures of an `app`, alive while its panel is drawn.
pub type Handlers = Vec<Closure<dyn FnMut(JsValue, JsValue) -> JsValue>>;

/// An `app` being built.
pub struct JsApp<'a> {
    object: js_sys::Object,
    keep: &'a mut Handlers,
}

impl<'a> JsApp<'a> {
    /// An empty `app` whose closures `keep` holds (and drops when cleared).
    pub fn new(keep: &'a mut Handlers) -> JsApp<'a> {
        keep.clear();
        JsApp { object: js_sys::Object::new(), keep }
    }

    /// `app.name(a, b)` calls `f`.
    pub fn add(&mut self, name: &str, f: impl FnMut(JsValue, JsValue) -> JsValue + 'static) {
        let closure = Closure::wrap(Box::new(f) as Box<dyn FnMut(JsValue, JsValue) -> JsValue>);
        js_sys::Reflect::set(&self.object, &name.into(), closure.as_ref()).expect("setting a plain object's field");
        self.keep.push(closure);
    }

    /// The object, for the panel.
    pub fn object(self) -> js_sys::Object {
        self.object
    }
}
