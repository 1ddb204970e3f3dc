use wasm_bindgen_futures::spawn_local;
use yew::prelude::*;

use crate::browser;
use crate::chunks::{fetch, Feature};
use crate::state::{Action, Notice, State, View};

/// How long after the page is drawn the code of every view is fetched, in
/// the background: the first result does not wait for it, a view shown
/// later opens at once, and the service worker keeps it for offline use.
/// An embed, which shows none of those views (a documentation page may hold
/// several), fetches only what it shows.
const PREFETCH_AFTER_MS: i32 = 2000;

/// Fetches the code a view needs the first time it is shown (see
/// [`crate::chunks`]), and every view's soon after the page is drawn, and
/// hands it to the reducer.
#[hook]
pub fn use_chunks(state: &UseReducerHandle<State>) {
    {
        let dispatcher = state.dispatcher();
        let embedded = matches!(state.view, View::Embed { .. });
        use_effect_with(embedded, move |&embedded| {
            if embedded {
                return;
            }
            spawn_local(async move {
                browser::sleep(PREFETCH_AFTER_MS).await;
                for &feature in Feature::ALL {
                    // A view shown later asks again, and says so if it fails.
                    let Ok(chunk) = fetch(feature).await else { return };
                    dispatcher.dispatch(Action::Fetched(chunk));
                }
            });
        });
    }
    let dispatcher = state.dispatcher();
    use_effect_with(state.wanted_code(), move |wanted| {
        if let Some(feature) = *wanted {
            spawn_local(async move {
                match fetch(feature).await {
                    Ok(chunk) => dispatcher.dispatch(Action::Fetched(chunk)),
                    Err(_) => dispatcher.dispatch(Action::Notify(Notice {
                        text: format!(
                            "The code of {} could not be fetched: the page is offline, or was updated since it was opened (reload it). Show it again to retry.",
                            feature.what()
                        ),
                        error: true,
                    })),
                }
            });
        }
    });
}
