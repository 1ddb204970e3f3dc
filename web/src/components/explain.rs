//! The selected lookup's explanation: a tree that folds, whose paths open
//! their files, and the `puppet lookup --explain` text verbatim.

use hiera_core::explain::{dump_value, Event, Explanation, NodeId, NodeKind};
use yew::prelude::*;

use crate::state::Shown;

/// Props of [`Explain`].
#[derive(Properties, PartialEq)]
pub struct ExplainProps {
    /// The key(s) of the selected lookup, for the heading.
    pub key_label: Option<AttrValue>,
    /// The selected lookup's evaluation (its explanation text and trace).
    pub evaluation: Option<Shown>,
    /// The document path of an absolute path.
    pub relative: Callback<String, String>,
    /// Opens a file at a line.
    pub reveal: Callback<(String, usize)>,
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
            if let Some(ex) = props.evaluation.as_ref().and_then(|e| e.explanation.as_ref()) {
                <div class="explain-tree" data-testid="explain-tree">
                    { for ex.node(Explanation::ROOT).branches.iter().map(|&b| node_view(ex, b, props)) }
                    { for ex.node(Explanation::ROOT).texts.iter().map(|t| html! { <div class="tree-line problem">{ t }</div> }) }
                </div>
            }
            <details class="explain-text" open=true>
                <summary>{ "As text" }</summary>
                <pre class="explain" data-testid="explain" tabindex="0">{ props.evaluation.as_ref().map(|e| e.explain()).unwrap_or_default() }</pre>
            </details>
        </section>
    }
}

fn value_text(v: &hiera_core::Value) -> String {
    let mut s = String::new();
    dump_value(&mut s, "", v);
    s
}

fn node_view(ex: &Explanation, id: NodeId, props: &ExplainProps) -> Html {
    let node = ex.node(id);
    let label: Html = match &node.kind {
        NodeKind::Search { key, .. } => html! { <>{ "Searching for " }<code>{ format!("\"{key}\"") }</code></> },
        NodeKind::InvalidKey(k) => html! { { format!("Invalid key \"{k}\"") } },
        NodeKind::Provider { name, config_path } => html! {
            <>
                { name }
                if let Some(p) = config_path { { " " }{ path_button(p, 1, props) } }
            </>
        },
        NodeKind::Merge { strategy, options } => html! {
            <>{ format!("Merge strategy {strategy}") }
            if let Some(o) = options { { " " }<code>{ value_text(o) }</code> }</>
        },
        NodeKind::Location { path, original, .. } => html! {
            <>{ "Path " }{ path_button(path, node.origin.as_ref().map(|o| o.spans.at().line as usize).unwrap_or(1), props) }
            <span class="muted">{ format!(" (written \"{original}\")") }</span></>
        },
        NodeKind::Interpolate(s) => html! { <>{ "Interpolation on " }<code>{ format!("\"{s}\"") }</code></> },
        NodeKind::Scope(n) => html! { { n } },
        NodeKind::Module { name, provider_missing } => {
            html! { { if *provider_missing { format!("Module data provider for module \"{name}\" not found") } else { format!("Module \"{name}\" not found") } } }
        }
        NodeKind::SubLookup(segments) => {
            html! { { format!("Sub key: \"{}\"", segments.iter().map(|s| s.to_ruby_s()).collect::<Vec<_>>().join(".")) } }
        }
        NodeKind::Segment(_) | NodeKind::Root => html! {},
        NodeKind::MergeSource(s) => html! { { format!("Using merge options from \"{s}\" hash") } },
    };
    let outcome = match &node.event {
        Some(Event::Found { key, value }) => {
            html! { <div class="tree-line found">{ format!("Found key: \"{key}\" value: ") }<code>{ value_text(value) }</code></div> }
        }
        Some(Event::NotFound(key)) => {
            html! { <div class="tree-line muted">{ format!("No such key: \"{key}\"") }</div> }
        }
        Some(Event::LocationNotFound) => html! { <div class="tree-line muted">{ "Path not found" }</div> },
        Some(Event::Failed(e)) => html! { <div class="tree-line failed">{ format!("Found, but: {e}") }</div> },
        Some(Event::Result(v)) => {
            html! { <div class="tree-line merged">{ "Merged result: " }<code>{ value_text(v) }</code></div> }
        }
        None => html! {},
    };
    if node.branches.is_empty() {
        return html! { <div class="tree-node leaf"><div class="tree-line">{ label }</div>{ outcome }</div> };
    }
    html! {
        <details class="tree-node" open=true>
            <summary>{ label }</summary>
            <div class="tree-children">
                { for node.branches.iter().map(|&b| node_view(ex, b, props)) }
                { outcome }
            </div>
        </details>
    }
}

fn path_button(path: &str, line: usize, props: &ExplainProps) -> Html {
    let file = props.relative.emit(path.to_string());
    let onclick = {
        let (reveal, file) = (props.reveal.clone(), file.clone());
        Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            reveal.emit((file.clone(), line));
        })
    };
    html! { <button type="button" class="link" data-testid="explain-path" data-file={file.clone()} title={format!("Open {file}")} {onclick}><code>{ path }</code></button> }
}
