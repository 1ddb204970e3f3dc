//! Review: what `hiera-lookup lint` finds in the document's data over all
//! its nodes, each finding opening its file at its line (see
//! `hiera_core::review`).

use hiera_core::review::{Kind, Review as Reviewed};
use yew::prelude::*;

use crate::state::{Action, Same};

/// Props of [`Review`].
#[derive(Properties, PartialEq)]
pub struct ReviewProps {
    /// What the reducer found (see `State::review`).
    pub review: Same<Reviewed>,
    /// Where actions go.
    pub dispatch: Callback<Action>,
}

/// The kinds of finding, as the list heads them, and what each means.
const KINDS: [(Kind, &str, &str); 5] = [
    (Kind::Type, "Classes that fail", "a parameter whose value fails its type, or has none: Puppet's compile fails"),
    (Kind::LegacyFact, "Legacy facts", "facts Puppet 8 no longer gives nodes (Facter 4 hides them)"),
    (
        Kind::UnusedKey,
        "Keys nothing reads",
        "no class parameter, lookup() in the manifests or %{lookup()} in the data reads them",
    ),
    (Kind::Shadowed, "Values no node gets", "every node that reads the file gets the key from a higher level"),
    (Kind::DeadFile, "Files no node reads", "no node's hierarchy reads them"),
];

/// How many findings of a kind are drawn: a large repository has thousands,
/// and `hiera-lookup lint` lists them all.
const SHOWN: usize = 100;

/// The findings, by kind, then what could not be checked.
#[function_component(Review)]
pub fn review(props: &ReviewProps) -> Html {
    let review = &props.review;
    let groups = KINDS.iter().filter_map(|(kind, title, help)| {
        let findings: Vec<_> = review.findings.iter().filter(|f| f.kind == *kind).collect();
        let count = findings.len();
        (count > 0).then(|| {
            let items = findings.into_iter().take(SHOWN).map(|f| {
                let at = match f.line {
                    Some(line) => format!("{}:{line}", f.file),
                    None => f.file.clone(),
                };
                let (file, line) = (f.file.clone(), f.line.unwrap_or(1));
                let open = props.dispatch.reform(move |_: MouseEvent| Action::Reveal(file.clone(), line));
                let nodes = match f.nodes.len() {
                    0 => None,
                    n => Some(format!(" ({n} node{})", if n == 1 { "" } else { "s" })),
                };
                html! {
                    <li data-testid="review-finding" data-kind={f.kind.as_str()}>
                        <button type="button" class="link" data-testid="review-open" onclick={open}>{ at }</button>
                        if let Some(key) = &f.key { { " " }<code>{ key }</code> }
                        if let Some(nodes) = nodes { <span class="muted" title={f.nodes.join(", ")}>{ nodes }</span> }
                        <p>{ message(&f.message) }</p>
                    </li>
                }
            });
            html! {
                <section class="review-group">
                    <h3 title={*help}>{ format!("{title} ") }<span class="muted">{ format!("({count})") }</span></h3>
                    <ul>{ for items }</ul>
                    if count > SHOWN {
                        <p class="muted" data-testid="review-more">{ format!("… and {} more: hiera-lookup lint lists them all", count - SHOWN) }</p>
                    }
                </section>
            }
        })
    });
    html! {
        <div class="review" data-testid="review">
            if review.findings.is_empty() {
                <p class="muted" data-testid="review-clean">{ "Nothing found: every key is read, every file and value used by some node, no legacy facts, every class binds." }</p>
            }
            { for groups }
            { for review.notes.iter().map(|n| html! { <p class="muted" data-testid="review-note">{ n }</p> }) }
        </div>
    }
}

/// A message with its `code` spans (lint writes them for a terminal too).
fn message(text: &str) -> Html {
    let parts = text.split('`').enumerate().map(|(i, part)| match i % 2 {
        1 => html! { <code>{ part }</code> },
        _ => html! { { part } },
    });
    html! { <>{ for parts }</> }
}
