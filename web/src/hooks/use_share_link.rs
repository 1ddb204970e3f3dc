use std::rc::Rc;

use wasm_bindgen_futures::spawn_local;
use yew::prelude::*;

/// The address of a playground holding `text` (see [`crate::shared_text`]):
/// the browser deflates it, so it arrives a moment after `text` changes, and
/// is None until then and while there is no text. An address made for an
/// older text that arrives late is dropped.
#[hook]
pub fn use_share_link(text: Option<String>) -> Option<Rc<str>> {
    let link = use_state(|| None::<Rc<str>>);
    let asked = use_mut_ref(|| 0u64);
    {
        let link = link.setter();
        use_effect_with(text, move |text| {
            *asked.borrow_mut() += 1;
            let this = *asked.borrow();
            if let Some(text) = text.clone() {
                spawn_local(async move {
                    if let Ok(url) = crate::share_url(text).await {
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
