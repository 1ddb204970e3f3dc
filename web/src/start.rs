//! What the page opens with: an embed, a shared link, or the visitor's
//! autosaved work (else the welcome example).

use std::cell::RefCell;

use hiera_core::case::Document;
use hiera_core::share;

use crate::browser;
use crate::recovery;
use crate::state::{Notice, State, View};

/// Where the welcome example is, beside the page.
const WELCOME: &str = "examples/00-welcome.yaml";

thread_local! {
    /// The welcome example, fetched before the page is drawn (it is not in
    /// the page's WebAssembly, which must stay within its size budget).
    static FETCHED: RefCell<Option<Document>> = const { RefCell::new(None) };
}

/// Fetches the welcome example; if it cannot be had, [`welcome`] is the
/// blank document.
pub async fn fetch_welcome() {
    let text = browser::fetch_text(WELCOME).await;
    set_welcome(text.ok().and_then(|t| Document::from_yaml(&t).ok()));
}

/// Makes `doc` the welcome example.
pub fn set_welcome(doc: Option<Document>) {
    FETCHED.with(|w| *w.borrow_mut() = doc);
}

/// The document a first visit (or a reset) opens.
pub fn welcome() -> Document {
    FETCHED.with(|w| w.borrow().clone()).unwrap_or_else(Document::blank)
}

/// The autosaved document, or the welcome example. A saved document that
/// cannot be read is set aside, never overwritten.
pub fn saved_work() -> State {
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

/// What the URL asks for: an embed, the `shared` link, or the visitor's work.
pub fn start(shared: Option<Result<share::Shared, share::ShareError>>) -> State {
    let mut state = opening(shared);
    state.theme = browser::load(browser::THEME).unwrap_or_default().into();
    state
}

fn opening(shared: Option<Result<share::Shared, share::ShareError>>) -> State {
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
        state.view = View::Embed { readonly: has("readonly"), file, lookup };
        return state;
    }
    match shared {
        Some(Ok(s)) => {
            let mut state = State::shared(s);
            state.notice = Some(Notice {
                text: "You are looking at a shared playground. Your own work is kept: \"Back to my work\" returns to it, \"Keep this\" makes this your work.".into(),
                error: false,
            });
            state.view = View::Shared;
            state
        }
        Some(Err(e)) => {
            browser::clear_fragment();
            let mut state = saved_work();
            state.notice = Some(Notice { text: format!("{e} Your own work is shown instead."), error: true });
            state
        }
        None => saved_work(),
    }
}
