//! Classes: each class of the document's manifests as `include` binds it
//! for the node, a row a parameter (its type, value, where the value comes
//! from, and whether it passes its type), each opening Why for its key.

use hiera_core::classes::{Bound, From};
use hiera_core::playground::BoundClass;
use yew::prelude::*;

use crate::components::all_keys::wrapped;
use crate::state::{Action, Same};

/// Props of [`Classes`].
#[derive(Properties, PartialEq)]
pub struct ClassesProps {
    /// What the reducer bound (see `State::classes`).
    pub classes: Same<Vec<BoundClass>>,
    /// Where actions go.
    pub dispatch: Callback<Action>,
}

/// Every class, a table each.
#[function_component(Classes)]
pub fn classes(props: &ClassesProps) -> Html {
    if props.classes.is_empty() {
        return html! {
            <p class="muted" data-testid="classes-empty">
                { "No classes yet. A class in " }<code>{ "modules/NAME/manifests/init.pp" }</code>
                { " (" }<code>{ "class NAME (Integer $port = 80) { }" }</code>
                { ") shows here with what each parameter gets from Hiera for this node, checked against its type as Puppet checks it." }
            </p>
        };
    }
    // A class the edit did not change is not drawn again.
    html! {
        <div class="classes" data-testid="classes-view">
            { for props.classes.iter().map(|c| html! {
                <Class key={c.binding.class.clone()} class={c.clone()} dispatch={props.dispatch.clone()} />
            }) }
        </div>
    }
}

/// Props of [`Class`].
#[derive(Properties, PartialEq)]
struct ClassProps {
    class: BoundClass,
    dispatch: Callback<Action>,
}

/// One class's table.
#[function_component(Class)]
fn class(props: &ClassProps) -> Html {
    let (c, dispatch) = (&props.class, &props.dispatch);
    let b = &c.binding;
    let file = c.file.clone();
    let line = b.defined.as_ref().map_or(1, |d| d.header.line);
    let open = dispatch.reform(move |_: MouseEvent| Action::Reveal(file.clone(), line));
    let status = if b.error.is_some() { "error" } else { "ok" };
    let rows = b.parameters.iter().zip(&c.sources).map(|(p, sources)| {
        let value = match &p.value {
            Bound::Value(v) => {
                let shown = hiera_core::case::rich_rendering(v).unwrap_or_else(|| v.to_json().unwrap_or_else(|_| v.inspect()));
                html! { <code>{ shown }</code> }
            }
            Bound::Unevaluated(source) => html! {
                <span title="Only Puppet's compiler evaluates this default"><code>{ source }</code>{ " (evaluated by Puppet when compiling)" }</span>
            },
            Bound::Missing => html! { <span class="muted">{ "no value" }</span> },
        };
        let from = match p.from {
            From::Hiera => {
                let links = sources.iter().map(|s| {
                    let (file, line) = (s.file.clone(), s.line.unwrap_or(1));
                    let reveal = dispatch.reform(move |_: MouseEvent| Action::Reveal(file.clone(), line));
                    let text = format!("{} ({}:{line})", s.level, s.file);
                    html! { <button type="button" class="link" data-testid="parameter-source" onclick={reveal}>{ text }</button> }
                });
                html! { <>{ for links }</> }
            }
            From::Default => html! { { "default" } },
            From::Nothing => html! { <span class="muted">{ "nothing" }</span> },
        };
        let check = match &p.mismatch {
            Some(m) => html! { <span class="lookup-error" data-testid="parameter-mismatch">{ format!("✗ {m}") }</span> },
            None if matches!(p.value, Bound::Unevaluated(_)) => html! { <span class="muted">{ "?" }</span> },
            None => html! { <span class="ok" title="passes its type">{ "✓" }</span> },
        };
        let (class_name, param) = (b.class.clone(), p.name.clone());
        let why = dispatch.reform(move |_: MouseEvent| Action::WhyParameter(class_name.clone(), param.clone()));
        let status = if p.mismatch.is_some() { "error" } else { "ok" };
        html! {
            <tr data-testid="class-parameter" data-parameter={p.name.clone()} data-status={status}>
                <td class="key">
                    <button type="button" class="link" title={format!("Why: {}::{}", b.class, p.name)} onclick={why}>{ format!("${}", p.name) }</button>
                </td>
                <td><code>{ p.type_text.clone().unwrap_or_else(|| "Any".into()) }</code></td>
                <td>{ value }</td>
                <td>{ from }</td>
                <td>{ check }</td>
            </tr>
        }
    });
    html! {
        <section class="class-binding" data-testid="class" data-class={b.class.clone()} data-status={status}>
            <h3>
                { "class " }{ wrapped(&b.class) }{ " " }
                <button type="button" class="link" onclick={open}>{ format!("{}:{line}", c.file) }</button>
            </h3>
            if let Some(e) = &b.error {
                <p class="lookup-error" data-testid="class-error">{ e }</p>
            }
            if !b.parameters.is_empty() {
                <table class="key-browser">
                    <thead><tr><th>{ "Parameter" }</th><th>{ "Type" }</th><th>{ "Value" }</th><th>{ "From" }</th><th>{ "Check" }</th></tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            }
        </section>
    }
}
