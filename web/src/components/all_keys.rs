//! All keys: every key the node resolves, its value and the levels it
//! came from, each opening its file.

use hiera_core::playground::ResolvedKey;
use yew::prelude::*;

use crate::state::{Action, Same};

/// Props of [`AllKeys`].
#[derive(Properties, PartialEq)]
pub struct AllKeysProps {
    /// What the reducer resolved (see `State::resolved`).
    pub keys: Same<Vec<ResolvedKey>>,
    /// Where actions go.
    pub dispatch: Callback<Action>,
}

/// The table.
#[function_component(AllKeys)]
pub fn all_keys(props: &AllKeysProps) -> Html {
    if props.keys.is_empty() {
        return html! { <p class="muted">{ "This node resolves no keys yet." }</p> };
    }
    let rows = props.keys.iter().map(|(key, value, sources)| {
        let value = match value {
            Ok(r) => html! { <code>{ r.rich.clone().unwrap_or_else(|| r.json.clone()) }</code> },
            Err(e) => html! { <span class="lookup-error">{ e }</span> },
        };
        let sources = sources.iter().map(|s| {
            let file = s.file.clone();
            let open = props.dispatch.reform(move |_: MouseEvent| Action::OpenFile(file.clone()));
            html! { <button type="button" class="link" title={s.file.clone()} onclick={open}>{ format!("{} ({})", s.level, s.file) }</button> }
        });
        html! {
            <tr data-testid="resolved-key" data-key={key.clone()}>
                <td class="key">{ wrapped(key) }</td>
                <td>{ value }</td>
                <td>{ for sources }</td>
            </tr>
        }
    });
    html! {
        <table class="key-browser" data-testid="key-browser">
            <thead><tr><th>{ "Key" }</th><th>{ "Value" }</th><th>{ "From" }</th></tr></thead>
            <tbody>{ for rows }</tbody>
        </table>
    }
}

/// A key that wraps after a `::` when long, never inside a name.
pub(crate) fn wrapped(key: &str) -> Html {
    let parts = key.split("::").enumerate().map(|(i, part)| {
        html! { <>if i > 0 { { "::" }<wbr /> }{ part }</> }
    });
    html! { <code>{ for parts }</code> }
}
