//! The page's effects on the world around it: autosave, the page that embeds
//! it, and the gallery's list.

use hiera_core::case::Document;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::spawn_local;
use yew::prelude::*;

use crate::browser;
use crate::hooks::use_latest::use_latest;
use crate::state::{Action, Notice, State, View};
use crate::works::{self, NotSaved, Shown};

/// Keeps the visitor's work: saved once typing pauses (writing a large
/// document on every keystroke would slow typing down) and at once when the
/// page is left; packed when its text does not fit; and, when it cannot be
/// kept at all, said on the page and asked about before the page is left.
/// Notes what the tab shows, for a reload, and holds its work against other
/// tabs.
#[hook]
pub fn use_autosave(state: &UseReducerHandle<State>) {
    let latest = use_latest(state.clone());
    {
        let latest = latest.clone();
        use_effect_with((), move |_| {
            // Hidden or left (reload, close, another tab).
            let listener = browser::on_window("pagehide", move |_| {
                let state = latest.borrow();
                if let Some(id) = &state.work {
                    let _ = works::save(id, state.document());
                }
            });
            move || drop(listener)
        });
    }
    {
        let latest = latest.clone();
        use_effect_with((state.revision, state.work.clone()), move |(revision, work)| {
            let (revision, dispatch) = (*revision, latest.borrow().dispatcher());
            // Another document shown within the delay (an example, a minimal
            // example, another work) must not cost the last edits: the work
            // as it was is saved at once when it stops being the one on show
            // (the state kept here holds its own document, whatever is shown since).
            let shown = (**latest.borrow()).clone();
            let leaving = {
                let (latest, work) = (latest.clone(), work.clone());
                move || {
                    if let Some(id) = work.filter(|id| latest.borrow().work.as_ref() != Some(id)) {
                        let _ = works::save(&id, shown.document());
                    }
                }
            };
            if let Some(id) = work.clone() {
                spawn_local(async move {
                    yew::platform::time::sleep(std::time::Duration::from_millis(300)).await;
                    let current = (**latest.borrow()).clone();
                    if current.revision != revision || current.work.as_ref() != Some(&id) {
                        return;
                    }
                    let doc = current.document().clone();
                    let saved = match works::save(&id, &doc) {
                        Ok(()) => Ok(()),
                        Err(_) => works::save_packed(&id, &doc).await,
                    };
                    let first = saved.is_ok() && !current.works.iter().any(|w| w.id == id);
                    let unsaved = saved.err().map(|NotSaved(why)| AttrValue::from(why));
                    if unsaved != current.unsaved {
                        dispatch.dispatch(Action::Saved(unsaved));
                    }
                    // A new work: the Works menu counts it.
                    if first {
                        dispatch.dispatch(Action::Works(works::list()));
                    }
                });
            }
            leaving
        });
    }
    // Leaving while the work is not saved loses it: the browser asks first.
    use_effect_with(state.unsaved.is_some(), |unsaved| {
        let listener = unsaved.then(|| {
            browser::on_window("beforeunload", |e| {
                e.prevent_default();
                if let Some(e) = e.dyn_ref::<web_sys::BeforeUnloadEvent>() {
                    e.set_return_value("Your work is not saved.");
                }
            })
        });
        move || drop(listener)
    });
    // What the tab shows, for a reload; the work held against other tabs.
    let dispatch = state.dispatcher();
    let shown = (state.work.clone(), state.example.clone(), state.mine.clone(), state.view.clone());
    use_effect_with(shown, move |(work, example, mine, view)| {
        if let Some(id) = work {
            works::set_tab(&Shown::Work(id.to_string()));
            if *view == View::Work {
                // A shared link edited is the link no more.
                browser::clear_fragment();
            }
            let id = id.to_string();
            spawn_local(async move {
                if !works::hold(&id).await {
                    dispatch.dispatch(Action::Fork);
                }
            });
        } else if let Some(name) = example {
            works::set_tab(&Shown::Example(name.to_string(), mine.as_ref().map(|m| m.to_string())));
        } else {
            works::forget_tab();
        }
    });
}

/// An embedded page takes its document from the page that embeds it
/// (www/embed.js), and from no one else; and, once that document is shown,
/// tells it how tall it is whenever that changes (the editor arriving, a
/// result growing), even while the frame is off-screen.
#[hook]
pub fn use_embedding(state: &UseReducerHandle<State>) {
    let (dispatch, embedded) = (state.dispatcher(), matches!(state.view, View::Embed { .. }));
    let shown = matches!(state.view, View::Embed { waiting: false, .. });
    use_effect_with(shown, |shown| {
        let observer = shown.then(browser::watch_height).flatten();
        move || drop(observer)
    });
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

/// Listens for `{type: "hiera-playground:load"}` messages from the parent
/// window; the listener stops when the returned guard is dropped.
fn parent_messages(on_load: impl Fn(wasm_bindgen::JsValue) + 'static) -> impl Drop {
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

/// Fetches the gallery's list, which ships with the page.
#[hook]
pub fn use_gallery(state: &UseReducerHandle<State>) {
    let dispatch = state.dispatcher();
    use_effect_with((), move |_| {
        spawn_local(async move {
            if let Ok(index) = browser::fetch_text("examples/index.txt").await {
                let names = index.lines().map(str::trim).filter(|l| !l.is_empty());
                dispatch.dispatch(Action::Examples(names.map(|l| AttrValue::from(l.to_string())).collect()));
            }
        });
    });
}
