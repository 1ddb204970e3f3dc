//! The keyboard: skip links (to the editor, the lookups, Why), shortcuts, the overlay
//! that lists them (`?`), and quick-open (`t`). Keys typed outside the
//! editor and the page's fields act on the page, as on GitHub.

use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, HtmlInputElement, KeyboardEvent};
use yew::prelude::*;

use crate::browser;
use crate::state::{Action, Tab};

/// Each shortcut: its key and what it does, as the overlay lists them.
const KEYS: [(&str, &str); 8] = [
    ("?", "show or hide these shortcuts"),
    ("e", "put the cursor in the editor"),
    ("t", "open a file by its name"),
    ("a", "add a lookup"),
    ("s", "make a share link"),
    ("]", "next step in Why"),
    ("[", "previous step in Why"),
    ("Esc", "close this"),
];

/// Props of [`Shortcuts`].
#[derive(Properties, PartialEq)]
pub struct ShortcutsProps {
    /// The document's files, for quick-open.
    pub paths: Vec<String>,
    /// Where actions go.
    pub dispatch: Callback<Action>,
    /// Makes a share link.
    pub on_share: Callback<()>,
}

/// What is open.
#[derive(Clone, Copy, PartialEq)]
enum Open {
    Nothing,
    Help,
    FilePicker,
}

/// The listener, and the overlays it opens.
#[function_component(Shortcuts)]
pub fn shortcuts(props: &ShortcutsProps) -> Html {
    let open = use_state(|| Open::Nothing);
    {
        let (open, on_share) = (open.clone(), props.on_share.clone());
        use_effect_with((), move |_| {
            let listener = browser::on_window("keydown", move |e| {
                let Some(e) = e.dyn_ref::<KeyboardEvent>() else { return };
                if e.key() == "Escape" {
                    open.set(Open::Nothing);
                    return;
                }
                if e.ctrl_key() || e.meta_key() || e.alt_key() || typing(e) {
                    return;
                }
                match e.key().as_str() {
                    "?" => open.set(if *open == Open::Help { Open::Nothing } else { Open::Help }),
                    "e" => click_or_focus("[data-testid=editor] .cm-content, [data-testid=editor] textarea", false),
                    "t" => open.set(Open::FilePicker),
                    // As the button does: the new row's key box gets the cursor.
                    "a" => click_or_focus("[data-testid=add-lookup]", true),
                    "s" => on_share.emit(()),
                    "]" => click_or_focus("[data-testid=step-next]", true),
                    "[" => click_or_focus("[data-testid=step-prev]", true),
                    _ => return,
                }
                e.prevent_default();
            });
            move || drop(listener)
        });
    }
    use_effect_with(*open, |open| {
        if *open == Open::FilePicker {
            click_or_focus("#quick-open", false);
        }
    });
    let close = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(Open::Nothing))
    };
    // The page's own fragment is a share link's: the skip links move focus
    // without changing it.
    let skip = |to: &'static str, tab: Option<Tab>| {
        let dispatch = props.dispatch.clone();
        Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            if let Some(tab) = tab {
                dispatch.emit(Action::SetTab(tab));
            }
            click_or_focus(to, false);
        })
    };
    let overlay = match *open {
        Open::Nothing => html! {},
        Open::Help => html! {
            <div class="overlay" data-testid="shortcuts" role="dialog" aria-label="Keyboard shortcuts">
                <h2>{ "Keyboard shortcuts" }</h2>
                <dl>
                    { for KEYS.iter().map(|(k, what)| html! { <><dt><kbd>{ *k }</kbd></dt><dd>{ *what }</dd></> }) }
                </dl>
                <button type="button" onclick={close}>{ "Close" }</button>
            </div>
        },
        Open::FilePicker => quick_open(props, open),
    };
    html! {
        <>
            <a class="skip-link" href="#editor-pane" onclick={skip("#editor-pane", None)}>{ "Skip to the editor" }</a>
            // The lookups are one stop: the selected row's (the list's arrow keys move it).
            <a class="skip-link" href="#lookups" data-testid="skip-to-lookups"
                onclick={skip(".lookup-list [tabindex='0'], [data-testid=add-lookup]", None)}>{ "Skip to the lookups" }</a>
            <a class="skip-link" href="#results-body" data-testid="skip-to-why" onclick={skip("#results-body", Some(Tab::Why))}>{ "Skip to Why" }</a>
            { overlay }
        </>
    }
}

/// A box to type a file's name in, completed from the document's files.
fn quick_open(props: &ShortcutsProps, open: UseStateHandle<Open>) -> Html {
    let submit = {
        let (dispatch, paths, open) = (props.dispatch.clone(), props.paths.clone(), open.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let typed = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id("quick-open"))
                .and_then(|i| i.dyn_into::<HtmlInputElement>().ok())
                .map(|i| i.value())
                .unwrap_or_default();
            // The path itself, or the one file whose path holds what was typed.
            let matching: Vec<&String> = paths.iter().filter(|p| p.contains(typed.trim())).collect();
            let path =
                paths.iter().find(|p| **p == typed).or(matching.first().copied().filter(|_| matching.len() == 1));
            if let Some(path) = path {
                dispatch.emit(Action::OpenFile(path.clone()));
                open.set(Open::Nothing);
            }
        })
    };
    let focus = Callback::from(|e: FocusEvent| {
        if let Some(i) = e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()) {
            i.select();
        }
    });
    html! {
        <form class="overlay" data-testid="quick-open" role="dialog" aria-label="Open a file" onsubmit={submit}>
            <label for="quick-open">{ "Open a file" }</label>
            <input id="quick-open" type="text" list="quick-open-files" autocomplete="off" spellcheck="false" data-testid="quick-open-input" onfocus={focus} />
            <datalist id="quick-open-files">
                { for props.paths.iter().filter(|p| !p.ends_with('/')).map(|p| html! { <option value={p.clone()} /> }) }
            </datalist>
        </form>
    }
}

/// Whether a key goes to a field or the editor rather than to the page.
fn typing(e: &KeyboardEvent) -> bool {
    e.target()
        .and_then(|t| t.dyn_into::<HtmlElement>().ok())
        .is_some_and(|t| matches!(t.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT") || t.is_content_editable())
}

/// Clicks (`click`) or focuses the first element `selector` finds.
fn click_or_focus(selector: &str, click: bool) {
    let found = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(selector).ok().flatten())
        .and_then(|e| e.dyn_into::<HtmlElement>().ok());
    if let Some(e) = found {
        if click {
            e.click();
        } else {
            let _ = e.focus();
        }
    }
}
