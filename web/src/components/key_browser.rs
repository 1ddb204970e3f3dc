//! Every key the node resolves: its value and the level it came from.

use hiera_core::playground::ResolvedKey;
use yew::prelude::*;

/// Props of [`KeyBrowser`].
#[derive(Properties, PartialEq)]
pub struct KeyBrowserProps {
    /// (key, value or error, sources) for every key.
    pub keys: std::rc::Rc<Vec<ResolvedKey>>,
    /// Opens a file in the editor.
    pub open_file: Callback<String>,
}

/// The table of resolved keys.
#[function_component(KeyBrowser)]
pub fn key_browser(props: &KeyBrowserProps) -> Html {
    if props.keys.is_empty() {
        return html! { <p class="muted">{ "This node resolves no keys yet." }</p> };
    }
    html! {
        <table class="key-browser" data-testid="key-browser">
            <thead><tr><th>{ "Key" }</th><th>{ "Value" }</th><th>{ "From" }</th></tr></thead>
            <tbody>
                { for props.keys.iter().map(|(key, value, sources)| {
                    let value = match value {
                        Ok(r) => html! { <code>{ r.rich.clone().unwrap_or_else(|| r.json.clone()) }</code> },
                        Err(e) => html! { <span class="lookup-error">{ e }</span> },
                    };
                    let from = sources.iter().map(|s| {
                        let onclick = { let (open, file) = (props.open_file.clone(), s.file.clone()); Callback::from(move |_: MouseEvent| open.emit(file.clone())) };
                        html! { <button type="button" class="link" title={s.file.clone()} {onclick}>{ format!("{} ({})", s.level, s.file) }</button> }
                    });
                    // A long key wraps after a `::`, never inside a name.
                    let parts = key.split("::").enumerate().map(|(i, part)| html! { <>if i > 0 { { "::" }<wbr /> } { part }</> });
                    html! { <tr data-testid="resolved-key" data-key={key.clone()}><td class="key"><code>{ for parts }</code></td><td>{ value }</td><td>{ for from }</td></tr> }
                }) }
            </tbody>
        </table>
    }
}
