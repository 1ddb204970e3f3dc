use std::rc::Rc;

use wasm_bindgen_futures::spawn_local;
use yew::prelude::*;

use crate::state::State;

/// The address of a playground showing `state` (see [`crate::links::share_url`]):
/// the browser deflates it, so it arrives a moment after `state` changes,
/// and is None until then and while there is no state. The document is
/// written out only when the state changed, not on every render; an address
/// made for an older state that arrives late is dropped.
#[hook]
pub fn use_share_link(state: Option<State>) -> Option<Rc<str>> {
    let link = use_state(|| None::<Rc<str>>);
    let asked = use_mut_ref(|| 0u64);
    {
        let link = link.setter();
        use_effect_with(state, move |state| {
            *asked.borrow_mut() += 1;
            let this = *asked.borrow();
            if let Some(text) = state.as_ref().map(crate::links::shared_text) {
                spawn_local(async move {
                    if let Ok(url) = crate::links::share_url(text).await {
                        if *asked.borrow() == this {
                            link.set(Some(url.into()));
                        }
                    }
                });
            }
        });
    }
    (*link).clone()
}
