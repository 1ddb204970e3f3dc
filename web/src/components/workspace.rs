//! The three panes: files and the node, the editor, and the lookups with
//! their results.

use yew::prelude::*;

use crate::components::all_keys::AllKeysProps;
use crate::components::classes::ClassesProps;
use crate::components::editor::{language_of, Editor};
use crate::components::explain::ExplainProps;
use crate::components::file_tree::FileTree;
use crate::components::lookups::Lookups;
use crate::components::node_panel::NodePanel;
use crate::components::nodes::NodesProps;
use crate::components::review::ReviewProps;
use crate::components::why::Why;
use crate::state::{Action, State, Tab};

/// The panes, for `state`.
pub fn workspace(state: &State, dispatch: &Callback<Action>) -> Html {
    let doc = state.document();
    let paths: Vec<String> = doc.files.iter().map(|(p, _)| p.clone()).collect();
    let environment = AttrValue::from(doc.environment.clone());
    let reveal_line = state.reveal.as_ref().filter(|(f, _)| Some(f) == state.open_file.as_ref()).map(|(_, l)| *l);
    html! {
        // Nodes, All keys, Classes, Review and Explain are tables and long paths: they take the width the editor can spare.
        <main class={classes!("workspace", matches!(state.tab, Tab::Nodes | Tab::AllKeys | Tab::Classes | Tab::Review | Tab::Explain).then_some("wide-results"))}>
            <aside class="pane sidebar">
                <FileTree {paths} open={state.open_file.clone()} environment={environment.clone()} dispatch={dispatch.clone()} />
                <NodePanel puppet={doc.puppet} node={AttrValue::from(doc.node.clone().unwrap_or_default())} {environment} facts={state.facts_text.clone()}
                    facts_error={state.facts_error.clone()} dispatch={dispatch.clone()} />
            </aside>
            <section class="pane editor-pane" id="editor-pane" tabindex="-1" aria-label="Editor">
                if let (Some(path), Some(text)) = (state.open_file.clone(), state.open_text()) {
                    <h2 class="file-title"><code>{ path.clone() }</code></h2>
                    // One editor per file, so undo history never crosses files.
                    <Editor key={path.clone()} text={AttrValue::from(text)} markers={state.markers()} onchange={dispatch.reform(Action::EditFile)} reveal={reveal_line}
                        language={language_of(&path)} history={format!("{}:{path}", state.loaded)} />
                } else {
                    <p class="muted empty-editor">{ "Open a file from the list, or create one." }</p>
                }
            </section>
            <section class="pane results">
                <Lookups lookups={doc.lookups.clone()} results={state.results.clone()} selected={state.selected} format={state.format} puppet={doc.puppet}
                    keys={state.keys.clone()} dispatch={dispatch.clone()} why_shown={state.tab == Tab::Why} />
                <div class="tabs" role="tablist">
                    { for [(Tab::Why, "Why", "tab-why"), (Tab::Explain, "Explain", "tab-explain"), (Tab::AllKeys, "All keys", "tab-all-keys"), (Tab::Nodes, "Nodes", "tab-nodes"), (Tab::Classes, "Classes", "tab-classes"), (Tab::Review, "Review", "tab-review")]
                        .into_iter().map(|(tab, label, testid)| html! {
                            <button type="button" role="tab" aria-selected={(state.tab == tab).to_string()} data-testid={testid}
                                onclick={dispatch.reform(move |_: MouseEvent| Action::SetTab(tab))}>{ label }</button>
                        }) }
                </div>
                <div class="tab-body" id="results-body" tabindex="-1">{ tab_body(state, dispatch) }</div>
            </section>
        </main>
    }
}

/// What the tab on show shows, for the lookup selected.
fn tab_body(state: &State, dispatch: &Callback<Action>) -> Html {
    let evaluation = state.selected.and_then(|i| state.results.get(i)).cloned();
    let relative = {
        let state = state.clone();
        Callback::from(move |p: String| state.document().relative(&p))
    };
    let reveal = dispatch.reform(|(file, line): (String, usize)| Action::Reveal(file, line));
    match state.tab {
        Tab::Why => html! { <Why {evaluation} {relative} {reveal} create={dispatch.reform(Action::CreateFile)} /> },
        Tab::Explain => {
            let key_label =
                state.selected.and_then(|i| state.document().lookups.get(i).map(|l| AttrValue::from(l.key_label())));
            match state.chunks.explain {
                Some(code) => (code.view)(ExplainProps { key_label, evaluation, relative, reveal }),
                None => fetching(),
            }
        }
        Tab::AllKeys => html! {
            <section aria-label="All keys">
                if let (Some(code), Some(keys)) = (state.chunks.all_keys, state.resolved.clone()) {
                    { (code.view)(AllKeysProps { keys, dispatch: dispatch.clone() }) }
                } else {
                    { fetching() }
                }
            </section>
        },
        Tab::Nodes => html! {
            <section class="fleet" data-testid="fleet" aria-label="Nodes">
                if let (Some(code), Some(fleet)) = (state.chunks.nodes, state.fleet.clone()) {
                    { (code.view)(NodesProps { fleet, facts: state.facts_text.clone(), selected: state.selected, dispatch: dispatch.clone() }) }
                } else {
                    { fetching() }
                }
            </section>
        },
        Tab::Classes => html! {
            <section aria-label="Classes">
                if let Some(code) = state.chunks.classes {
                    { (code.view)(ClassesProps { classes: state.classes.clone(), dispatch: dispatch.clone() }) }
                } else {
                    { fetching() }
                }
            </section>
        },
        Tab::Review => html! {
            <section aria-label="Review">
                if let (Some(code), Some(review)) = (state.chunks.review, state.review.clone()) {
                    { (code.view)(ReviewProps { review, dispatch: dispatch.clone() }) }
                } else {
                    { fetching() }
                }
            </section>
        },
    }
}

/// What a view shows while its code is fetched (see [`crate::chunks`]).
pub fn fetching() -> Html {
    html! { <p class="muted" data-testid="fetching-code">{ "Fetching its code…" }</p> }
}
