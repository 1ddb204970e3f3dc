//! The node a lookup is made for: its name, its environment and its facts,
//! with presets for common kinds of node; and the Puppet that answers.

use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

use hiera_core::Puppet;

use crate::state::Action;

/// Facts of typical nodes: (label, node name, facts as YAML).
const PRESETS: &[(&str, &str, &str)] = &[
    (
        "Linux web node",
        "web01.example.com",
        "role: web\nos:\n  family: Debian\n  name: Debian\n  release:\n    major: \"12\"\n    full: \"12.5\"\nkernel: Linux\nvirtual: kvm\nnetworking:\n  ip: 10.0.1.21\n  domain: example.com\n",
    ),
    (
        "Database node",
        "db01.example.com",
        "role: database\nos:\n  family: RedHat\n  name: Rocky\n  release:\n    major: \"9\"\n    full: \"9.3\"\nkernel: Linux\nvirtual: physical\nmemory:\n  system:\n    total_bytes: 68719476736\nnetworking:\n  ip: 10.0.2.10\n  domain: example.com\n",
    ),
    (
        "Windows node",
        "win01.example.com",
        "role: app\nos:\n  family: windows\n  name: windows\n  release:\n    major: \"2022\"\n    full: \"2022\"\nkernel: windows\nvirtual: hyperv\nnetworking:\n  ip: 10.0.3.15\n  domain: example.com\n",
    ),
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
        Callback::from(move |e: Event| {
            let select = e.target_unchecked_into::<HtmlSelectElement>();
            if let Some((_, node, facts)) = select.value().parse::<usize>().ok().and_then(|i| PRESETS.get(i)) {
                dispatch.emit(Action::SetFacts(facts.to_string()));
                dispatch.emit(Action::SetNode(node.to_string()));
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
                <label for="facts">{ "Facts (YAML)" }</label>
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
        </section>
    }
}
