//! The document's lookups: one row each with its key, merge and default,
//! and its result, live. A row is selected with a click or the keyboard.

use hiera_core::case::CaseLookup;
use hiera_core::merge::MergeOptions;
use hiera_core::playground::{Evaluation, Outcome};
use hiera_core::steps::Warning;
use hiera_core::{Puppet, Value};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::state::{Action, Format, Shown};

/// Props of [`Lookups`].
#[derive(Properties, PartialEq)]
pub struct LookupsProps {
    /// The lookups.
    pub lookups: Vec<CaseLookup>,
    /// Their results, in the same order.
    pub results: std::rc::Rc<Vec<Shown>>,
    /// The selected row.
    pub selected: Option<usize>,
    /// How values are shown.
    pub format: Format,
    /// The Puppet whose answers are shown.
    pub puppet: Puppet,
    /// Keys for completion.
    pub keys: std::rc::Rc<Vec<String>>,
    /// Where actions go.
    pub dispatch: Callback<Action>,
    /// Shows results only: no editing.
    #[prop_or_default]
    pub readonly: bool,
    /// Shows only this lookup.
    #[prop_or_default]
    pub only: Option<usize>,
    /// Whether Why is on show: it tells the selected lookup's warnings, so
    /// its row does not tell them again.
    #[prop_or_default]
    pub why_shown: bool,
}

/// Props of [`KnownKeys`].
#[derive(Properties, PartialEq)]
struct KnownKeysProps {
    keys: std::rc::Rc<Vec<String>>,
}

/// The keys the key inputs complete from; a component of its own so that
/// a large list is drawn again only when the keys change, not on every result.
#[function_component(KnownKeys)]
fn known_keys(props: &KnownKeysProps) -> Html {
    html! {
        <datalist id="known-keys">
            { for props.keys.iter().map(|k| html! { <option value={k.clone()} /> }) }
        </datalist>
    }
}

/// The list of lookups.
#[function_component(Lookups)]
pub fn lookups(props: &LookupsProps) -> Html {
    let list = use_node_ref();
    let onkeydown = {
        let (dispatch, list, count, selected, only) =
            (props.dispatch.clone(), list.clone(), props.lookups.len(), props.selected, props.only);
        Callback::from(move |e: KeyboardEvent| {
            // Enter on a row selects it.
            if e.key() == "Enter"
                && e.target().and_then(|t| t.dyn_into::<HtmlElement>().ok()).is_some_and(|t| t.tag_name() == "LI")
            {
                if let Some(i) = row_of(&e) {
                    dispatch.emit(Action::Select(i));
                }
                return;
            }
            // Arrow keys move between rows, unless they are moving a cursor in a field.
            let in_field = e
                .target()
                .and_then(|t| t.dyn_into::<HtmlElement>().ok())
                .is_some_and(|t| matches!(t.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA"));
            // An embed showing one lookup has no other row to move to.
            if in_field || count == 0 || only.is_some() {
                return;
            }
            let next = match e.key().as_str() {
                "ArrowDown" => selected.map_or(0, |s| (s + 1).min(count - 1)),
                "ArrowUp" => selected.map_or(0, |s| s.saturating_sub(1)),
                "Home" => 0,
                "End" => count - 1,
                _ => return,
            };
            e.prevent_default();
            dispatch.emit(Action::Select(next));
            focus_row(&list, next);
        })
    };
    // A click or focus in a row selects it.
    let select = {
        let (dispatch, selected) = (props.dispatch.clone(), props.selected);
        move |e: &Event| {
            if let Some(i) = row_of(e).filter(|i| Some(*i) != selected) {
                dispatch.emit(Action::Select(i));
            }
        }
    };
    let onclick = {
        let select = select.clone();
        Callback::from(move |e: MouseEvent| select(&e))
    };
    let onfocusin = Callback::from(move |e: FocusEvent| select(&e));
    // A lookup added with the button gets the cursor in its key.
    let adding = use_mut_ref(|| false);
    {
        let (adding, list) = (adding.clone(), list.clone());
        use_effect_with(props.lookups.len(), move |_| {
            if std::mem::take(&mut *adding.borrow_mut()) {
                let last = list.cast::<web_sys::Element>().and_then(|l| {
                    let keys = l.query_selector_all("[data-testid=lookup-key]").ok()?;
                    keys.item(keys.length().checked_sub(1)?)
                });
                if let Some(key) = last.and_then(|k| k.dyn_into::<HtmlElement>().ok()) {
                    let _ = key.focus();
                }
            }
        });
    }
    let add = {
        let (dispatch, adding) = (props.dispatch.clone(), adding.clone());
        Callback::from(move |_: MouseEvent| {
            *adding.borrow_mut() = true;
            dispatch.emit(Action::AddLookup);
        })
    };
    // A few messages at most: a list is smaller code than a set.
    let told = std::cell::RefCell::new(Vec::<&str>::new());
    html! {
        <section class="lookups" aria-label="Lookups">
            <KnownKeys keys={props.keys.clone()} />
            <ol class="lookup-list" ref={list} {onkeydown} {onclick} {onfocusin} role="listbox" aria-label="Lookups">
                { for props.lookups.iter().enumerate().filter(|(i, _)| props.only.is_none_or(|o| o == *i)).map(|(i, l)| {
                    // A warning about the document (a hierarchy path) is told once, on the first row that meets it;
                    // the selected row's are told by Why while it is on show.
                    let told_by_why = props.why_shown && props.selected == Some(i);
                    let fresh: Vec<&Warning> = props.results.get(i).filter(|_| !unkeyed(l) && !told_by_why).map_or(Vec::new(), |r| {
                        let mut told = told.borrow_mut();
                        let fresh: Vec<&Warning> = r.warnings.iter().filter(|w| !told.contains(&w.message.as_str())).collect();
                        told.extend(fresh.iter().map(|w| w.message.as_str()));
                        fresh
                    });
                    row(i, l, props, &fresh)
                }) }
            </ol>
            if !props.readonly {
                <button type="button" class="add-lookup" data-testid="add-lookup" onclick={add}>{ "+ Add lookup" }</button>
            }
        </section>
    }
}

/// The row an event happened in, unless it happened on one of the row's
/// buttons, check boxes or labels, which act on their own (selecting would
/// redraw the row under them, and a removed row must not become the
/// selection).
fn row_of(e: &Event) -> Option<usize> {
    let target = e.target()?.dyn_into::<web_sys::Element>().ok()?;
    let tag = target.tag_name();
    let control = tag == "BUTTON"
        || tag == "LABEL"
        || (tag == "INPUT" && target.get_attribute("type").as_deref() == Some("checkbox"));
    if control {
        return None;
    }
    target.closest("[data-index]").ok()??.get_attribute("data-index")?.parse().ok()
}

fn focus_row(list: &NodeRef, index: usize) {
    if let Some(row) = list
        .cast::<web_sys::Element>()
        .and_then(|l| l.query_selector_all("[data-testid=lookup-row]").ok())
        .and_then(|rows| rows.item(index as u32))
        .and_then(|r| r.dyn_into::<HtmlElement>().ok())
    {
        let _ = row.focus();
    }
}

fn row(i: usize, l: &CaseLookup, props: &LookupsProps, warnings: &[&Warning]) -> Html {
    let selected = props.selected == Some(i);
    // The list is one stop for Tab: the selected row (the first shown while
    // no shown row is selected), its controls, and nothing of the other
    // rows; arrow keys move between rows.
    let shown = |r: usize| r < props.lookups.len() && props.only.is_none_or(|o| o == r);
    let stop = selected || (!props.selected.is_some_and(shown) && i == props.only.unwrap_or(0));
    let inner = (!stop).then_some("-1");
    let update = {
        let (dispatch, lookup) = (props.dispatch.clone(), l.clone());
        move |change: Box<dyn Fn(&mut CaseLookup)>| {
            let mut l = lookup.clone();
            change(&mut l);
            dispatch.emit(Action::UpdateLookup(i, l));
        }
    };
    let on_key = {
        let update = update.clone();
        Callback::from(move |e: InputEvent| {
            let text = e.target_unchecked_into::<HtmlInputElement>().value();
            update(Box::new(move |l| set_keys(l, &text)));
        })
    };
    // Each merge control changes one option and keeps the others.
    let merge = l.merge_options();
    let set_merge: SetMerge = {
        let (update, merge) = (update.clone(), merge.clone());
        Rc::new(move |change: Box<dyn Fn(&mut MergeOptions)>| {
            let mut merge = merge.clone();
            change(&mut merge);
            update(Box::new(move |l| l.merge = merge.to_value()));
        })
    };
    let on_default = {
        let update = update.clone();
        Callback::from(move |e: InputEvent| {
            let text = e.target_unchecked_into::<HtmlInputElement>().value();
            update(Box::new(move |l| l.default = parse_default(&text)));
        })
    };
    let remove = props.dispatch.reform(move |e: MouseEvent| {
        e.stop_propagation();
        Action::RemoveLookup(i)
    });
    let pinned = l.expect.is_some();
    let pin = props.dispatch.reform(move |_: MouseEvent| Action::Pin(i, !pinned));
    let key_text = if l.key_is_list { l.keys.join(", ") } else { l.keys.first().cloned().unwrap_or_default() };
    let default_text = l
        .default
        .as_ref()
        .map(|d| hiera_core::yaml::to_yaml(d).trim_start_matches("--- ").trim_end().to_string())
        .unwrap_or_default();
    let empty = unkeyed(l);
    let result = props.results.get(i).map(|r| &**r).filter(|_| !empty);
    let (status, value_json, rendered, error) = match result.map(|r| &r.outcome) {
        Some(Outcome::Found(r)) => ("found", Some(r.json.clone()), r.rich.clone(), None),
        Some(Outcome::Failed { message, .. }) => ("error", None, None, Some(message.clone())),
        None if empty => ("empty", None, None, None),
        None => ("pending", None, None, None),
    };
    html! {
        <li class={classes!("lookup-row", selected.then_some("selected"))} data-testid="lookup-row"
            data-key={l.key_label()} data-merge={(!merge.strategy.is_empty()).then(|| merge.strategy.clone())} data-status={status} data-value-json={value_json} data-value-rendered={rendered}
            data-error={error} data-index={i.to_string()} role="option" aria-selected={selected.to_string()} tabindex={if stop { "0" } else { "-1" }}>
            <div class="lookup-inputs">
                <input class="key" type="text" list="known-keys" value={key_text} placeholder="key (several: a, b)"
                    aria-label="Key" spellcheck="false" autocomplete="off" data-testid="lookup-key" oninput={on_key} readonly={props.readonly} tabindex={inner} />
                { merge_menu(&merge, &set_merge, props.readonly, inner) }
                <input class="default" type="text" value={default_text} placeholder="default" aria-label="Default value"
                    spellcheck="false" autocomplete="off" data-testid="lookup-default" oninput={on_default} readonly={props.readonly} tabindex={inner} />
                if !props.readonly {
                    <button type="button" class="icon" data-testid="pin" aria-pressed={pinned.to_string()} onclick={pin} tabindex={inner}
                        aria-label={if pinned { "Forget the expected answer" } else { "Pin this answer as expected" }}
                        title={if pinned { "Forget the expected answer" } else { "Pin this answer as expected: the row then tells whether the lookup still gives it, and hiera-lookup conformance runs the saved document as a test" }}>
                        { if pinned { "★" } else { "☆" } }</button>
                    <button type="button" class="icon" aria-label="Remove lookup" title="Remove lookup" onclick={remove} tabindex={inner}>{ "×" }</button>
                }
            </div>
            if merge.strategy == "deep" { { deep_options(&merge, &set_merge, props.readonly) } }
            if empty { <p class="muted" data-testid="lookup-empty">{ "Type a key to look it up." }</p> }
            { result.map(|r| answer_view(r, l, props)).unwrap_or_default() }
            if selected && !props.readonly && result.is_some() {
                <button type="button" class="link" data-testid="share-minimal" tabindex={inner}
                    title="The smallest document that gives this lookup the same answer and explanation: only the files, keys and facts it reads"
                    onclick={props.dispatch.reform(move |_: MouseEvent| Action::ShareMinimal(i))}>{ "Share a minimal example" }</button>
            }
            if !warnings.is_empty() {
                <ul class="row-warnings">
                    { for warnings.iter().map(|w| html! { <li class="warning" data-kind={w.kind}>{ "⚠ " }{ &w.message }{ " " }{ crate::components::why::doc_link(w, inner) }</li> }) }
                </ul>
            }
        </li>
    }
}

/// A row's answer: the value or error, whether it is the expected one, and
/// what the other Puppet answers where that differs.
fn answer_view(result: &Evaluation, lookup: &CaseLookup, props: &LookupsProps) -> Html {
    // The answer is just above: a failed pin says only what was expected.
    let expected = lookup.expect.as_ref().map(hiera_core::case::describe).unwrap_or_default();
    html! {
        <>
            { outcome_view(&result.outcome, props.format, "lookup") }
            if let Some(check) = result.expectation.as_ref() {
                <p class={classes!("expectation", if check.is_ok() { "pass" } else { "fail" })} data-testid="expectation"
                    data-state={if check.is_ok() { "pass" } else { "fail" }} title={check.as_ref().err().map(|diff| diff.to_string())}>
                    { if check.is_ok() { "✓ the expected answer".to_string() } else { format!("✗ expected {expected}") } }
                </p>
            }
            if let Some(other) = result.other_puppet.as_ref() {
                { other_puppet_view(other, props) }
            }
        </>
    }
}

/// Changes one merge option of a row, keeping the others.
type SetMerge = Rc<dyn Fn(Box<dyn Fn(&mut MergeOptions)>)>;

/// The merge strategy menu (`tabindex`: see [`row`]).
fn merge_menu(merge: &MergeOptions, set_merge: &SetMerge, readonly: bool, tabindex: Option<&'static str>) -> Html {
    let set_merge = set_merge.clone();
    let on_merge = Callback::from(move |e: Event| {
        let name = e.target_unchecked_into::<HtmlSelectElement>().value();
        set_merge(Box::new(move |m| m.strategy = name.clone()));
    });
    html! {
        <select aria-label="Merge" data-testid="lookup-merge" onchange={on_merge} disabled={readonly} {tabindex}>
            { for MERGES.iter().map(|(v, label, title)| html! { <option value={*v} selected={merge.strategy == *v} title={*title}>{ *label }</option> }) }
        </select>
    }
}

/// A deep merge's options.
fn deep_options(merge: &MergeOptions, set_merge: &SetMerge, readonly: bool) -> Html {
    let on_prefix = {
        let set_merge = set_merge.clone();
        Callback::from(move |e: InputEvent| {
            let p = e.target_unchecked_into::<HtmlInputElement>().value();
            set_merge(Box::new(move |m| m.knockout_prefix = (!p.is_empty()).then(|| p.clone())));
        })
    };
    let on_sort = {
        let set_merge = set_merge.clone();
        Callback::from(move |e: Event| {
            let on = e.target_unchecked_into::<HtmlInputElement>().checked();
            set_merge(Box::new(move |m| m.sort_merged_arrays = on));
        })
    };
    let on_hash_arrays = {
        let set_merge = set_merge.clone();
        Callback::from(move |e: Event| {
            let on = e.target_unchecked_into::<HtmlInputElement>().checked();
            set_merge(Box::new(move |m| m.merge_hash_arrays = on));
        })
    };
    html! {
        <div class="deep-options">
            <label>{ "knockout prefix " }<input type="text" size="4" value={merge.knockout_prefix.clone().unwrap_or_default()} aria-label="Knockout prefix" data-testid="knockout-prefix" oninput={on_prefix} readonly={readonly} /></label>
            <label><input type="checkbox" checked={merge.sort_merged_arrays} data-testid="sort-merged-arrays" onchange={on_sort} disabled={readonly} />{ " sort merged arrays" }</label>
            <label><input type="checkbox" checked={merge.merge_hash_arrays} data-testid="merge-hash-arrays" onchange={on_hash_arrays} disabled={readonly} />{ " merge hash arrays" }</label>
        </div>
    }
}

/// A value or an error; its hooks are `{testid}-value` and `{testid}-error`.
fn outcome_view(outcome: &Outcome, format: Format, testid: &str) -> Html {
    match outcome {
        Outcome::Found(r) => {
            let text = match format {
                Format::Yaml => r.yaml.trim_start_matches("--- ").trim_start_matches("---\n").trim_end().to_string(),
                Format::Json => r.value.to_json_pretty().unwrap_or_else(|_| r.json.clone()),
                Format::Puppet => r.puppet.clone(),
            };
            html! { <pre class="value" data-testid={format!("{testid}-value")}>{ text }</pre> }
        }
        Outcome::Failed { message, not_found, .. } => {
            html! { <p class={classes!("lookup-error", not_found.then_some("not-found"))} data-testid={format!("{testid}-error")}>{ message }</p> }
        }
    }
}

/// What the other Puppet answers, folded, with the switch to it.
fn other_puppet_view(other: &Outcome, props: &LookupsProps) -> Html {
    let puppet = props.puppet.other();
    let switch = props.dispatch.reform(move |_: MouseEvent| Action::SetPuppet(puppet));
    html! {
        <details class="other-puppet" data-testid="other-puppet">
            <summary>{ format!("{} answers otherwise", puppet.release()) }</summary>
            { outcome_view(other, props.format, "other-puppet") }
            if !props.readonly {
                <button type="button" data-testid="switch-puppet" onclick={switch}>{ format!("Answer as {}", puppet.release()) }</button>
            }
        </details>
    }
}

/// A lookup whose key is still to be typed: it has nothing to tell yet.
fn unkeyed(l: &CaseLookup) -> bool {
    l.keys.iter().all(|k| k.trim().is_empty())
}

fn set_keys(l: &mut CaseLookup, text: &str) {
    if text.contains(',') {
        l.keys = text.split(',').map(|k| k.trim().to_string()).filter(|k| !k.is_empty()).collect();
        l.key_is_list = true;
    } else {
        l.keys = vec![text.trim().to_string()];
        l.key_is_list = false;
    }
}

/// The merge menu: (value, label, what it does).
const MERGES: [(&str, &str, &str); 5] = [
    ("", "merge: lookup_options", "As the key's lookup_options say; the first value found when they say nothing"),
    ("first", "first", "The first value found: the highest level's"),
    ("unique", "unique", "Arrays and values of every level, flattened, duplicates removed"),
    ("hash", "hash", "The hashes of every level; a higher level's key wins"),
    ("deep", "deep", "Hashes merged all the way down, arrays joined; options below"),
];

/// A default typed in the row: YAML (`[a, b]` is an array); empty is none.
fn parse_default(text: &str) -> Option<Value> {
    if text.trim().is_empty() {
        return None;
    }
    match hiera_core::yaml::load(text) {
        Ok(Some((v, _))) => Some(v),
        _ => Some(Value::from(text)),
    }
}
