//! What the toolbar and the bars do with whole documents: open an example, a
//! file or a dropped folder, save, export, reset, share, and go back to or
//! keep the visitor's work.

use hiera_core::case::Document;
use wasm_bindgen_futures::spawn_local;
use yew::prelude::*;

use crate::browser;
use crate::links::{share_url, shared_text, MAX_SHARE_URL};
use crate::start::welcome;
use crate::state::{Action, Notice, State, View};
use crate::works;

/// What the page says when an example replaces the visitor's work on screen.
const EXAMPLE_SHOWN: &str = "You are looking at an example. Your own work is kept: \"Back to my work\" returns to it; what you change here is kept as a work of its own.";

/// The callbacks of [`use_document_io`].
pub struct DocumentIo {
    /// Opens an example of the gallery by name.
    pub example: Callback<String>,
    /// Opens a file the user chose.
    pub open: Callback<web_sys::File>,
    /// Downloads the document as a case file.
    pub save: Callback<()>,
    /// Downloads the document as a control-repo zip.
    pub export: Callback<()>,
    /// Starts a new work from the welcome example, once confirmed.
    pub reset: Callback<()>,
    /// Makes a share link and copies it.
    pub share: Callback<()>,
    /// Leaves a shared link or an example for the visitor's work.
    pub back_to_work: Callback<MouseEvent>,
    /// Makes what is shown a work of the visitor's.
    pub keep: Callback<MouseEvent>,
    /// Shows one of the visitor's works, by id.
    pub open_work: Callback<AttrValue>,
    /// Forgets one of the visitor's works, by id, once confirmed.
    pub delete_work: Callback<AttrValue>,
    /// Reads the list of works again (before the Works menu opens).
    pub list_works: Callback<()>,
    /// Whether something is being dragged over the page.
    pub dragging: bool,
}

/// Reads a file the user opened: a control-repo zip (see Export zip) or a case file.
async fn read(file: web_sys::File) -> Result<Document, String> {
    if file.name().to_ascii_lowercase().ends_with(".zip") {
        crate::backends::import_zip(&browser::read_bytes(file).await?).await
    } else {
        browser::read_file(file).await.and_then(|t| Document::from_yaml(&t).map_err(|e| e.to_string()))
    }
}

/// Tells the user of a problem.
fn notify(dispatch: &Callback<Action>, text: String) {
    dispatch.emit(Action::Notify(Notice { text, error: true }));
}

/// Opens an example of the gallery beside the visitor's work, which stays
/// saved, one click away, as under a shared link.
async fn open_example(name: String, dispatch: Callback<Action>) {
    match crate::start::example(&name).await {
        Ok(doc) => {
            dispatch.emit(Action::ShowExample(name.into(), doc));
            dispatch.emit(Action::Notify(Notice { text: EXAMPLE_SHOWN.into(), error: false }));
        }
        Err(e) => notify(&dispatch, format!("Could not open the example {name}: {e}")),
    }
}

/// Shows the work `id`, or says why it cannot be read.
async fn open_work(id: AttrValue, dispatch: Callback<Action>) {
    match works::read(&id).await {
        Some(Ok(doc)) => {
            browser::clear_fragment();
            dispatch.emit(Action::Dismiss);
            dispatch.emit(Action::LoadWork(id, doc));
        }
        Some(Err(e)) => notify(&dispatch, format!("This work could not be read ({e}); it is kept in localStorage.")),
        None => notify(&dispatch, "This work is no longer kept in this browser.".into()),
    }
}

/// Opens a file the user chose.
async fn open_file(file: web_sys::File, dispatch: Callback<Action>) {
    let name = file.name();
    match read(file).await {
        Ok(doc) => dispatch.emit(Action::LoadNew(doc)),
        Err(e) => notify(&dispatch, format!("Could not open {name}: {e}")),
    }
}

/// Opens what was dropped: one file as Open… would, anything else as a
/// folder (of which only the files Hiera reads are listed: there may be none).
fn open_dropped(dropped: crate::hooks::use_drop::Dropped, dispatch: Callback<Action>) {
    let mut files = match dropped {
        Ok(files) => files,
        Err(e) => return notify(&dispatch, format!("Could not open what was dropped: {e}")),
    };
    if files.len() == 1 && !files[0].0.contains('/') {
        return spawn_local(open_file(files.remove(0).1, dispatch));
    }
    let what = files
        .first()
        .and_then(|(p, _)| p.split_once('/'))
        .map_or("what was dropped".into(), |(f, _)| format!("the folder {f}"));
    spawn_local(async move {
        let read = match browser::read_folder(files).await {
            Ok(files) => crate::backends::import_folder(files).await,
            Err(e) => Err(e),
        };
        match read {
            Ok(doc) => {
                let text = format!(
                    "Opened {} Hiera files from {what} (other files are left out).{}",
                    doc.files.len(),
                    if doc.lookups.is_empty() { " Add a lookup to query them." } else { "" }
                );
                dispatch.emit(Action::LoadNew(doc));
                dispatch.emit(Action::Notify(Notice { text, error: false }));
            }
            Err(e) => notify(&dispatch, format!("Could not open {what}: {e}")),
        }
    });
}

/// Downloads the document as a control-repo zip, made by the extras module.
async fn export(document: Document, dispatch: Callback<Action>) {
    let downloaded = crate::backends::export_zip(&document)
        .await
        .and_then(|zip| browser::download_bytes("hiera-playground.zip", &zip, "application/zip"));
    if let Err(e) = downloaded {
        notify(&dispatch, format!("Could not export: {e}"));
    }
}

/// Makes a link to what `text` (see [`shared_text`]) holds, for the
/// document loaded `loaded`th, and copies it.
async fn share(text: String, loaded: u64, dispatch: Callback<Action>) {
    let url = match share_url(text).await {
        Ok(url) => url,
        Err(e) => return notify(&dispatch, format!("Could not make a link: {e}")),
    };
    if url.len() > MAX_SHARE_URL {
        dispatch.emit(Action::ShareLink(None));
        notify(
            &dispatch,
            format!(
                "This playground is too large for a link ({} characters; links stop at {MAX_SHARE_URL}). Use Save to share it as a case file.",
                url.len()
            ),
        );
        return;
    }
    browser::copy(&url);
    dispatch.emit(Action::ShareLink(Some((loaded, url))));
}

/// The page's document actions, acting on `state` through `dispatch`.
#[hook]
pub fn use_document_io(state: &UseReducerHandle<State>, dispatch: &Callback<Action>) -> DocumentIo {
    let example = {
        let dispatch = dispatch.clone();
        Callback::from(move |name: String| spawn_local(open_example(name, dispatch.clone())))
    };
    let open = {
        let dispatch = dispatch.clone();
        Callback::from(move |file: web_sys::File| spawn_local(open_file(file, dispatch.clone())))
    };
    let dragging = {
        let dispatch = dispatch.clone();
        let on_drop = Callback::from(move |dropped| open_dropped(dropped, dispatch.clone()));
        crate::hooks::use_drop::use_drop(matches!(state.view, View::Work | View::Example), on_drop)
    };
    let save = {
        let (state, dispatch) = (state.clone(), dispatch.clone());
        Callback::from(move |_| {
            if let Err(e) = browser::download("hiera-playground.yaml", &state.document().to_yaml()) {
                notify(&dispatch, format!("Could not save: {e}"));
            }
        })
    };
    let export = {
        let (state, dispatch) = (state.clone(), dispatch.clone());
        Callback::from(move |_| spawn_local(export(state.shareable(), dispatch.clone())))
    };
    let reset = {
        let dispatch = dispatch.clone();
        Callback::from(move |_| {
            if browser::confirm("Start a new work from the welcome example? Your work stays in Works.") {
                browser::clear_fragment();
                dispatch.emit(Action::Dismiss);
                dispatch.emit(Action::LoadNew(welcome()));
            }
        })
    };
    let share = {
        let (state, dispatch) = (state.clone(), dispatch.clone());
        Callback::from(move |_| spawn_local(share(shared_text(&state), state.loaded, dispatch.clone())))
    };
    let back_to_work = {
        let (dispatch, mine) = (dispatch.clone(), state.mine.clone());
        Callback::from(move |_: MouseEvent| {
            let latest = works::list().into_iter().next().map(|e| e.id);
            match mine.clone().or(latest) {
                Some(id) => spawn_local(open_work(id, dispatch.clone())),
                None => {
                    browser::clear_fragment();
                    dispatch.emit(Action::Dismiss);
                    dispatch.emit(Action::SetView(View::Work));
                    dispatch.emit(Action::Load(welcome()));
                }
            }
        })
    };
    let keep = {
        let dispatch = dispatch.clone();
        Callback::from(move |_: MouseEvent| {
            dispatch.emit(Action::Dismiss);
            dispatch.emit(Action::Keep);
        })
    };
    let open_work = {
        let dispatch = dispatch.clone();
        Callback::from(move |id: AttrValue| spawn_local(open_work(id, dispatch.clone())))
    };
    let list_works = {
        let dispatch = dispatch.clone();
        Callback::from(move |_| dispatch.emit(Action::Works(works::list())))
    };
    let delete_work = {
        let (dispatch, shown) = (dispatch.clone(), state.work.clone());
        Callback::from(move |id: AttrValue| {
            let title = works::list().into_iter().find(|e| e.id == id).map(|e| e.title).unwrap_or_default();
            if browser::confirm(&format!("Forget the work \"{title}\"? It cannot be brought back.")) {
                works::remove(&id);
                if shown.as_ref() == Some(&id) {
                    // What is on show is no longer saved: it is kept anew once edited.
                    dispatch.emit(Action::Load(welcome()));
                }
                dispatch.emit(Action::Works(works::list()));
            }
        })
    };
    DocumentIo {
        example,
        open,
        save,
        export,
        reset,
        share,
        back_to_work,
        keep,
        open_work,
        delete_work,
        list_works,
        dragging,
    }
}
