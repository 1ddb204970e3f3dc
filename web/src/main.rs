//! Hiera Playground's web page: a Puppet installation's files, a node and its
//! lookups, evaluated by `hiera-core` on every keystroke. `app` only wires
//! the one reducer ([`state`]), the hooks and the components.

mod backends;
mod browser;
mod chunks;
mod components;
mod hooks;
mod links;
mod recovery;
mod start;
mod state;
#[cfg(all(test, target_arch = "wasm32"))]
mod test_support;
mod works;

use components::bars;
use components::embed::Embed;
use components::eyaml::EyamlProps;
use components::report::ReportProps;
use components::shortcuts::Shortcuts;
use components::toolbar::Toolbar;
use components::tour::TourProps;
use components::workspace::workspace;
use state::{Action, View};
use wasm_bindgen_futures::spawn_local;
use yew::prelude::*;

/// What the page was opened with.
#[derive(Properties)]
struct AppProps {
    /// The state it opens with (see [`start::start`]).
    opened: std::rc::Rc<state::State>,
}

impl PartialEq for AppProps {
    fn eq(&self, other: &Self) -> bool {
        std::rc::Rc::ptr_eq(&self.opened, &other.opened)
    }
}

/// The whole page.
#[function_component(App)]
fn app(props: &AppProps) -> Html {
    let state = use_reducer(|| (*props.opened).clone());
    hooks::use_backends::use_backends(&state);
    hooks::use_chunks::use_chunks(&state);
    hooks::use_page::use_autosave(&state);
    hooks::use_page::use_embedding(&state);
    hooks::use_page::use_gallery(&state);
    use_effect_with(state.theme.clone(), |t| browser::apply_theme(t));
    // A link pasted into this tab changes only the fragment: open it as a
    // fresh tab would (the page changes its own fragment without this event).
    use_effect_with((), |_| {
        let listener = browser::on_window("hashchange", |_| browser::reload());
        move || drop(listener)
    });
    // One callback for the page's life: views that take only it are not drawn again.
    let dispatch = {
        let dispatcher = state.dispatcher();
        (*use_memo((), move |_| Callback::from(move |a: Action| dispatcher.dispatch(a)))).clone()
    };
    let io = hooks::use_document_io::use_document_io(&state, &dispatch);
    let open_lesson = hooks::use_tour::use_tour(&state);

    if matches!(state.view, View::Embed { .. }) {
        return html! { <Embed state={(*state).clone()} {dispatch} {open_lesson} /> };
    }
    let paths: Vec<String> = state.document().files.iter().map(|(p, _)| p.clone()).collect();
    let toggle = |open: bool, action: fn(bool) -> Action| dispatch.reform(move |_| action(!open));
    let on_theme = {
        let next = match state.theme.as_str() {
            "" => "dark",
            "dark" => "light",
            _ => "",
        };
        dispatch.reform(move |_| {
            browser::save(browser::THEME, next);
            Action::SetTheme(next.to_string())
        })
    };
    html! {
        <div class="playground" data-revision={state.revision.to_string()} data-backends={if state.backends_loaded() { "loaded" } else { "none" }}>
            if io.dragging {
                <div class="drop-overlay" data-testid="drop-overlay" aria-hidden="true">
                    <p>{ "Drop a control repository folder, an exported zip or a case file to open it." }</p>
                </div>
            }
            <Shortcuts {paths} dispatch={dispatch.clone()} on_share={io.share.clone()} />
            <Toolbar examples={(*state.examples).clone()} on_example={io.example.clone()} on_open={io.open.clone()} on_save={io.save.clone()}
                on_export={io.export.clone()} on_reset={io.reset.clone()} on_share={io.share.clone()} theme={state.theme.clone()}
                on_report={toggle(state.report_open, Action::ShowReport)} format={state.format} on_format={dispatch.reform(Action::SetFormat)} {on_theme}
                on_eyaml={toggle(state.eyaml.is_some(), Action::ShowEyaml)} works={state.works.clone()} work={state.work.clone()}
                on_work={io.open_work.clone()} on_delete_work={io.delete_work.clone()} on_list_works={io.list_works.clone()}
                on_tour={open_lesson.reform(|_| String::new())} welcome={state.work.is_none() && state.view == View::Work && state.tour.is_none()} />
            { bars::secrets_bar(&state, &dispatch) }
            if let (Some(code), Some(tools)) = (state.chunks.eyaml, state.eyaml.clone()) {
                { (code.view)(EyamlProps { tools, certificate: state.eyaml_certificate(), has_keys: state.eyaml_has_keys(), dispatch: dispatch.clone() }) }
            }
            { bars::share_bar(&state, &dispatch) }
            if let (Some(code), true) = (state.chunks.report, state.report_open) {
                { (code.view)(ReportProps { state: (*state).clone(), onclose: dispatch.reform(|_| Action::ShowReport(false)) }) }
            }
            { bars::status(&state, &dispatch, &io) }
            if let (Some(code), Some(tour)) = (state.chunks.tour, state.tour.clone()) {
                { (code.view)(TourProps { tour, open: open_lesson.clone(), dispatch: dispatch.clone() }) }
            }
            { workspace(&state, &dispatch) }
        </div>
    }
}

fn main() {
    recovery::install();
    browser::keep_offline();
    // A link's document is inflated by the browser, and the welcome example
    // and the tab's work or example read, before the page is drawn.
    spawn_local(async {
        start::fetch_welcome().await;
        let opened = start::start(links::opened_link().await, start::mine().await);
        yew::Renderer::<App>::with_props(AppProps { opened: std::rc::Rc::new(opened) }).render();
    });
}

#[cfg(all(test, target_arch = "wasm32"))]
mod tests {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::test_support::render;

    // Goes through hiera-core: every row carries the engine's answer.
    #[wasm_bindgen_test]
    async fn evaluates_the_welcome_example() {
        let welcome = include_str!("../../www/examples/00-welcome.yaml");
        start::set_welcome(Some(hiera_core::case::Document::from_yaml(welcome).unwrap()));
        let opened = std::rc::Rc::new(start::start(None, start::Mine::Nothing));
        let root = render::<App>(AppProps { opened }).await;
        let rows = root.query_selector_all("[data-testid=lookup-row]").unwrap();
        assert_eq!(rows.length() as usize, start::welcome().lookups.len());
        let first: web_sys::Element = rows.item(0).unwrap().dyn_into().unwrap();
        assert_eq!(first.get_attribute("data-key").as_deref(), Some("profile::web::port"));
        assert_eq!(first.get_attribute("data-status").as_deref(), Some("found"));
        assert_eq!(first.get_attribute("data-value-json").as_deref(), Some("8080"));
    }
}
