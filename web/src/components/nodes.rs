//! Nodes: every lookup's answer for every node of the document, the cells
//! that differ from the shown node's marked; nodes added from presets or as
//! copies of the shown one; what each node's paths read and what `puppet
//! lookup` adds; and, once the answers are pinned, every (node, lookup)
//! whose answer an edit changed, said as `hiera-lookup diff` says it.

use hiera_core::fleet::{Answer, Mark};
use hiera_core::playground::Variable;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::components::node_panel::{preset_options, presets, Preset};
use crate::state::{Action, Fleet, Notice, Same};

/// Props of [`Nodes`].
#[derive(Properties, PartialEq)]
pub struct NodesProps {
    /// What the reducer answered (see `State::fleet`).
    pub fleet: Same<Fleet>,
    /// The shown node's facts as typed: a new node's, unless a preset's.
    pub facts: AttrValue,
    /// The lookup selected: its answers are also shown grouped by value.
    pub selected: Option<usize>,
    /// Where actions go.
    pub dispatch: Callback<Action>,
}

/// The panel.
#[function_component(Nodes)]
pub fn nodes(props: &NodesProps) -> Html {
    let fleet = &props.fleet;
    let body = if fleet.table.keys.is_empty() {
        html! { <p class="muted">{ "Add a lookup to compare its answer across nodes." }</p> }
    } else {
        html! {
            <>
                { pin_bar(fleet, &props.dispatch) }
                <div class="fleet-scroll">
                    <table class="fleet-table" data-testid="fleet-table">
                        { head(fleet, &props.dispatch) }
                        { answers(fleet, &props.dispatch) }
                        { variables(fleet, &fleet.scopes.used, "fleet-variable", "What the hierarchy's paths read",
                            "The variables the hierarchy's paths interpolated for these lookups: where they differ, the nodes read different files") }
                        { variables(fleet, &fleet.scopes.added, "fleet-added", "What puppet lookup adds to the facts",
                            "puppet lookup fills in clientcert, fqdn, hostname and domain where the facts do not give them, and sets trusted (and, on Puppet 8, server_facts)") }
                    </table>
                </div>
                { props.selected.map(|row| value_groups(fleet, row)) }
                if !fleet.changes.is_empty() {
                    <ul class="fleet-changes" data-testid="fleet-changes">
                        { for fleet.changes.iter().map(|c| html! { <li data-testid="fleet-change"><code>{ c.to_string() }</code></li> }) }
                    </ul>
                }
            </>
        }
    };
    html! {
        <>
            <AddNode facts={props.facts.clone()} dispatch={props.dispatch.clone()} />
            { body }
        </>
    }
}

/// One lookup across the nodes: each answer once, with the nodes that get it.
fn value_groups(fleet: &Fleet, row: usize) -> Html {
    let (Some(key), groups) = (fleet.table.keys.get(row), fleet.table.groups(row)) else { return html! {} };
    if fleet.table.nodes.len() < 2 {
        return html! {};
    }
    let answers = if groups.len() == 1 { "the same answer".to_string() } else { format!("{} answers", groups.len()) };
    html! {
        <section class="value-groups" data-testid="value-groups" aria-label="Answers by value">
            <h3>{ crate::components::all_keys::wrapped(key) }{ format!(" on {} nodes: {answers}", fleet.table.nodes.len()) }</h3>
            <ul>
                { for groups.into_iter().map(|(answer, nodes)| html! {
                    <li data-testid="value-group" data-count={nodes.len().to_string()}>
                        <code class={classes!(matches!(answer, Answer::Error(_)).then_some("lookup-error"))}>{ answer.to_string() }</code>
                        <span class="muted">{ format!(" {} node{}: ", nodes.len(), if nodes.len() == 1 { "" } else { "s" }) }</span>
                        { nodes.join(", ") }
                    </li>
                }) }
            </ul>
        </section>
    }
}

fn pin_bar(fleet: &Fleet, dispatch: &Callback<Action>) -> Html {
    let pinned = fleet.pinned.is_some();
    let summary = match (pinned, fleet.table.nodes.len()) {
        (true, _) => {
            let n = fleet.changes.len();
            format!("{n} answer{} changed since the pin", if n == 1 { "" } else { "s" })
        }
        (false, 1) => "Add nodes to compare their answers; pin the answers, then edit, to see what changes.".into(),
        (false, _) => "Pin the answers, then edit, to see every node's answer that changes.".into(),
    };
    html! {
        <div class="fleet-bar">
            <button type="button" data-testid="pin-fleet" aria-pressed={pinned.to_string()} onclick={dispatch.reform(move |_| Action::PinFleet(!pinned))}>
                { if pinned { "Unpin" } else { "Pin these answers" } }
            </button>
            <span class="muted" data-testid="fleet-summary">{ summary }</span>
        </div>
    }
}

fn head(fleet: &Fleet, dispatch: &Callback<Action>) -> Html {
    let columns = fleet.table.nodes.iter().enumerate().map(|(column, node)| {
        let environment = fleet.environments.get(column).filter(|e| Some(*e) != fleet.environments.first());
        let remove = dispatch.reform(move |_: MouseEvent| Action::RemoveNode(column - 1));
        html! {
            <th scope="col" data-testid="fleet-node" data-node={node.clone()} class={(column == 0).then_some("shown")}>
                <span title={if column == 0 { "The node shown in Why, Explain and the facts".to_string() } else { node.clone() }}>{ node }</span>
                if let Some(environment) = environment {
                    <span class="muted" data-testid="fleet-node-environment" title="This node's environment">{ format!(" ({environment})") }</span>
                }
                if column > 0 {
                    <button type="button" class="icon" aria-label={format!("Remove {node}")} data-testid="remove-node" onclick={remove}>{ "×" }</button>
                }
            </th>
        }
    });
    html! { <thead><tr><th scope="col">{ "Lookup" }</th>{ for columns }</tr></thead> }
}

fn answers(fleet: &Fleet, dispatch: &Callback<Action>) -> Html {
    let table = &fleet.table;
    let rows = table.keys.iter().zip(&table.answers).enumerate().map(|(row, (key, answers))| {
        let cells = answers.iter().zip(&table.nodes).enumerate().map(|(column, (answer, node))| {
            let (state, title) = match table.mark(row, column, fleet.pinned.as_deref()) {
                Mark::Changed(before) => ("changed", format!("{node}: {before} -> {answer} since the pin")),
                Mark::Differs => ("differs", format!("{node}: {answer}")),
                Mark::Same => ("same", format!("{node}: {answer}")),
            };
            let failed = matches!(answer, Answer::Error(_));
            html! {
                <td>
                    <button type="button" class={classes!("cell", failed.then_some("failed"))} data-testid="fleet-cell" data-node={node.clone()}
                        data-state={state} {title} onclick={dispatch.reform(move |_: MouseEvent| Action::OpenWhy(column, row))}>
                        { answer.to_string() }
                    </button>
                </td>
            }
        });
        html! {
            <tr data-testid="fleet-row" data-key={key.clone()} data-varies={table.varies(row).to_string()}>
                <th scope="row">{ crate::components::all_keys::wrapped(key) }</th>
                { for cells }
            </tr>
        }
    });
    html! { <tbody>{ for rows }</tbody> }
}

/// A group of variable rows (`testid` each), a value per node; those that
/// differ from the shown node's marked.
fn variables(fleet: &Fleet, rows: &[Variable], testid: &str, title: &str, help: &str) -> Html {
    if rows.is_empty() {
        return html! {};
    }
    let span = (fleet.table.nodes.len() + 1).to_string();
    let rows = rows.iter().map(|row| {
        let first = row.values.first().cloned().flatten();
        let values = row.values.iter().zip(&fleet.table.nodes).map(|(value, node)| {
            let class = if *value == first { "variable" } else { "variable differs" };
            html! { <td {class} data-node={node.clone()}>{ value.clone().unwrap_or_else(|| "—".into()) }</td> }
        });
        html! {
            <tr data-testid={testid.to_string()} data-name={row.name.clone()}>
                <th scope="row"><code>{ &row.name }</code></th>
                { for values }
            </tr>
        }
    });
    html! {
        <tbody data-testid={format!("{testid}s")}>
            <tr><th colspan={span} class="fleet-group" title={help.to_string()}>{ title }</th></tr>
            { for rows }
        </tbody>
    }
}

/// Props of [`AddNode`].
#[derive(Properties, PartialEq)]
struct AddNodeProps {
    facts: AttrValue,
    dispatch: Callback<Action>,
}

/// A node beside the document's own: a name, an environment (empty: the
/// document's) and facts, a preset's (fetched) or the shown node's.
#[function_component(AddNode)]
fn add_node(props: &AddNodeProps) -> Html {
    let (name, environment, source) = (use_node_ref(), use_node_ref(), use_node_ref());
    let onsubmit = {
        let (name, environment, source) = (name.clone(), environment.clone(), source.clone());
        let (dispatch, facts) = (props.dispatch.clone(), props.facts.to_string());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let (Some(name), Some(environment), Some(source)) = (
                name.cast::<HtmlInputElement>(),
                environment.cast::<HtmlInputElement>(),
                source.cast::<HtmlSelectElement>(),
            ) else {
                return;
            };
            let preset = source.value().parse::<usize>().ok().and_then(|i| presets().get(i).cloned());
            let typed = name.value().trim().to_string();
            let node = if typed.is_empty() { preset.as_ref().map_or("node".into(), |p| p.node.clone()) } else { typed };
            let env = Some(environment.value().trim().to_string()).filter(|e| !e.is_empty());
            name.set_value("");
            let (dispatch, facts) = (dispatch.clone(), facts.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let facts = match preset.filter(|p| !p.file.is_empty()) {
                    Some(Preset { file, .. }) => crate::browser::fetch_text(&format!("facts/{file}")).await,
                    None => Ok(facts),
                };
                match facts {
                    Ok(facts) => dispatch.emit(Action::AddNode(node, env, facts)),
                    Err(e) => dispatch
                        .emit(Action::Notify(Notice { text: format!("Could not add {node}: {e}"), error: true })),
                }
            });
        })
    };
    html! {
        <form class="add-node" data-testid="add-node-form" {onsubmit}>
            <input type="text" data-testid="add-node-name" aria-label="New node's name" placeholder="node name" spellcheck="false" autocomplete="off" ref={name} />
            <input type="text" data-testid="add-node-environment" aria-label="New node's environment" placeholder="environment" size="11"
                title="Empty: the document's. Another environment's files are given by their full path, /etc/puppetlabs/code/environments/NAME/…"
                spellcheck="false" autocomplete="off" ref={environment} />
            <select data-testid="add-node-facts" aria-label="New node's facts" ref={source}>
                <option value="">{ "this node's facts" }</option>
                { preset_options(presets().iter().enumerate().filter(|(_, p)| !p.file.is_empty())) }
            </select>
            <button type="submit" data-testid="add-node">{ "+ Add node" }</button>
        </form>
    }
}
