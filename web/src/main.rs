//! Hiera Playground's web page: a Puppet installation's files, a node and its
//! lookups, evaluated by `hiera-core` on every keystroke.

mod backends;
mod browser;
mod components;
mod hooks;
mod recovery;
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
use components::report::Report;
use components::shortcuts::Shortcuts;
use components::toolbar::Toolbar;
use components::why::Why;
use hiera_core::case::Document;
use hiera_core::share;
use state::{Action, Notice, State};
use wasm_bindgen_futures::spawn_local;
use yew::prelude::*;

/// The document a first visit (or a reset) opens (made by build.rs).
const WELCOME: &str = include_str!(concat!(env!("OUT_DIR"), "/welcome.yaml"));

fn welcome() -> Document {
    Document::from_yaml(WELCOME).expect("the welcome example is a valid case file")
}

/// How the page was opened.
#[derive(Clone, Debug, PartialEq)]
enum View {
    /// The playground, autosaving the visitor's work.
    Work,
    /// A shared link: its document is shown, and the visitor's own work is
    /// not overwritten until they choose to keep this one.
    Shared,
    /// An example from the gallery, shown as a shared link is; a folder
    /// dropped on it opens, still beside the visitor's work.
    Example,
    /// `?embed`: a compact view for an iframe.
    Embed {
        /// `&readonly`: no editing.
        readonly: bool,
        /// `&file=path`: only this file.
        file: Option<String>,
        /// `&lookup=N`: only this lookup.
        lookup: Option<usize>,
    },
}

/// The autosaved document, or the welcome example. A saved document that
/// cannot be read is set aside, never overwritten.
fn saved_work() -> State {
    let Some(saved) = browser::load(browser::SAVED_DOCUMENT) else { return State::new(welcome()) };
    match Document::from_yaml(&saved) {
        Ok(mut doc) => match recovery::restore(&mut doc) {
            Some(path) => {
                State::with_notice(doc, &format!("The engine failed last time; your last edit of {path} is back."))
            }
            None => State::new(doc),
        },
        Err(e) => {
            browser::save(browser::UNREADABLE_DOCUMENT, &saved);
            let mut state = State::new(welcome());
            state.notice = Some(Notice {
                text: format!(
                    "Your saved work could not be read ({e}); it is kept in localStorage under {}.",
                    browser::UNREADABLE_DOCUMENT
                ),
                error: true,
            });
            state
        }
    }
}

/// The shared link the page was opened with, if any, read.
async fn opened_link() -> Option<Result<share::Shared, share::ShareError>> {
    let fragment = browser::fragment();
    if fragment.is_empty() {
        return None;
    }
    let read = async { share::read(browser::inflate_raw(&share::unpack(&fragment)?, share::MAX_EXPANDED).await) };
    Some(read.await)
}

/// What the URL asks for: an embed, the `shared` link, or the visitor's work.
fn start(shared: Option<Result<share::Shared, share::ShareError>>) -> (State, View) {
    let query = browser::query();
    let has = |k: &str| query.iter().any(|(q, _)| q == k);
    let param = |k: &str| query.iter().find(|(q, _)| q == k).map(|(_, v)| v.clone());
    if has("embed") {
        let (file, lookup) = (param("file"), param("lookup").and_then(|l| l.parse::<usize>().ok()));
        let mut state = match shared {
            Some(Ok(s)) => State::shared(s),
            Some(Err(e)) => State::with_notice(welcome(), &e.to_string()),
            None => State::new(welcome()),
        };
        if let Some(f) = file.as_ref().filter(|f| state.document().files.iter().any(|(p, _)| p == *f)) {
            state.open_file = Some(f.clone());
        }
        if lookup.is_some() {
            state.selected = lookup;
        }
        return (state, View::Embed { readonly: has("readonly"), file, lookup });
    }
    match shared {
        Some(Ok(s)) => {
            let mut state = State::shared(s);
            state.notice = Some(Notice {
                text: "You are looking at a shared playground. Your own work is kept: \"Back to my work\" returns to it, \"Keep this\" makes this your work.".into(),
                error: false,
            });
            (state, View::Shared)
        }
        Some(Err(e)) => {
            browser::clear_fragment();
            let mut state = saved_work();
            state.notice = Some(Notice { text: format!("{e} Your own work is shown instead."), error: true });
            (state, View::Work)
        }
        None => (saved_work(), View::Work),
    }
}

/// What a link to a playground showing `state` packs.
pub(crate) fn shared_text(state: &State) -> String {
    share::text(&share::Shared { document: state.shareable(), open: state.open_file.clone(), selected: state.selected })
}

/// The address of a playground showing what `text` (see [`shared_text`])
/// holds.
pub(crate) async fn share_url(text: String) -> Result<String, String> {
    let packed = browser::deflate_raw(text.as_bytes()).await?;
    Ok(format!("{}#{}", browser::page_url(), share::fragment(&packed)))
}

/// Listens for `{type: "hiera-playground:load"}` messages from the parent
/// window; the listener stops when the returned guard is dropped.
fn parent_messages(on_load: impl Fn(wasm_bindgen::JsValue) + 'static) -> impl Drop {
    use wasm_bindgen::JsCast;
    struct Guard(wasm_bindgen::closure::Closure<dyn FnMut(web_sys::MessageEvent)>);
    impl Drop for Guard {
        fn drop(&mut self) {
            if let Some(w) = web_sys::window() {
                let _ = w.remove_event_listener_with_callback("message", self.0.as_ref().unchecked_ref());
            }
        }
    }
    let closure =
        wasm_bindgen::closure::Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            let from_parent = web_sys::window()
                .and_then(|w| w.parent().ok().flatten())
                .zip(e.source())
                .is_some_and(|(p, s)| wasm_bindgen::JsValue::from(s) == wasm_bindgen::JsValue::from(p));
            let data = e.data();
            let is_load = js_sys::Reflect::get(&data, &"type".into()).ok().and_then(|t| t.as_string()).as_deref()
                == Some("hiera-playground:load");
            if from_parent && is_load {
                on_load(data);
            }
        });
    if let Some(w) = web_sys::window() {
        let _ = w.add_event_listener_with_callback("message", closure.as_ref().unchecked_ref());
    }
    browser::post_to_parent("hiera-playground:ready");
    Guard(closure)
}

/// Reads a file the user opened: a control-repo zip (see Export zip) or a case file.
async fn open(file: web_sys::File) -> Result<Document, String> {
    if file.name().to_ascii_lowercase().ends_with(".zip") {
        let mut files = Vec::new();
        for entry in hiera_core::archive::unzip(&browser::read_bytes(file).await?)? {
            let data = match entry.deflated {
                true => browser::inflate_raw(&entry.data, entry.size)
                    .await
                    .map_err(|_| hiera_core::archive::DAMAGED.to_string())?,
                false => entry.data,
            };
            files.push((entry.name, data));
        }
        hiera_core::archive::import_files(files)
    } else {
        browser::read_file(file).await.and_then(|t| Document::from_yaml(&t).map_err(|e| e.to_string()))
    }
}

/// Says that the document holds private keys, which links and exports
/// leave out unless the user ticks the box.
fn secrets_bar(state: &State, dispatch: &Callback<Action>) -> Html {
    let doc = state.document();
    let keys = doc.private_keys();
    if keys.is_empty() {
        return html! {};
    }
    let toggle = dispatch.reform(|e: Event| {
        Action::IncludePrivateKeys(e.target_unchecked_into::<web_sys::HtmlInputElement>().checked())
    });
    let what = if keys.len() == 1 { "a private key" } else { "private keys" };
    html! {
        <div class="secrets-bar" data-testid="secrets-bar">
            <span>{ format!("This document holds {what} ({}). ", keys.join(", ")) }
                if state.include_private_keys {
                    { "Share links and exported zips include it: whoever gets them can decrypt its values." }
                } else {
                    { "Share links and exported zips leave it out, so their eyaml values fail to decrypt, as on a Puppet without the key." }
                }
            </span>
            <label><input type="checkbox" data-testid="include-private-keys" checked={state.include_private_keys} onchange={toggle} />{ " Include private keys" }</label>
        </div>
    }
}

/// What the page says when an example replaces the visitor's work on screen.
/// The gallery's choice that opens [`Document::blank`].
const BLANK: &str = "blank";

const EXAMPLE_SHOWN: &str = "You are looking at an example. Your own work is kept: \"Back to my work\" returns to it, \"Keep this\" makes the example your work.";

/// Links longer than this are refused: chat tools and mail cut them.
const MAX_SHARE_URL: usize = 32_000;

/// The right-hand panel's tabs.
#[derive(Clone, Copy, PartialEq)]
enum Tab {
    Why,
    Explain,
    AllKeys,
}

/// What the page was opened with.
#[derive(Properties, PartialEq)]
struct AppProps {
    /// The shared link in its address, read.
    link: Option<Result<share::Shared, share::ShareError>>,
}

/// The whole page.
#[function_component(App)]
fn app(props: &AppProps) -> Html {
    let started = use_memo((), |_| start(props.link.clone()));
    let state = use_reducer(|| started.0.clone());
    let view = use_state(|| started.1.clone());
    // The link and the document it is for (`State::loaded`): it is shown
    // only while that document is.
    let share_link = use_state(|| None::<(u64, String)>);
    let report_open = use_state(|| false);
    let examples = use_state(Vec::<AttrValue>::new);
    let tab = use_state(|| Tab::Why);
    let theme = use_state(|| browser::load(browser::THEME).unwrap_or_default());
    let eyaml_open = use_state(|| false);
    hooks::use_backends::use_backends(&state);
    let eyaml_host = hooks::use_eyaml_tools::use_eyaml_tools(eyaml_open.clone(), &state);

    // The gallery's list ships with the page.
    {
        let examples = examples.clone();
        use_effect_with((), move |_| {
            spawn_local(async move {
                if let Ok(index) = browser::fetch_text("examples/index.txt").await {
                    examples.set(
                        index
                            .lines()
                            .map(str::trim)
                            .filter(|l| !l.is_empty())
                            .map(|l| AttrValue::from(l.to_string()))
                            .collect(),
                    );
                }
            });
        });
    }
    // Autosave the visitor's own work once typing pauses: writing a large
    // document on every keystroke would slow typing down. Leaving the page
    // saves at once.
    {
        let (state, view) = (state.clone(), view.clone());
        let latest = hooks::use_latest::use_latest(state.clone());
        let working = hooks::use_latest::use_latest(*view == View::Work);
        {
            let (latest, working) = (latest.clone(), working.clone());
            use_effect_with((), move |_| {
                // Hidden or left (reload, close, another tab).
                let listener = browser::on_window("pagehide", move |_| {
                    if *working.borrow() {
                        browser::save(browser::SAVED_DOCUMENT, &latest.borrow().document().to_yaml());
                    }
                });
                move || drop(listener)
            });
        }
        use_effect_with(state.revision, move |revision| {
            let revision = *revision;
            if *view == View::Work {
                spawn_local(async move {
                    yew::platform::time::sleep(std::time::Duration::from_millis(300)).await;
                    let current = latest.borrow().clone();
                    if current.revision == revision
                        && !browser::save(browser::SAVED_DOCUMENT, &current.document().to_yaml())
                    {
                        web_sys::console::warn_1(&"Could not autosave to localStorage".into());
                    }
                });
            }
        });
    }
    // An embedded page takes its document from the page that embeds it
    // (www/embed.js), and from no one else.
    {
        let (dispatch, embedded) = (state.dispatcher(), matches!(*view, View::Embed { .. }));
        use_effect_with(embedded, move |embedded| {
            let listener = embedded.then(|| {
                parent_messages(move |data: wasm_bindgen::JsValue| {
                    let text = js_sys::Reflect::get(&data, &"document".into()).ok().and_then(|d| d.as_string());
                    match text.map(|t| Document::from_yaml(&t)) {
                        Some(Ok(doc)) => dispatch.dispatch(Action::Load(doc)),
                        Some(Err(e)) => dispatch.dispatch(Action::Notify(Notice {
                            text: format!("The embedded playground could not be read: {e}"),
                            error: true,
                        })),
                        None => {}
                    }
                })
            });
            move || drop(listener)
        });
    }
    // An embedded page tells its parent how tall it is whenever that changes
    // (the editor arriving, a result growing).
    {
        let embedded = matches!(*view, View::Embed { .. });
        use_effect_with(embedded, move |embedded| {
            let observer = embedded.then(browser::watch_height).flatten();
            move || drop(observer)
        });
    }
    use_effect_with((*theme).clone(), |t| browser::apply_theme(t));
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
    let notify = {
        let dispatch = dispatch.clone();
        move |text: String| dispatch.emit(Action::Notify(Notice { text, error: true }))
    };
    let on_example = {
        let (dispatch, notify, view) = (dispatch.clone(), notify.clone(), view.clone());
        Callback::from(move |name: String| {
            let (dispatch, notify, view) = (dispatch.clone(), notify.clone(), view.clone());
            spawn_local(async move {
                let read = if name == BLANK {
                    Ok(Document::blank())
                } else {
                    browser::fetch_text(&format!("examples/{name}"))
                        .await
                        .and_then(|t| Document::from_yaml(&t).map_err(|e| e.to_string()))
                };
                match read {
                    // The visitor's work stays saved, one click away, as under a shared link.
                    Ok(doc) => {
                        if matches!(*view, View::Work) {
                            view.set(View::Example);
                        }
                        dispatch.emit(Action::Load(doc));
                        dispatch.emit(Action::Notify(Notice { text: EXAMPLE_SHOWN.into(), error: false }));
                    }
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
                match open(file).await {
                    Ok(doc) => dispatch.emit(Action::Load(doc)),
                    Err(e) => notify(format!("Could not open {name}: {e}")),
                }
            });
        })
    };
    let dragging = {
        let (dispatch, notify, on_open) = (dispatch.clone(), notify.clone(), on_open.clone());
        let on_drop = Callback::from(move |dropped: hooks::use_drop::Dropped| {
            let mut files = match dropped {
                Ok(files) => files,
                Err(e) => return notify(format!("Could not open what was dropped: {e}")),
            };
            // One file is opened as Open… would; anything else is a folder.
            if files.len() == 1 && !files[0].0.contains('/') {
                return on_open.emit(files.remove(0).1);
            }
            // The files listed are only those Hiera reads: there may be none.
            let what = files
                .first()
                .and_then(|(p, _)| p.split_once('/'))
                .map_or("what was dropped".into(), |(f, _)| format!("the folder {f}"));
            let (dispatch, notify) = (dispatch.clone(), notify.clone());
            spawn_local(async move {
                match browser::read_folder(files).await.and_then(hiera_core::archive::import_files) {
                    Ok(doc) => {
                        let text = format!(
                            "Opened {} Hiera files from {what} (other files are left out).{}",
                            doc.files.len(),
                            if doc.lookups.is_empty() { " Add a lookup to query them." } else { "" }
                        );
                        dispatch.emit(Action::Load(doc));
                        dispatch.emit(Action::Notify(Notice { text, error: false }));
                    }
                    Err(e) => notify(format!("Could not open {what}: {e}")),
                }
            });
        });
        hooks::use_drop::use_drop(matches!(*view, View::Work | View::Example), on_drop)
    };
    let on_save = {
        let (state, notify) = (state.clone(), notify.clone());
        Callback::from(move |_| {
            if let Err(e) = browser::download("hiera-playground.yaml", &state.document().to_yaml()) {
                notify(format!("Could not save: {e}"));
            }
        })
    };
    let on_export = {
        let (state, notify) = (state.clone(), notify.clone());
        Callback::from(move |_| {
            let zip = hiera_core::archive::export(&state.shareable());
            if let Err(e) = browser::download_bytes("hiera-playground.zip", &zip, "application/zip") {
                notify(format!("Could not export: {e}"));
            }
        })
    };
    let on_reset = {
        let (dispatch, view) = (dispatch.clone(), view.clone());
        Callback::from(move |_| {
            if browser::confirm("Replace your work with the welcome example?") {
                // It becomes the work, whatever was on show.
                browser::clear_fragment();
                view.set(View::Work);
                dispatch.emit(Action::Dismiss);
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
    let on_share = {
        let (state, share_link, notify) = (state.clone(), share_link.clone(), notify.clone());
        Callback::from(move |_| {
            let (text, share_link, notify) = (shared_text(&state), share_link.clone(), notify.clone());
            let loaded = state.loaded;
            spawn_local(async move {
                let url = match share_url(text).await {
                    Ok(url) => url,
                    Err(e) => return notify(format!("Could not make a link: {e}")),
                };
                if url.len() > MAX_SHARE_URL {
                    share_link.set(None);
                    notify(format!(
                        "This playground is too large for a link ({} characters; links stop at {MAX_SHARE_URL}). Use Save to share it as a case file.",
                        url.len()
                    ));
                    return;
                }
                browser::copy(&url);
                share_link.set(Some((loaded, url)));
            });
        })
    };
    let back_to_work = {
        let (dispatch, view) = (dispatch.clone(), view.clone());
        Callback::from(move |_: MouseEvent| {
            browser::clear_fragment();
            let work = saved_work();
            dispatch.emit(Action::Load(work.document().clone()));
            dispatch.emit(Action::Dismiss);
            view.set(View::Work);
        })
    };
    let keep_shared = {
        let (dispatch, view, state) = (dispatch.clone(), view.clone(), state.clone());
        Callback::from(move |_: MouseEvent| {
            if browser::load(browser::SAVED_DOCUMENT).is_none()
                || browser::confirm("Replace your saved work with this playground?")
            {
                browser::clear_fragment();
                browser::save(browser::SAVED_DOCUMENT, &state.document().to_yaml());
                dispatch.emit(Action::Dismiss);
                view.set(View::Work);
            }
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
    let puppet = doc.puppet;
    let description = doc.description.clone();
    drop(doc);
    let keys = state.engine().data_keys();
    let selected_label = state.selected.and_then(|i| lookups.get(i)).map(|l| AttrValue::from(l.key_label()));
    let selected_evaluation = state.selected.and_then(|i| state.results.get(i)).cloned();
    let relative = {
        let state = state.clone();
        Callback::from(move |p: String| state.engine().relative(&p))
    };
    let embed_link =
        hooks::use_share_link::use_share_link(matches!(*view, View::Embed { .. }).then(|| (*state).clone()));
    let reveal = dispatch.reform(|(file, line): (String, usize)| Action::Reveal(file, line));
    let reveal_line = state.reveal.as_ref().filter(|(f, _)| Some(f) == state.open_file.as_ref()).map(|(_, l)| *l);
    let resolved = if *tab == Tab::AllKeys { Rc::new(state.engine().resolved_keys()) } else { Rc::default() };
    let open_text = state.open_text();

    if let View::Embed { readonly, file, lookup } = &*view {
        let shown: Vec<String> =
            paths.iter().filter(|p| !p.ends_with('/') && file.as_ref().is_none_or(|f| f == *p)).cloned().collect();
        return html! {
            <div class="embed" data-testid="embed" data-revision={state.revision.to_string()}>
                if let Some(n) = &state.notice {
                    <div class="notice error" role="alert" data-testid="notice">{ &n.text }</div>
                }
                <nav class="embed-files" role="tablist" aria-label="Files">
                    { for shown.iter().map(|p| {
                        let selected = state.open_file.as_ref() == Some(p);
                        let onclick = { let (open, p) = (open_file.clone(), p.clone()); Callback::from(move |_: MouseEvent| open.emit(p.clone())) };
                        html! { <button type="button" role="tab" aria-selected={selected.to_string()} data-testid="file-entry" data-path={p.clone()} {onclick}>{ p.clone() }</button> }
                    }) }
                </nav>
                if let (Some(path), Some(text)) = (state.open_file.clone(), open_text) {
                    <Editor key={path.clone()} text={AttrValue::from(text)} markers={state.markers()} onchange={on_edit} readonly={*readonly}
                        language={components::editor::language_of(&path)} />
                }
                <Lookups lookups={lookups} results={state.results.clone()} selected={state.selected} format={state.format} {puppet} {keys}
                    dispatch={dispatch.clone()} readonly={*readonly} only={*lookup} />
                if let Some(link) = embed_link {
                    <a class="open-in-playground" data-testid="open-in-playground" href={link.to_string()} target="_blank" rel="noopener">{ "Open in playground ↗" }</a>
                }
            </div>
        };
    }
    let tab_button = |t: Tab, label: &str, testid: &str| {
        let onclick = {
            let tab = tab.clone();
            Callback::from(move |_: MouseEvent| tab.set(t))
        };
        html! { <button type="button" role="tab" aria-selected={(*tab == t).to_string()} data-testid={testid.to_string()} {onclick}>{ label.to_string() }</button> }
    };
    html! {
        <div class="playground" data-revision={state.revision.to_string()} data-backends={if state.backends_loaded() { "loaded" } else { "none" }}>
            if dragging {
                <div class="drop-overlay" data-testid="drop-overlay" aria-hidden="true">
                    <p>{ "Drop a control repository folder, an exported zip or a case file to open it." }</p>
                </div>
            }
            <Shortcuts paths={paths.clone()} dispatch={dispatch.clone()} on_share={on_share.clone()} />
            <Toolbar examples={(*examples).clone()} {on_example} {on_open} {on_save} {on_export} {on_reset} {on_share} theme={AttrValue::from((*theme).clone())} on_report={{ let r = report_open.clone(); Callback::from(move |_| r.set(!*r)) }} format={state.format} {on_format} {on_theme}
                on_eyaml={{ let e = eyaml_open.clone(); Callback::from(move |_| e.set(!*e)) }} />
            { secrets_bar(&state, &dispatch) }
            <section class="eyaml-tools" data-testid="eyaml-tools" aria-label="eyaml" ref={eyaml_host} hidden={!*eyaml_open} />
            if let Some((_, link)) = (*share_link).clone().filter(|(l, _)| *l == state.loaded) {
                <div class="share-bar" data-testid="share-bar">
                    <label for="share-link">{ "Link to this playground (copied):" }</label>
                    <input id="share-link" type="text" readonly=true data-testid="share-link" value={link.clone()}
                        onfocus={Callback::from(|e: FocusEvent| e.target_unchecked_into::<web_sys::HtmlInputElement>().select())} />
                    <span class="muted">{ format!("{} characters", link.len()) }</span>
                    <button type="button" class="icon" aria-label="Close" onclick={{ let s = share_link.clone(); Callback::from(move |_: MouseEvent| s.set(None)) }}>{ "×" }</button>
                </div>
            }
            if *report_open {
                <Report state={(*state).clone()} onclose={{ let r = report_open.clone(); Callback::from(move |_| r.set(false)) }} />
            }
            if matches!(*view, View::Shared | View::Example) {
                <div class="shared-bar" data-testid="shared-bar">
                    <button type="button" data-testid="back-to-my-work" onclick={back_to_work}>{ "Back to my work" }</button>
                    <button type="button" data-testid="keep-shared" onclick={keep_shared}>{ "Keep this as my work" }</button>
                </div>
            }
            if let Some(n) = &state.notice {
                <div class={classes!("notice", n.error.then_some("error"))} role="alert" data-testid="notice">
                    <span>{ &n.text }</span>
                    <button type="button" class="icon" aria-label="Dismiss" onclick={dispatch.reform(|_: MouseEvent| Action::Dismiss)}>{ "×" }</button>
                </div>
            }
            if let Some(d) = description {
                <p class="description" data-testid="description" data-stale={state.edited.to_string()}>
                    if state.edited { <span class="muted">{ "Written for the files as they were opened, which have changed since: " }</span> }
                    { d }
                </p>
            }
            <main class="workspace">
                <aside class="pane sidebar">
                    <FileTree paths={paths} open={state.open_file.clone()} environment={AttrValue::from(environment.clone())} dispatch={dispatch.clone()} />
                    <NodePanel puppet={puppet} node={AttrValue::from(node)} environment={AttrValue::from(environment)} facts={state.facts_text.clone()}
                        facts_error={state.facts_error.clone()} dispatch={dispatch.clone()} />
                </aside>
                <section class="pane editor-pane" id="editor-pane" tabindex="-1" aria-label="Editor">
                    if let (Some(path), Some(text)) = (state.open_file.clone(), open_text) {
                        <h2 class="file-title"><code>{ path.clone() }</code></h2>
                        // One editor per file, so undo history never crosses files.
                        <Editor key={path.clone()} text={AttrValue::from(text)} markers={state.markers()} onchange={on_edit} reveal={reveal_line}
                            language={components::editor::language_of(&path)} history={format!("{}:{path}", state.loaded)} />
                    } else {
                        <p class="muted empty-editor">{ "Open a file from the list, or create one." }</p>
                    }
                </section>
                <section class="pane results">
                    <Lookups lookups={lookups} results={state.results.clone()} selected={state.selected} format={state.format} {puppet} {keys} dispatch={dispatch.clone()} />
                    <div class="tabs" role="tablist">
                        { tab_button(Tab::Why, "Why", "tab-why") }
                        { tab_button(Tab::Explain, "Explain", "tab-explain") }
                        { tab_button(Tab::AllKeys, "All keys", "tab-all-keys") }
                    </div>
                    <div class="tab-body">
                        {
                            match *tab {
                                Tab::Why => html! { <Why evaluation={selected_evaluation} relative={relative.clone()} reveal={reveal.clone()} create={dispatch.reform(Action::CreateFile)} /> },
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
    recovery::install();
    browser::keep_offline();
    // A link's document is inflated by the browser, which answers later.
    spawn_local(async {
        yew::Renderer::<App>::with_props(AppProps { link: opened_link().await }).render();
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
        browser::forget(browser::SAVED_DOCUMENT);
        let root = render::<App>(AppProps { link: None }).await;
        let rows = root.query_selector_all("[data-testid=lookup-row]").unwrap();
        assert_eq!(rows.length() as usize, welcome().lookups.len());
        let first: web_sys::Element = rows.item(0).unwrap().dyn_into().unwrap();
        assert_eq!(first.get_attribute("data-key").as_deref(), Some("profile::web::port"));
        assert_eq!(first.get_attribute("data-status").as_deref(), Some("found"));
        assert_eq!(first.get_attribute("data-value-json").as_deref(), Some("8080"));
    }
}
