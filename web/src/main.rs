//! Hiera Playground's web page: a Puppet installation's files, a node and its
//! lookups, evaluated by `hiera-core` on every keystroke.

mod browser;
mod components;
mod hooks;
mod state;
#[cfg(all(test, target_arch = "wasm32"))]
mod test_support;

use std::rc::Rc;

use components::editor::Editor;
use components::explain::Explain;
use components::file_tree::FileTree;
use components::key_browser::KeyBrowser;
use components::lookups::Lookups;
use components::node_panel::NodePanel;
use components::toolbar::Toolbar;
use components::why::Why;
use hiera_core::case::Document;
use state::{Action, Notice, State};
use wasm_bindgen_futures::spawn_local;
use yew::prelude::*;

/// The document a first visit (or a reset) opens.
const WELCOME: &str = include_str!("../../www/examples/00-welcome.yaml");

fn welcome() -> Document {
    Document::from_yaml(WELCOME).expect("the welcome example is a valid case file")
}

/// The autosaved document, or the welcome example. A saved document that
/// cannot be read is set aside, never overwritten.
fn initial_state() -> State {
    let Some(saved) = browser::load(browser::SAVED_DOCUMENT) else { return State::new(welcome()) };
    match Document::from_yaml(&saved) {
        Ok(doc) => State::new(doc),
        Err(e) => {
            browser::save(browser::UNREADABLE_DOCUMENT, &saved);
            let mut state = State::new(welcome());
            state.notice = Some(Notice {
                text: format!("Your saved work could not be read ({e}); it is kept in localStorage under {}.", browser::UNREADABLE_DOCUMENT),
                error: true,
            });
            state
        }
    }
}

/// The right-hand panel's tabs.
#[derive(Clone, Copy, PartialEq)]
enum Tab {
    Why,
    Explain,
    AllKeys,
}

/// The whole page.
#[function_component(App)]
fn app() -> Html {
    let state = use_reducer(initial_state);
    let examples = use_state(Vec::<AttrValue>::new);
    let tab = use_state(|| Tab::Why);
    let theme = use_state(|| browser::load(browser::THEME).unwrap_or_default());

    // The gallery's list ships with the page.
    {
        let examples = examples.clone();
        use_effect_with((), move |_| {
            spawn_local(async move {
                if let Ok(index) = browser::fetch_text("examples/index.txt").await {
                    examples.set(index.lines().map(str::trim).filter(|l| !l.is_empty()).map(|l| AttrValue::from(l.to_string())).collect());
                }
            });
        });
    }
    // Autosave after every change of the document.
    {
        let state = state.clone();
        use_effect_with(state.revision, move |_| {
            if !browser::save(browser::SAVED_DOCUMENT, &state.document().to_yaml()) {
                web_sys::console::warn_1(&"Could not autosave to localStorage".into());
            }
        });
    }
    use_effect_with((*theme).clone(), |t| browser::apply_theme(t));

    let dispatch = {
        let state = state.clone();
        Callback::from(move |a: Action| state.dispatch(a))
    };
    let notify = {
        let dispatch = dispatch.clone();
        move |text: String| dispatch.emit(Action::Notify(Notice { text, error: true }))
    };
    let on_example = {
        let (dispatch, notify) = (dispatch.clone(), notify.clone());
        Callback::from(move |name: String| {
            let (dispatch, notify) = (dispatch.clone(), notify.clone());
            spawn_local(async move {
                match browser::fetch_text(&format!("examples/{name}")).await.and_then(|t| Document::from_yaml(&t).map_err(|e| e.to_string())) {
                    Ok(doc) => dispatch.emit(Action::Load(doc)),
                    Err(e) => notify(format!("Could not open the example {name}: {e}")),
                }
            });
        })
    };
    let on_open = {
        let (dispatch, notify) = (dispatch.clone(), notify.clone());
        Callback::from(move |file: web_sys::File| {
            let (dispatch, notify) = (dispatch.clone(), notify.clone());
            let name = file.name();
            spawn_local(async move {
                match browser::read_file(file).await.and_then(|t| Document::from_yaml(&t).map_err(|e| e.to_string())) {
                    Ok(doc) => dispatch.emit(Action::Load(doc)),
                    Err(e) => notify(format!("Could not open {name}: {e}")),
                }
            });
        })
    };
    let on_save = {
        let (state, notify) = (state.clone(), notify.clone());
        Callback::from(move |_| {
            if let Err(e) = browser::download("hiera-playground.yaml", &state.document().to_yaml()) {
                notify(format!("Could not save: {e}"));
            }
        })
    };
    let on_reset = {
        let dispatch = dispatch.clone();
        Callback::from(move |_| {
            if browser::confirm("Replace your work with the welcome example?") {
                dispatch.emit(Action::Load(welcome()));
            }
        })
    };
    let on_theme = {
        let theme = theme.clone();
        Callback::from(move |_| {
            let next = match theme.as_str() {
                "" => "dark",
                "dark" => "light",
                _ => "",
            };
            browser::save(browser::THEME, next);
            theme.set(next.to_string());
        })
    };
    let on_format = dispatch.reform(Action::SetFormat);
    let on_edit = dispatch.reform(Action::EditFile);
    let open_file = dispatch.reform(Action::OpenFile);

    let doc = state.document();
    let paths: Vec<String> = doc.files.iter().map(|(p, _)| p.clone()).collect();
    let lookups = doc.lookups.clone();
    let node = doc.node.clone().unwrap_or_default();
    let environment = doc.environment.clone();
    let description = doc.description.clone();
    drop(doc);
    let keys = Rc::new(state.engine().data_keys());
    let selected_label = state.selected.and_then(|i| lookups.get(i)).map(|l| AttrValue::from(l.key_label()));
    let selected_evaluation = state.selected.and_then(|i| state.results.get(i)).cloned();
    let relative = {
        let state = state.clone();
        Callback::from(move |p: String| state.engine().relative(&p))
    };
    let reveal = dispatch.reform(|(file, line): (String, usize)| Action::Reveal(file, line));
    let reveal_line = state.reveal.as_ref().filter(|(f, _)| Some(f) == state.open_file.as_ref()).map(|(_, l)| *l);
    let resolved = if *tab == Tab::AllKeys { Rc::new(state.engine().resolved_keys()) } else { Rc::default() };
    let open_text = state.open_text();

    let tab_button = |t: Tab, label: &str, testid: &str| {
        let onclick = {
            let tab = tab.clone();
            Callback::from(move |_: MouseEvent| tab.set(t))
        };
        html! { <button type="button" role="tab" aria-selected={(*tab == t).to_string()} data-testid={testid.to_string()} {onclick}>{ label.to_string() }</button> }
    };
    html! {
        <div class="playground">
            <Toolbar examples={(*examples).clone()} {on_example} {on_open} {on_save} {on_reset} format={state.format} {on_format} {on_theme} />
            if let Some(n) = &state.notice {
                <div class={classes!("notice", n.error.then_some("error"))} role="alert" data-testid="notice">
                    <span>{ &n.text }</span>
                    <button type="button" class="icon" aria-label="Dismiss" onclick={dispatch.reform(|_: MouseEvent| Action::Dismiss)}>{ "×" }</button>
                </div>
            }
            if let Some(d) = description {
                <p class="description" data-testid="description">{ d }</p>
            }
            <main class="workspace">
                <aside class="pane sidebar">
                    <FileTree paths={paths} open={state.open_file.clone()} environment={AttrValue::from(environment.clone())} dispatch={dispatch.clone()} />
                    <NodePanel node={AttrValue::from(node)} environment={AttrValue::from(environment)} facts={state.facts_text.clone()}
                        facts_error={state.facts_error.clone()} dispatch={dispatch.clone()} />
                </aside>
                <section class="pane editor-pane" aria-label="Editor">
                    if let (Some(path), Some(text)) = (state.open_file.clone(), open_text) {
                        <h2 class="file-title"><code>{ path.clone() }</code></h2>
                        // One editor per file, so undo history never crosses files.
                        <Editor key={path} text={AttrValue::from(text)} markers={state.markers()} onchange={on_edit} reveal={reveal_line} />
                    } else {
                        <p class="muted empty-editor">{ "Open a file from the list, or create one." }</p>
                    }
                </section>
                <section class="pane results">
                    <Lookups lookups={lookups} results={state.results.clone()} selected={state.selected} format={state.format} {keys} dispatch={dispatch.clone()} />
                    <div class="tabs" role="tablist">
                        { tab_button(Tab::Why, "Why", "tab-why") }
                        { tab_button(Tab::Explain, "Explain", "tab-explain") }
                        { tab_button(Tab::AllKeys, "All keys", "tab-all-keys") }
                    </div>
                    <div class="tab-body">
                        {
                            match *tab {
                                Tab::Why => html! { <Why evaluation={selected_evaluation} relative={relative.clone()} reveal={reveal.clone()} /> },
                                Tab::Explain => html! { <Explain key_label={selected_label} evaluation={selected_evaluation} {relative} {reveal} /> },
                                Tab::AllKeys => html! { <KeyBrowser keys={resolved} {open_file} /> },
                            }
                        }
                    </div>
                </section>
            </main>
        </div>
    }
}

fn main() {
    yew::Renderer::<App>::new().render();
}

#[cfg(all(test, target_arch = "wasm32"))]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::test_support::render;

    // Goes through hiera-core: every row carries the engine's answer.
    #[wasm_bindgen_test]
    async fn evaluates_the_welcome_example() {
        browser::forget(browser::SAVED_DOCUMENT);
        let root = render::<App>(()).await;
        let rows = root.query_selector_all("[data-testid=lookup-row]").unwrap();
        assert_eq!(rows.length() as usize, welcome().lookups.len());
        let first: web_sys::Element = rows.item(0).unwrap().dyn_into().unwrap();
        assert_eq!(first.get_attribute("data-key").as_deref(), Some("profile::web::port"));
        assert_eq!(first.get_attribute("data-status").as_deref(), Some("found"));
        assert_eq!(first.get_attribute("data-value-json").as_deref(), Some("8080"));
    }
}
