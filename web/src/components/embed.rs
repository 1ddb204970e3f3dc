//! `?embed`: the compact view an iframe shows (files as tabs, the editor, the
//! lookups, and a link that opens the whole playground); with `&compact`,
//! the rows show their answers only and Why opens under them for the row
//! clicked; with `&lesson=NAME`, a lesson of the tour above them.

use yew::prelude::*;

use crate::components::editor::{language_of, Editor};
use crate::components::lookups::Lookups;
use crate::components::tour::TourProps;
use crate::components::why::Why;
use crate::hooks::use_share_link::use_share_link;
use crate::state::{Action, State, View};

/// Props of [`Embed`].
#[derive(Properties, PartialEq)]
pub struct EmbedProps {
    /// The page's state.
    pub state: State,
    /// Where actions go.
    pub dispatch: Callback<Action>,
    /// Opens a lesson of the tour by file name (`?embed&lesson=NAME`).
    pub open_lesson: Callback<String>,
}

/// The embedded page.
#[function_component(Embed)]
pub fn embed(props: &EmbedProps) -> Html {
    let (state, dispatch) = (&props.state, &props.dispatch);
    let link = use_share_link(Some(state.clone()));
    let View::Embed { readonly, compact, file, lookup, waiting } = &state.view else { return html! {} };
    if *waiting {
        return html! { <div class="embed" data-testid="embed" data-waiting="true" aria-busy="true" /> };
    }
    let doc = state.document();
    let shown = doc.files.iter().map(|(p, _)| p).filter(|p| !p.ends_with('/') && file.as_ref().is_none_or(|f| f == *p));
    let tabs: Html = shown
        .map(|p| {
            let selected = state.open_file.as_ref() == Some(p);
            let onclick = { let p = p.clone(); dispatch.reform(move |_: MouseEvent| Action::OpenFile(p.clone())) };
            html! { <button type="button" role="tab" aria-selected={selected.to_string()} data-testid="file-entry" data-path={p.clone()} {onclick}>{ p.clone() }</button> }
        })
        .collect();
    html! {
        <div class="embed" data-testid="embed" data-revision={state.revision.to_string()}>
            if let Some(n) = &state.notice {
                <div class="notice error" role="alert" data-testid="notice">{ &n.text }</div>
            }
            if let (Some(code), Some(tour)) = (state.chunks.tour, state.tour.clone()) {
                { (code.view)(TourProps { tour, open: props.open_lesson.clone(), dispatch: dispatch.clone() }) }
            }
            <nav class="embed-files" role="tablist" aria-label="Files">{ tabs }</nav>
            if let (Some(path), Some(text)) = (state.open_file.clone(), state.open_text()) {
                <Editor key={path.clone()} text={AttrValue::from(text)} markers={state.markers()} onchange={dispatch.reform(Action::EditFile)} readonly={*readonly}
                    language={language_of(&path)} />
            }
            <Lookups lookups={doc.lookups.clone()} results={state.results.clone()} selected={state.selected} format={state.format} puppet={doc.puppet}
                keys={state.keys.clone()} dispatch={dispatch.clone()} readonly={*readonly || *compact} only={*lookup} why_shown={*compact} />
            if let Some(evaluation) = state.selected.and_then(|i| state.results.get(i)).cloned().filter(|_| *compact) {
                <section class="embed-why" data-testid="embed-why" aria-label="Why">
                    <Why evaluation={Some(evaluation)} relative={{ let s = state.clone(); Callback::from(move |p: String| s.document().relative(&p)) }}
                        reveal={dispatch.reform(|(file, line): (String, usize)| Action::Reveal(file, line))} create={dispatch.reform(Action::CreateFile)} />
                </section>
            }
            if let Some(link) = link {
                <a class="open-in-playground" data-testid="open-in-playground" href={link.to_string()} target="_blank" rel="noopener">{ "Open in playground ↗" }</a>
            }
        </div>
    }
}
