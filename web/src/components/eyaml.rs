//! The eyaml tools: what `eyaml createkeys` and `eyaml encrypt` do, for the
//! document on show. Keys are made by the browser's WebCrypto and
//! encrypted to by the backends module ([`crate::backends`]); they go
//! nowhere. What the tools hold is in the reducer ([`EyamlTools`]); the
//! value being typed is the input's own until it is encrypted.

use wasm_bindgen_futures::spawn_local;
use yew::prelude::*;

use crate::backends;
use crate::components::editor;
use crate::state::{Action, Eyaml, EyamlTools, Notice, PRIVATE_KEY, PUBLIC_KEY};

/// Props of [`EyamlPanel`].
#[derive(Properties, PartialEq)]
pub struct EyamlProps {
    /// What the tools hold.
    pub tools: EyamlTools,
    /// The certificate to encrypt to (path, PEM), if the document has one.
    pub certificate: Option<(String, String)>,
    /// Whether the document has a key file where `eyaml createkeys` writes it.
    pub has_keys: bool,
    /// The page's reducer.
    pub dispatch: Callback<Action>,
}

/// The panel, above the files being edited: a few lines at most.
#[function_component(EyamlPanel)]
pub fn eyaml_panel(props: &EyamlProps) -> Html {
    let input = use_node_ref();
    let dispatch = &props.dispatch;
    let cert = props.certificate.clone();
    let fail = |text: String| Action::Notify(Notice { text, error: true });

    let make_keys = {
        let dispatch = dispatch.clone();
        Callback::from(move |_: MouseEvent| {
            dispatch.emit(Action::Eyaml(Eyaml::MakingKeys));
            let dispatch = dispatch.clone();
            spawn_local(async move {
                dispatch.emit(Action::Eyaml(Eyaml::KeysMade(backends::make_key_pair().await)));
            });
        })
    };
    let encrypt = {
        let (dispatch, input, cert) = (dispatch.clone(), input.clone(), cert.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let (Some((_, pem)), Some(input)) = (cert.clone(), input.cast::<web_sys::HtmlInputElement>()) else {
                return;
            };
            let dispatch = dispatch.clone();
            spawn_local(async move {
                dispatch.emit(Action::Eyaml(Eyaml::Encrypted(backends::encrypt(&input.value(), &pem).await)));
            });
        })
    };
    let encrypt_selection = {
        let (dispatch, cert) = (dispatch.clone(), cert.clone());
        Callback::from(move |_: MouseEvent| {
            let Some((_, pem)) = cert.clone() else { return };
            let Some(selected) = editor::selected_text().filter(|s| !s.is_empty()) else {
                let text = "Select a value in the editor first: the selection is replaced by its ENC[PKCS7,...] block.";
                return dispatch.emit(fail(text.into()));
            };
            let dispatch = dispatch.clone();
            spawn_local(async move {
                // The block goes into the file; a failure is said as the reducer says it.
                match backends::encrypt(&selected, &pem).await {
                    Ok(block) => {
                        editor::replace_selection(&block);
                    }
                    Err(e) => dispatch.emit(Action::Eyaml(Eyaml::Encrypted(Err(e)))),
                }
            });
        })
    };
    let insert = props.tools.block.clone().map(|block| {
        let dispatch = dispatch.clone();
        Callback::from(move |_: MouseEvent| {
            if !editor::replace_selection(&block) {
                dispatch.emit(fail("Open a file in the editor first.".into()));
            }
        })
    });
    let select = Callback::from(|e: FocusEvent| e.target_unchecked_into::<web_sys::HtmlTextAreaElement>().select());

    html! {
        <section class="eyaml-tools" data-testid="eyaml-tools" aria-label="eyaml">
            <div class="eyaml-head">
                <h2>{ "eyaml" }</h2>
                <span class="muted">{ "keys and encryption in this browser, as " }<code>{ "eyaml createkeys" }</code>
                    { " and " }<code>{ "eyaml encrypt" }</code>{ " do" }</span>
                <button type="button" class="icon" aria-label="Close eyaml" onclick={dispatch.reform(|_| Action::ShowEyaml(false))}>{ "×" }</button>
            </div>
            if props.has_keys {
                <p data-testid="eyaml-keys">{ "Key pair: " }<code>{ PRIVATE_KEY }</code>{ ", " }<code>{ PUBLIC_KEY }</code>
                    if let Some((path, _)) = &cert { { ", encrypting to " }<code>{ path }</code> }
                </p>
            } else {
                <p>
                    <button type="button" data-testid="eyaml-create-keys" disabled={props.tools.making_keys} onclick={make_keys}>
                        { if props.tools.making_keys { "Making keys…" } else { "Make a key pair" } }
                    </button>
                    <span class="muted">{ " at " }<code>{ "/etc/puppetlabs/puppet/eyaml/" }</code>{ ", where a level's options name them:" }</span>
                </p>
                <pre class="snippet">{ format!("options:\n  pkcs7_private_key: {PRIVATE_KEY}\n  pkcs7_public_key: {PUBLIC_KEY}") }</pre>
            }
            <form class="eyaml-encrypt" onsubmit={encrypt}>
                <label for="eyaml-plaintext">{ "Encrypt" }</label>
                <input id="eyaml-plaintext" type="text" data-testid="eyaml-plaintext" placeholder="a secret value" autocomplete="off" ref={input} />
                <button type="submit" data-testid="eyaml-encrypt" disabled={cert.is_none()}>{ "Encrypt" }</button>
                <button type="button" data-testid="eyaml-encrypt-selection" disabled={cert.is_none()} onclick={encrypt_selection}
                    title="Replace the value selected in the editor with its encrypted block">{ "Encrypt the selection" }</button>
            </form>
            if cert.is_none() {
                <p class="muted">{ "There is no certificate (public key) in this document: make a key pair first." }</p>
            } else if !props.has_keys {
                <p class="muted">{ "Encrypts to " }<code>{ cert.as_ref().map(|c| c.0.clone()).unwrap_or_default() }</code></p>
            }
            if let (Some(block), Some(insert)) = (props.tools.block.clone(), insert) {
                <div class="eyaml-block">
                    <textarea readonly=true data-testid="eyaml-block" aria-label="Encrypted block" value={block} onfocus={select} />
                    <button type="button" data-testid="eyaml-insert" onclick={insert}>{ "Insert at the cursor" }</button>
                </div>
            }
        </section>
    }
}
