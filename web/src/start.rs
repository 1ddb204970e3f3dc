//! What the page opens with: an embed, a shared link, or what the tab
//! showed before a reload (else the visitor's latest work, else the
//! welcome example).

use std::cell::RefCell;

use hiera_core::case::Document;
use hiera_core::share;

use crate::browser;
use crate::recovery;
use crate::state::{Notice, State, View};
use crate::works::{self, Shown};

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
    set_welcome(text.ok().and_then(|t| Document::from_yaml(&t).ok()).map(unpinned));
}

/// A gallery document without the answers recorded from Puppet: they make
/// it a test in `cargo test`, and pins are the visitor's own.
fn unpinned(mut doc: Document) -> Document {
    doc.lookups.iter_mut().for_each(|l| l.expect = None);
    doc
}

/// Makes `doc` the welcome example.
pub fn set_welcome(doc: Option<Document>) {
    FETCHED.with(|w| *w.borrow_mut() = doc);
}

/// The document a first visit (or a reset) opens.
pub fn welcome() -> Document {
    FETCHED.with(|w| w.borrow().clone()).unwrap_or_else(Document::blank)
}

/// The gallery's choice that opens [`Document::blank`].
pub const BLANK: &str = "blank";

/// An example of the gallery, by its file name.
pub async fn example(name: &str) -> Result<Document, String> {
    if name == BLANK {
        return Ok(Document::blank());
    }
    let text = browser::fetch_text(&format!("examples/{name}")).await?;
    Document::from_yaml(&text).map(unpinned).map_err(|e| e.to_string())
}

/// What the visitor had on screen in this tab before a reload, else their
/// latest work.
pub enum Mine {
    /// A work: its id, and its document or why it cannot be read.
    Work(String, Result<Document, String>),
    /// An example the tab showed (its name, its document), and the work
    /// before it.
    Example(String, Document, Option<String>),
    /// The page's one saved document from before works, unreadable.
    Unreadable(String),
    /// Nothing: a first visit.
    Nothing,
}

/// Reads [`Mine`]: a work kept packed is inflated by the browser, an
/// example fetched, before the page is drawn.
pub async fn mine() -> Mine {
    match works::tab() {
        Some(Shown::Work(id)) => {
            if let Some(doc) = works::read(&id).await {
                return Mine::Work(id, doc);
            }
        }
        Some(Shown::Example(name, mine)) => {
            if let Ok(doc) = example(&name).await {
                return Mine::Example(name, doc, mine);
            }
        }
        None => {}
    }
    if let Some(latest) = works::list().into_iter().next() {
        if let Some(doc) = works::read(&latest.id).await {
            return Mine::Work(latest.id.to_string(), doc);
        }
    }
    match works::adopt_legacy() {
        Some(Ok((id, doc))) => Mine::Work(id, Ok(doc)),
        Some(Err(text)) => Mine::Unreadable(text),
        None => Mine::Nothing,
    }
}

/// The state that shows [`Mine`]. A saved document that cannot be read is
/// set aside, never overwritten.
pub fn saved_work(mine: Mine) -> State {
    let mut state = match mine {
        Mine::Work(id, Ok(mut doc)) => {
            let recovered = recovery::restore(&mut doc);
            let mut state = State::new(doc);
            state.work = Some(id.clone().into());
            state.mine = Some(id.into());
            if let Some(path) = recovered {
                state.notice = Some(Notice {
                    text: format!("The engine failed last time; your last edit of {path} is back."),
                    error: true,
                });
            }
            state
        }
        Mine::Work(id, Err(e)) => State::with_notice(
            welcome(),
            &format!(
                "Your saved work could not be read ({e}); it is kept in localStorage under hiera-playground/work/{id}."
            ),
        ),
        Mine::Example(name, doc, mine) => {
            let mut state = State::new(doc);
            state.view = View::Example;
            state.example = Some(name.into());
            state.mine = mine.map(Into::into);
            state
        }
        Mine::Unreadable(text) => {
            browser::save(browser::UNREADABLE_DOCUMENT, &text);
            let why = Document::from_yaml(&text).err().map(|e| e.to_string()).unwrap_or_default();
            State::with_notice(
                welcome(),
                &format!(
                    "Your saved work could not be read ({why}); it is kept in localStorage under {}.",
                    browser::UNREADABLE_DOCUMENT
                ),
            )
        }
        Mine::Nothing => State::new(welcome()),
    };
    state.works = std::rc::Rc::new(works::list());
    state
}

/// What the URL asks for: an embed, the `shared` link, or the visitor's work.
pub fn start(shared: Option<Result<share::Shared, share::ShareError>>, mine: Mine) -> State {
    let mut state = opening(shared, mine);
    state.theme = browser::load(browser::THEME).unwrap_or_default().into();
    state
}

fn opening(shared: Option<Result<share::Shared, share::ShareError>>, mine: Mine) -> State {
    let query = browser::query();
    let has = |k: &str| query.iter().any(|(q, _)| q == k);
    let param = |k: &str| query.iter().find(|(q, _)| q == k).map(|(_, v)| v.clone());
    if has("embed") {
        let (file, lookup) = (param("file"), param("lookup").and_then(|l| l.parse::<usize>().ok()));
        // In a frame without a link, the document is on its way from www/embed.js.
        let waiting = shared.is_none() && browser::in_frame();
        let mut state = match shared {
            Some(Ok(s)) => State::shared(s),
            Some(Err(e)) => State::with_notice(welcome(), &e.to_string()),
            None => State::new(welcome()),
        };
        if let Some(f) = file.as_ref().filter(|f| state.document().files.iter().any(|(p, _)| p == *f)) {
            state.open_file = Some(f.clone());
        }
        let compact = has("compact");
        if lookup.is_some() || compact {
            state.selected = lookup;
        }
        state.view = View::Embed { readonly: has("readonly"), compact, file, lookup, waiting };
        return state;
    }
    match shared {
        Some(Ok(s)) => {
            let mut state = State::shared(s);
            state.mine = match mine {
                Mine::Work(id, _) => Some(id.into()),
                _ => None,
            };
            state.notice = Some(Notice {
                text: "You are looking at a shared playground. Your own work is kept: \"Back to my work\" returns to it, \"Keep this\" makes this your work.".into(),
                error: false,
            });
            state.view = View::Shared;
            state
        }
        Some(Err(e)) => {
            browser::clear_fragment();
            let mut state = saved_work(mine);
            state.notice = Some(Notice { text: format!("{e} Your own work is shown instead."), error: true });
            state
        }
        None => saved_work(mine),
    }
}
