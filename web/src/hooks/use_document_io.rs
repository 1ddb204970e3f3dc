//! What the toolbar and the bars do with whole documents: open an example, a
//! file or a dropped folder, save, export, reset, share, and go back to or
//! keep the visitor's work.

use hiera_core::case::Document;
use wasm_bindgen_futures::spawn_local;
use yew::prelude::*;

use crate::browser;
use crate::links::{share_url, shared_text, MAX_SHARE_URL};
use crate::start::{saved_work, welcome};
use crate::state::{Action, Notice, State, View};

/// The gallery's choice that opens [`Document::blank`].
const BLANK: &str = "blank";

/// What the page says when an example replaces the visitor's work on screen.
const EXAMPLE_SHOWN: &str = "You are looking at an example. Your own work is kept: \"Back to my work\" returns to it, \"Keep this\" makes the example your work.";

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
    /// Replaces the work with the welcome example, once confirmed.
    pub reset: Callback<()>,
    /// Makes a share link and copies it.
    pub share: Callback<()>,
    /// Leaves a shared link or an example for the visitor's work.
    pub back_to_work: Callback<MouseEvent>,
    /// Makes what is shown the visitor's work.
    pub keep: Callback<MouseEvent>,
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
async fn open_example(name: String, view: View, dispatch: Callback<Action>) {
    let read = if name == BLANK {
        Ok(Document::blank())
    } else {
        browser::fetch_text(&format!("examples/{name}"))
            .await
            .and_then(|t| Document::from_yaml(&t).map_err(|e| e.to_string()))
    };
    match read {
        Ok(doc) => {
            if view == View::Work {
                dispatch.emit(Action::SetView(View::Example));
            }
            dispatch.emit(Action::Load(doc));
            dispatch.emit(Action::Notify(Notice { text: EXAMPLE_SHOWN.into(), error: false }));
        }
        Err(e) => notify(&dispatch, format!("Could not open the example {name}: {e}")),
    }
}

/// Opens a file the user chose.
async fn open_file(file: web_sys::File, dispatch: Callback<Action>) {
    let name = file.name();
    match read(file).await {
        Ok(doc) => dispatch.emit(Action::Load(doc)),
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
                dispatch.emit(Action::Load(doc));
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
        let (dispatch, view) = (dispatch.clone(), state.view.clone());
        Callback::from(move |name: String| spawn_local(open_example(name, view.clone(), dispatch.clone())))
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
            if browser::confirm("Replace your work with the welcome example?") {
                // It becomes the work, whatever was on show.
                browser::clear_fragment();
                dispatch.emit(Action::SetView(View::Work));
                dispatch.emit(Action::Dismiss);
                dispatch.emit(Action::Load(welcome()));
            }
        })
    };
    let share = {
        let (state, dispatch) = (state.clone(), dispatch.clone());
        Callback::from(move |_| spawn_local(share(shared_text(&state), state.loaded, dispatch.clone())))
    };
    let back_to_work = {
        let dispatch = dispatch.clone();
        Callback::from(move |_: MouseEvent| {
            browser::clear_fragment();
            let work = saved_work();
            dispatch.emit(Action::Load(work.document().clone()));
            dispatch.emit(Action::Dismiss);
            dispatch.emit(Action::SetView(View::Work));
        })
    };
    let keep = {
        let (dispatch, state) = (dispatch.clone(), state.clone());
        Callback::from(move |_: MouseEvent| {
            if browser::load(browser::SAVED_DOCUMENT).is_none()
                || browser::confirm("Replace your saved work with this playground?")
            {
                browser::clear_fragment();
                browser::save(browser::SAVED_DOCUMENT, &state.document().to_yaml());
                dispatch.emit(Action::Dismiss);
                dispatch.emit(Action::SetView(View::Work));
            }
        })
    };
    DocumentIo { example, open, save, export, reset, share, back_to_work, keep, dragging }
}
