use wasm_bindgen::prelude::*;
use yew::prelude::*;

use crate::components::node_panel::PRESETS;
use crate::hooks::js_app::{use_js_panel, Handlers, JsApp, Latest};
use crate::state::{Action, Notice, State, Tab};

/// The Nodes panel (`www/fleet.js`, plain DOM fetched when first opened,
/// with the extras module that answers for every node): drawn into the
/// returned node while its tab is shown, again after every change of the
/// document. What it does to the document goes through the closures given
/// here.
#[hook]
pub fn use_fleet_panel(state: &UseReducerHandle<State>) -> NodeRef {
    use_js_panel(state, state.tab == Tab::Nodes, state.revision, crate::backends::fleet_render, panel_app)
}

/// The `app` object the panel acts through.
fn panel_app(state: Latest, keep: &mut Handlers) -> js_sys::Object {
    let mut app = JsApp::new(keep);
    let dispatch = {
        let s = state.clone();
        move |a: Action| s.borrow().dispatch(a)
    };
    {
        let state = state.clone();
        app.add("document", move |_, _| state.borrow().document().to_yaml().into());
    }
    {
        let state = state.clone();
        app.add("loaded", move |_, _| (state.borrow().loaded as f64).into());
    }
    app.add("facts", move |_, _| state.borrow().facts_text.to_string().into());
    app.add("presets", |_, _| {
        let presets = PRESETS.iter().filter(|(_, _, file)| !file.is_empty());
        presets
            .map(|(l, n, f)| js_sys::Array::of3(&(*l).into(), &(*n).into(), &(*f).into()))
            .collect::<js_sys::Array>()
            .into()
    });
    {
        let dispatch = dispatch.clone();
        // The node is [name, environment] (an empty environment: the document's).
        app.add("addNode", move |node, facts| {
            let node = js_sys::Array::from(&node);
            let environment = node.get(1).as_string().filter(|e| !e.is_empty());
            let name = node.get(0).as_string().unwrap_or_default();
            dispatch(Action::AddNode(name, environment, facts.as_string().unwrap_or_default()));
            JsValue::UNDEFINED
        });
    }
    {
        let dispatch = dispatch.clone();
        app.add("removeNode", move |i, _| {
            dispatch(Action::RemoveNode(i.as_f64().unwrap_or(f64::MAX) as usize));
            JsValue::UNDEFINED
        });
    }
    {
        let dispatch = dispatch.clone();
        app.add("openWhy", move |column, row| {
            let index = |v: JsValue| v.as_f64().unwrap_or(0.0) as usize;
            dispatch(Action::OpenWhy(index(column), index(row)));
            JsValue::UNDEFINED
        });
    }
    app.add("notify", move |text, _| {
        dispatch(Action::Notify(Notice { text: text.as_string().unwrap_or_default(), error: true }));
        JsValue::UNDEFINED
    });
    app.object()
}
