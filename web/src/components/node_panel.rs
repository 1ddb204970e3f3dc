//! The node a lookup is made for: its name, its environment and its facts,
//! with presets for common kinds of node; and the Puppet that answers.

use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

use hiera_core::Puppet;

use crate::state::{Action, Tab};

/// Nodes of current platforms, with their facts as Facter 4 gives them:
/// (label, node name, file under `facts/`, fetched when chosen).
pub(crate) const PRESETS: &[(&str, &str, &str)] = &[
    ("Debian 12", "web01.example.com", "debian12.yaml"),
    ("Debian 13", "web02.example.com", "debian13.yaml"),
    ("Ubuntu 24.04", "app01.example.com", "ubuntu2404.yaml"),
    ("RHEL / Rocky 9", "db01.example.com", "rocky9.yaml"),
    ("Windows Server 2022", "win01.example.com", "windows2022.yaml"),
    ("FreeBSD 14", "proxy01.example.com", "freebsd14.yaml"),
    ("macOS 14", "mac01.example.com", "macos14.yaml"),
    ("No facts", "", ""),
];

/// Props of [`NodePanel`].
#[derive(Properties, PartialEq)]
pub struct NodePanelProps {
    /// The Puppet whose answers are shown.
    pub puppet: Puppet,
    /// The node name as given (empty: from the facts).
    pub node: AttrValue,
    /// The environment.
    pub environment: AttrValue,
    /// The facts as typed.
    pub facts: AttrValue,
    /// Why the facts cannot be read, if they cannot.
    pub facts_error: Option<AttrValue>,
    /// Where actions go.
    pub dispatch: Callback<Action>,
}

/// Node name, environment, facts.
#[function_component(NodePanel)]
pub fn node_panel(props: &NodePanelProps) -> Html {
    let on_node =
        props.dispatch.reform(|e: InputEvent| Action::SetNode(e.target_unchecked_into::<HtmlInputElement>().value()));
    let on_env = props
        .dispatch
        .reform(|e: InputEvent| Action::SetEnvironment(e.target_unchecked_into::<HtmlInputElement>().value()));
    let on_facts = props
        .dispatch
        .reform(|e: InputEvent| Action::SetFacts(e.target_unchecked_into::<HtmlTextAreaElement>().value()));
    let on_puppet = props.dispatch.reform(|e: Event| {
        let major = e.target_unchecked_into::<HtmlSelectElement>().value().parse().unwrap_or_default();
        Action::SetPuppet(Puppet::from_major(major).unwrap_or_default())
    });
    let on_preset = {
        let dispatch = props.dispatch.clone();
        let current = props.facts.clone();
        Callback::from(move |e: Event| {
            let select = e.target_unchecked_into::<HtmlSelectElement>();
            if let Some(&(label, node, file)) = select.value().parse::<usize>().ok().and_then(|i| PRESETS.get(i)) {
                let dispatch = dispatch.clone();
                let current = current.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    let facts = match file {
                        "" => Ok(String::new()),
                        file => crate::browser::fetch_text(&format!("facts/{file}")).await,
                    };
                    match facts {
                        Ok(facts) => {
                            // The facts are the work's own: they are not replaced unasked.
                            let lines = current.lines().count();
                            let replaces = !current.trim().is_empty() && *current != *facts;
                            let question =
                                format!("Replace the facts ({lines} lines) with those of the {label} preset?");
                            if replaces && !crate::browser::confirm(&question) {
                                return;
                            }
                            dispatch.emit(Action::SetFacts(facts));
                            dispatch.emit(Action::SetNode(node.to_string()));
                        }
                        Err(e) => dispatch.emit(Action::Notify(crate::state::Notice {
                            text: format!("Could not fetch the facts of {file}: {e}"),
                            error: true,
                        })),
                    }
                });
            }
            select.set_value("");
        })
    };
    html! {
        <section class="node-panel" aria-label="Node">
            <label class="field">
                <span>{ "Puppet" }</span>
                <select data-testid="puppet-version" onchange={on_puppet}>
                    { for Puppet::ALL.iter().rev().map(|p| html! {
                        <option value={p.to_string()} selected={*p == props.puppet}>{ p.release() }</option>
                    }) }
                </select>
            </label>
            <label class="field">
                <span>{ "Node" }</span>
                <input type="text" data-testid="node-input" value={props.node.clone()} placeholder="from the clientcert fact, else localhost"
                    spellcheck="false" autocomplete="off" oninput={on_node} />
            </label>
            <label class="field">
                <span>{ "Environment" }</span>
                <input type="text" data-testid="environment-input" value={props.environment.clone()}
                    spellcheck="false" autocomplete="off" oninput={on_env} />
            </label>
            <div class="facts-head">
                <label for="facts" title="YAML or JSON: paste facter -y, puppet facts show or a PuppetDB factset">{ "Facts" }</label>
                <select aria-label="Facts preset" data-testid="facts-preset" onchange={on_preset}>
                    <option value="" selected=true>{ "Preset…" }</option>
                    { for PRESETS.iter().enumerate().map(|(i, (label, _, _))| html! { <option value={i.to_string()}>{ *label }</option> }) }
                </select>
            </div>
            <textarea id="facts" class={classes!("facts", props.facts_error.is_some().then_some("invalid"))} data-testid="facts-editor"
                spellcheck="false" value={props.facts.clone()} oninput={on_facts}
                aria-invalid={props.facts_error.is_some().then_some("true")} />
            if let Some(error) = &props.facts_error {
                <p class="problem" role="alert" data-testid="facts-error">{ error }</p>
            }
            <button type="button" class="link facts-hint" data-testid="show-variables" onclick={props.dispatch.reform(|_| Action::SetTab(Tab::Nodes))}>
                { "What the hierarchy reads of these, and what Puppet adds: Nodes" }</button>
        </section>
    }
}
