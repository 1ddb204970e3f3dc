//! The bars above the workspace: private keys, the share link, a shared
//! link's or an example's choices, the notice, and the document's
//! description.

use yew::prelude::*;

use crate::hooks::use_document_io::DocumentIo;
use crate::state::{Action, State, View};

/// Where the page stands: a shared link's or an example's choices, the
/// notice, and the description of the document.
pub fn status(state: &State, dispatch: &Callback<Action>, io: &DocumentIo) -> Html {
    html! {
        <>
            if matches!(state.view, View::Shared | View::Example) {
                <div class="shared-bar" data-testid="shared-bar">
                    <button type="button" data-testid="back-to-my-work" onclick={io.back_to_work.clone()}>{ "Back to my work" }</button>
                    <button type="button" data-testid="keep-shared" onclick={io.keep.clone()}>{ "Keep this as a work" }</button>
                </div>
            }
            if let Some(why) = &state.unsaved {
                <div class="notice error" role="alert" data-testid="unsaved">
                    <span>{ format!("Your work is not saved in this browser: {why}. Save it as a file or export it before you leave, or forget older works (Works) to make room.") }</span>
                    <button type="button" data-testid="unsaved-save" onclick={io.save.reform(|_: MouseEvent| ())}>{ "Save" }</button>
                    <button type="button" data-testid="unsaved-export" onclick={io.export.reform(|_: MouseEvent| ())}>{ "Export zip" }</button>
                </div>
            }
            if let Some(n) = &state.notice {
                <div class={classes!("notice", n.error.then_some("error"))} role="alert" data-testid="notice">
                    <span>{ &n.text }</span>
                    <button type="button" class="icon" aria-label="Dismiss" onclick={dispatch.reform(|_: MouseEvent| Action::Dismiss)}>{ "×" }</button>
                </div>
            }
            if let Some(d) = state.document().description.clone() {
                <p class="description" data-testid="description" data-stale={state.edited.to_string()}>
                    if state.edited { <span class="muted">{ "Written for the files as they were opened, which have changed since: " }</span> }
                    { d }
                </p>
            }
        </>
    }
}

/// Says that the document holds private keys, which links and exports
/// leave out unless the user ticks the box.
pub fn secrets_bar(state: &State, dispatch: &Callback<Action>) -> Html {
    let doc = state.document();
    let keys = doc.private_keys();
    if keys.is_empty() {
        return html! {};
    }
    let toggle = dispatch.reform(|e: Event| {
        Action::IncludePrivateKeys(e.target_unchecked_into::<web_sys::HtmlInputElement>().checked())
    });
    let what = if keys.len() == 1 { "a private key" } else { "private keys" };
    html! {
        <div class="secrets-bar" data-testid="secrets-bar">
            <span>{ format!("This document holds {what} ({}). ", keys.join(", ")) }
                if state.include_private_keys {
                    { "Links and exported zips include it: whoever gets them can decrypt its values." }
                } else {
                    { "Links and exported zips leave it out (their eyaml values fail, as on a Puppet without the key)." }
                }
            </span>
            <label><input type="checkbox" data-testid="include-private-keys" checked={state.include_private_keys} onchange={toggle} />{ " Include private keys" }</label>
        </div>
    }
}

/// The link last made, while the document it is for is shown.
pub fn share_bar(state: &State, dispatch: &Callback<Action>) -> Html {
    let Some((_, link)) = state.share_link.as_ref().filter(|(l, _)| *l == state.loaded) else { return html! {} };
    html! {
        <div class="share-bar" data-testid="share-bar">
            <label for="share-link">{ "Link to this playground (copied):" }</label>
            <input id="share-link" type="text" readonly=true data-testid="share-link" value={link.clone()}
                onfocus={Callback::from(|e: FocusEvent| e.target_unchecked_into::<web_sys::HtmlInputElement>().select())} />
            <span class="muted">{ format!("{} characters", link.len()) }</span>
            <button type="button" class="icon" aria-label="Close" onclick={dispatch.reform(|_: MouseEvent| Action::ShareLink(None))}>{ "×" }</button>
        </div>
    }
}
