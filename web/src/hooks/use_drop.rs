//! Files and folders dropped anywhere on the page.

use gloo_events::{EventListener, EventListenerOptions, EventListenerPhase};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::spawn_local;
use web_sys::{DragEvent, File};
use yew::prelude::*;

use crate::browser;
use crate::hooks::use_latest::use_latest;

/// What a drop gave: `(path, file)` pairs (see [`browser::dropped_files`]),
/// or why its files could not be listed.
pub type Dropped = Result<Vec<(String, File)>, String>;

// Only drags that carry files: text dragged inside the editor stays the editor's.
fn files_of(e: &Event) -> Option<web_sys::DataTransfer> {
    let transfer = e.dyn_ref::<DragEvent>()?.data_transfer()?;
    transfer.types().includes(&"Files".into(), 0).then_some(transfer)
}

/// While `enabled`, hands what is dropped on the page to `on_drop`; returns
/// whether files are being dragged over the page, to show that they can go
/// there. While not, a drop does nothing: the browser would otherwise leave
/// the page for the dropped file.
#[hook]
pub fn use_drop(enabled: bool, on_drop: Callback<Dropped>) -> bool {
    let dragging = use_state_eq(|| false);
    let on_drop = use_latest(on_drop);
    {
        let dragging = dragging.clone();
        use_effect_with(enabled, move |&enabled| {
            let window = gloo_utils::window();
            // Before anything inside the page: the editor would insert a dropped file's text.
            let active = EventListenerOptions { phase: EventListenerPhase::Capture, passive: false };
            let over = {
                let dragging = dragging.clone();
                EventListener::new_with_options(&window, "dragover", active, move |e| {
                    let Some(transfer) = files_of(e) else { return };
                    e.prevent_default();
                    e.stop_propagation();
                    if enabled {
                        dragging.set(true);
                    } else {
                        transfer.set_drop_effect("none");
                    }
                })
            };
            let leave = {
                let dragging = dragging.clone();
                EventListener::new(&window, "dragleave", move |e| {
                    // Moving between elements also leaves one; only leaving the window counts.
                    if e.dyn_ref::<DragEvent>().is_some_and(|d| d.related_target().is_none()) {
                        dragging.set(false);
                    }
                })
            };
            let dropped = EventListener::new_with_options(&window, "drop", active, move |e| {
                let Some(transfer) = files_of(e) else { return };
                e.prevent_default();
                e.stop_propagation();
                if !enabled {
                    return;
                }
                dragging.set(false);
                // Listed now: the browser empties the transfer once the event is over.
                let listing = browser::dropped_files(&transfer);
                let on_drop = on_drop.clone();
                spawn_local(async move {
                    let files = listing.await;
                    on_drop.borrow().emit(files);
                });
            });
            move || drop([over, leave, dropped])
        });
    }
    *dragging
}
