//! The selected lookup's explanation: `puppet lookup --explain`, verbatim.

use yew::prelude::*;

/// Props of [`Explain`].
#[derive(Properties, PartialEq)]
pub struct ExplainProps {
    /// The key(s) of the selected lookup, for the heading.
    pub key_label: Option<AttrValue>,
    /// The explanation text.
    pub text: AttrValue,
}

/// The explain panel.
#[function_component(Explain)]
pub fn explain(props: &ExplainProps) -> Html {
    html! {
        <section class="explain-panel" aria-label="Explanation">
            <h2>
                { "puppet lookup --explain " }
                if let Some(k) = &props.key_label { <code>{ k }</code> }
            </h2>
            if props.key_label.is_none() {
                <p class="muted">{ "Select a lookup to see how Hiera found its value." }</p>
            }
            <pre class="explain" data-testid="explain" tabindex="0">{ &props.text }</pre>
        </section>
    }
}
