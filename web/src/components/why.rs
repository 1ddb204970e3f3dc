//! "Why is this the value?": the selected lookup's search as steps, one per
//! place Hiera looked, with what each `%{...}` became, the value found, the
//! merged value after it and what that step changed; the `lookup_options`
//! that applied; the traps; and the file and line of every leaf.

use std::time::Duration;

use hiera_core::playground::{Evaluation, Outcome};
use hiera_core::steps::{leaf_sources, path_text, value_at, Change, Segment, Step};
use hiera_core::Value;
use wasm_bindgen_futures::spawn_local;
use yew::prelude::*;

use crate::state::Shown;

/// Props of [`Why`].
#[derive(Properties, PartialEq)]
pub struct WhyProps {
    /// The selected lookup's evaluation.
    pub evaluation: Option<Shown>,
    /// The document path of an absolute path.
    pub relative: Callback<String, String>,
    /// Opens a file at a line.
    pub reveal: Callback<(String, usize)>,
    /// Creates a file (a document path) and opens it.
    pub create: Callback<String>,
}

/// A value as compact text.
fn show(v: &Value) -> String {
    v.to_json().unwrap_or_else(|_| v.inspect())
}

fn show_path(path: &[Segment]) -> String {
    if path.is_empty() {
        return "(the value)".into();
    }
    path_text(path)
}

/// The steps panel.
#[function_component(Why)]
pub fn why(props: &WhyProps) -> Html {
    let current = use_state(|| usize::MAX);
    let playing = use_state(|| false);
    // Stepping through follows the search in the files: each step's file
    // opens at the line that was read (a file that is not there cannot).
    let followed = props.evaluation.as_ref().filter(|_| *current != usize::MAX).and_then(|e| {
        let step = e.steps.get((*current).min(e.steps.len().saturating_sub(1)))?;
        let line = step.origin.as_ref().map_or(1, |o| o.spans.at().line as usize);
        (step.outcome.as_str() != "not-found").then(|| (props.relative.emit(step.path.clone()), line))
    });
    {
        let reveal = props.reveal.clone();
        use_effect_with(followed, move |followed| {
            if let Some(place) = followed.clone() {
                reveal.emit(place);
            }
        });
    }
    let Some(evaluation) = &props.evaluation else {
        return html! { <p class="muted">{ "Select a lookup to see how Hiera found its value." }</p> };
    };
    let steps = &evaluation.steps;
    let count = steps.len();
    let stepping = *current != usize::MAX;
    // Show every step until the user steps through them.
    let at = if *current == usize::MAX { count.saturating_sub(1) } else { (*current).min(count.saturating_sub(1)) };
    let stepper = Stepper { current: current.clone(), count, at };
    let result = match &evaluation.outcome {
        Outcome::Found(r) => Some(&r.value),
        _ => None,
    };
    html! {
        <section class="why" data-testid="why" aria-label="How the value was found">
            { options_view(evaluation) }
            if !evaluation.warnings.is_empty() {
                <ul class="warnings">
                    { for evaluation.warnings.iter().map(|w| html! { <li class="warning" data-testid="warning" data-kind={w.kind}>{ "⚠ " }{ &w.message }{ " " }{ doc_link(w, None) }</li> }) }
                </ul>
            }
            if evaluation.failed_in_options {
                <p class="muted" data-testid="failed-in-options">
                    { "The lookup failed while Hiera read lookup_options, before it searched for this key. These are the places it read for them:" }
                </p>
            }
            if count > 0 {
                { stepper.controls(playing) }
            } else {
                <p class="muted">{ "No hierarchy level was searched for this key." }</p>
            }
            <ol class="merge-steps" data-testid="merge-steps" tabindex="0" onkeydown={stepper.keys()} aria-label="Places searched, most specific first">
                { for steps.iter().enumerate().map(|(i, s)| step_view(i, s, stepping && i == at, stepping && i > at, props)) }
            </ol>
            if let Some(value) = result {
                { sources_view(steps, value, props) }
            }
        </section>
    }
}

/// Stepping through the places: `current` is the step shown, `usize::MAX`
/// until the user steps (then every place is shown); `at` is the step
/// highlighted.
struct Stepper {
    current: UseStateHandle<usize>,
    count: usize,
    at: usize,
}

impl Stepper {
    fn stepping(&self) -> bool {
        *self.current != usize::MAX
    }

    /// Stepping starts at the first place.
    fn back(&self) -> usize {
        if self.stepping() {
            self.at.saturating_sub(1)
        } else {
            0
        }
    }

    fn forward(&self) -> usize {
        if self.stepping() {
            (self.at + 1).min(self.count.saturating_sub(1))
        } else {
            0
        }
    }

    /// Back, the position, Next and Play.
    fn controls(&self, playing: UseStateHandle<bool>) -> Html {
        let (current, count, at) = (self.current.clone(), self.count, self.at);
        let (back, forward) = (self.back(), self.forward());
        let prev = {
            let current = current.clone();
            Callback::from(move |_: MouseEvent| current.set(back))
        };
        let next = {
            let current = current.clone();
            Callback::from(move |_: MouseEvent| current.set(forward))
        };
        let play = {
            let playing = playing.clone();
            Callback::from(move |_: MouseEvent| {
                if *playing || count == 0 {
                    return;
                }
                playing.set(true);
                let (current, playing) = (current.clone(), playing.clone());
                spawn_local(async move {
                    for i in 0..count {
                        current.set(i);
                        yew::platform::time::sleep(Duration::from_millis(700)).await;
                    }
                    playing.set(false);
                });
            })
        };
        let stepping = self.stepping();
        let position = match (stepping, count) {
            (true, _) => format!("Step {} of {count}", at + 1),
            (false, 1) => "1 place".to_string(),
            (false, _) => format!("{count} places"),
        };
        html! {
            <div class="step-controls">
                <button type="button" onclick={prev} data-testid="step-prev" disabled={at == 0 && stepping}>{ "◀ Back" }</button>
                <span data-testid="step-position">{ position }</span>
                <button type="button" onclick={next} data-testid="step-next">{ "Next ▶" }</button>
                <button type="button" onclick={play} data-testid="step-play" disabled={*playing}>{ "Play" }</button>
            </div>
        }
    }

    /// The arrow keys step back and forth.
    fn keys(&self) -> Callback<KeyboardEvent> {
        let (current, back, forward) = (self.current.clone(), self.back(), self.forward());
        Callback::from(move |e: KeyboardEvent| {
            let to = match e.key().as_str() {
                "ArrowLeft" | "ArrowUp" => back,
                "ArrowRight" | "ArrowDown" => forward,
                _ => return,
            };
            e.prevent_default();
            current.set(to);
        })
    }
}

fn options_view(e: &Evaluation) -> Html {
    let Some(o) = &e.options else { return html! {} };
    let merge = o.options.get("merge").map(show);
    let convert = o.options.get("convert_to").map(show);
    html! {
        <div class="applied-options" data-testid="applied-options">
            { "lookup_options from " }<code>{ &o.matched }</code>
            if let Some(m) = merge {
                { ": merge " }<code>{ m }</code>
                if o.merge_overridden { <strong>{ " (overridden by the merge given with this lookup)" }</strong> }
            }
            if let Some(c) = convert { { ", convert_to " }<code>{ c }</code> }
        </div>
    }
}

fn template_view(s: &Step) -> Html {
    // Each %{...} of the path template, marked with what it became.
    let mut parts = Vec::new();
    let mut rest = s.template.as_str();
    for t in &s.tokens {
        if let Some(i) = rest.find(&t.text) {
            parts.push(html! { { &rest[..i] } });
            let title =
                format!("{} → \"{}\"{}", t.expression, t.result, if t.undefined { " (not defined)" } else { "" });
            parts.push(html! { <mark class={classes!("token", t.undefined.then_some("undefined"))} title={title}>
                <span class="token-text">{ &t.text }</span><span class="token-result">{ if t.result.is_empty() { "∅".to_string() } else { t.result.clone() } }</span>
            </mark> });
            rest = &rest[i + t.text.len()..];
        }
    }
    parts.push(html! { { rest } });
    html! { <code class="template">{ for parts }</code> }
}

fn step_view(i: usize, s: &Step, current: bool, later: bool, props: &WhyProps) -> Html {
    let file = props.relative.emit(s.path.clone());
    let outcome_text = match s.outcome.as_str() {
        "found" => "found the key",
        "not-found" => "no such file",
        "failed" => "the value could not be used",
        _ => "file has no such key",
    };
    let line = s.origin.as_ref().map(|o| o.spans.at().line as usize).unwrap_or(1);
    let open = {
        let (reveal, file) = (props.reveal.clone(), file.clone());
        Callback::from(move |_: MouseEvent| reveal.emit((file.clone(), line)))
    };
    html! {
        <li class={classes!("merge-step", s.outcome.as_str(), current.then_some("current"), later.then_some("later"))}
            data-testid="merge-step" data-path={s.path.clone()} data-outcome={s.outcome.as_str()} aria-current={current.then_some("step")}>
            <div class="step-head">
                <span class="step-number">{ i + 1 }</span>
                <span class="step-level">{ &s.level }</span>
                <span class="step-layer muted" title={layer_title(&s.layer)}>{ s.layer.split(" (").next().unwrap_or(&s.layer).to_string() }</span>
                <span class={classes!("step-outcome", s.outcome.as_str())}>{ outcome_text }</span>
            </div>
            <div class="step-path">{ template_view(s) }{ " → " }
                if s.outcome.as_str() == "not-found" {
                    <code>{ &file }</code>
                    <button type="button" class="link create-file" data-testid="create-file" onclick={props.create.reform({ let file = file.clone(); move |_: MouseEvent| file.clone() })}>{ "create this file" }</button>
                }
                else { <button type="button" class="link" title={format!("Open {file}")} onclick={open}><code>{ &file }</code></button> }
            </div>
            if let Some(error) = &s.error {
                <div class="step-error" data-testid="step-error">{ error }</div>
            }
            if let Some(v) = &s.value {
                <div class="step-value"><span class="muted">{ "found " }</span><code>{ show(v) }</code>
                    if s.decrypted {
                        <span class="badge decrypted" data-testid="step-decrypted"
                            title="This value was encrypted in the file (ENC[PKCS7,...]); eyaml_lookup_key decrypted it with the level's key pair.">
                            { "decrypted from eyaml" }</span>
                    }
                </div>
                { for s.interpolations.iter().map(|ip| html! {
                    <details class="interpolation">
                        <summary>{ "interpolated " }<code>{ &ip.subject }</code></summary>
                        <ul>
                            { for ip.tokens.iter().map(|t| html! {
                                <li class={classes!(t.undefined.then_some("undefined"))}>
                                    <code>{ &t.text }</code>{ format!(" ({}) → ", t.method) }<code>{ format!("\"{}\"", t.result) }</code>
                                    if t.undefined { <span class="warning-inline">{ " not defined: an empty string" }</span> }
                                </li>
                            }) }
                            { for ip.nested.iter().map(|n| html! { <li>{ "looked up " }<code>{ &n.key }</code>{ " (its own search is in the explanation)" }</li> }) }
                        </ul>
                    </details>
                }) }
            }
            if let Some(m) = &s.merged {
                <div class="step-merged"><span class="muted">{ "merged so far " }</span><code>{ show(m) }</code></div>
                if !s.changes.is_empty() {
                    <ul class="changes">
                        { for s.changes.iter().map(|c| {
                            let (class, sign, p, v, note, title) = match c {
                                Change::Added(p, v) => ("added", "+ ", p, v, "", "Added by this level"),
                                Change::Kept(p, v) if matches!(p.last(), Some(Segment::Index(_))) => ("kept", "= ", p, v, " already there", "Kept once: a higher level has it"),
                                Change::Kept(p, v) => ("kept", "= ", p, v, " ignored: a higher level set it", "A higher level's value wins"),
                                Change::Removed(p, v) => ("removed", "− ", p, v, " knocked out", "Removed by a knockout mark of a higher level"),
                                Change::Spent(p, v) => ("spent", "− ", p, v, " knockout mark, used up", "The knockout mark itself, left out of the result"),
                            };
                            html! { <li class={class} data-testid="change" {title}>{ sign }{ show_path(p) }{ " " }<code>{ show(v) }</code>{ note }</li> }
                        }) }
                    </ul>
                }
            }
        </li>
    }
}

fn sources_view(steps: &[Step], value: &Value, props: &WhyProps) -> Html {
    let sources = leaf_sources(steps, value);
    if sources.is_empty() {
        return html! {};
    }
    html! {
        <div class="leaf-sources">
            <h3>{ "Where each part of the value comes from" }</h3>
            <ul>
                { for sources.iter().map(|l| {
                    let file = props.relative.emit(l.file.clone());
                    let line = l.at.line as usize;
                    let leaf = value_at(value, &l.path).map(show).unwrap_or_default();
                    let onclick = { let (reveal, file) = (props.reveal.clone(), file.clone()); Callback::from(move |_: MouseEvent| reveal.emit((file.clone(), line))) };
                    html! {
                        <li>
                            <code>{ show_path(&l.path) }</code>{ " = " }<code>{ leaf }</code>{ " " }
                            <button type="button" class="link" data-testid="source-link" data-file={file.clone()} data-line={line.to_string()} {onclick}>
                                { format!("{file}:{line}") }
                            </button>
                        </li>
                    }
                }) }
            </ul>
        </div>
    }
}

/// A link to the documentation of a warning's trap (`tabindex`: "-1" where
/// it is no stop of Tab's).
pub fn doc_link(w: &hiera_core::steps::Warning, tabindex: Option<&'static str>) -> Html {
    html! { <a class="doc-link" href={w.doc()} target="_blank" rel="noopener" data-testid="warning-doc" {tabindex}>{ "docs ↗" }</a> }
}

/// What a data provider (a layer) is, for its tooltip.
fn layer_title(layer: &str) -> &'static str {
    if layer.starts_with("Global") {
        "The global layer: $confdir/hiera.yaml (/etc/puppetlabs/puppet/hiera.yaml), searched first"
    } else if layer.starts_with("Environment") {
        "The environment layer: the environment's own hiera.yaml"
    } else {
        "The module layer: a module's hiera.yaml, for keys in that module's namespace, searched last"
    }
}
