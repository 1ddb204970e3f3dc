use wasm_bindgen_futures::spawn_local;
use yew::prelude::*;

use crate::state::{Action, Notice, State};

/// Fetches the optional backends the first time the document uses
/// `eyaml_lookup_key` or `hocon_data`, and hands them to the engine; until
/// then such levels fail with "not loaded (yet)".
#[hook]
pub fn use_backends(state: &UseReducerHandle<State>) {
    let dispatcher = state.dispatcher();
    use_effect_with(state.wants_backends(), move |wants| {
        if *wants {
            spawn_local(async move {
                match crate::backends::load().await {
                    Ok(backends) => dispatcher.dispatch(Action::BackendsReady(crate::state::Same::new(backends))),
                    Err(text) => dispatcher.dispatch(Action::Notify(Notice { text, error: true })),
                }
            });
        }
    });
}
