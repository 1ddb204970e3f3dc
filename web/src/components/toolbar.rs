//! The top bar: the tour, the gallery, opening and saving case files, resetting, the
//! eyaml tools, the value format and the colour theme.

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::state::Format;

/// Props of [`Toolbar`].
#[derive(Properties, PartialEq)]
pub struct ToolbarProps {
    /// The gallery's example files.
    pub examples: Vec<AttrValue>,
    /// Opens a gallery example by file name.
    pub on_example: Callback<String>,
    /// Opens a case file the user picked.
    pub on_open: Callback<web_sys::File>,
    /// Saves the document as a case file.
    pub on_save: Callback<()>,
    /// Downloads the document as a control-repo zip.
    pub on_export: Callback<()>,
    /// Goes back to the welcome example.
    pub on_reset: Callback<()>,
    /// Makes a link to this playground.
    pub on_share: Callback<()>,
    /// Opens "Report it".
    pub on_report: Callback<()>,
    /// The value format.
    pub format: Format,
    /// Changes the value format.
    pub on_format: Callback<Format>,
    /// Cycles the colour theme.
    pub on_theme: Callback<()>,
    /// The colour theme chosen: `dark`, `light`, or empty for the system's.
    pub theme: AttrValue,
    /// Shows or hides the eyaml tools.
    pub on_eyaml: Callback<()>,
    /// The visitor's works, newest first.
    pub works: std::rc::Rc<Vec<crate::works::Entry>>,
    /// The work on show, if what is shown is one.
    pub work: Option<AttrValue>,
    /// Shows a work, by id.
    pub on_work: Callback<AttrValue>,
    /// Forgets a work, by id.
    pub on_delete_work: Callback<AttrValue>,
    /// Reads the list of works again.
    pub on_list_works: Callback<()>,
    /// Opens the tour at the first lesson not passed yet.
    pub on_tour: Callback<()>,
    /// Whether the page shows the welcome to someone new: the tour is offered.
    pub welcome: bool,
}

/// The value of the Works menu's choice that forgets the work on show.
const FORGET: &str = "forget";

/// A gallery file name as a title: `05-hash-vs-deep.yaml` → `Hash vs deep`.
pub fn example_title(file: &str) -> String {
    let stem = file.trim_end_matches(".yaml");
    let stem =
        stem.split_once('-').filter(|(n, _)| n.chars().all(|c| c.is_ascii_digit())).map_or(stem, |(_, rest)| rest);
    let words = stem.replace('-', " ");
    let mut chars = words.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// The top bar.
#[function_component(Toolbar)]
pub fn toolbar(props: &ToolbarProps) -> Html {
    let on_example = {
        let cb = props.on_example.clone();
        Callback::from(move |e: Event| {
            let select = e.target_unchecked_into::<HtmlSelectElement>();
            let name = select.value();
            select.set_value("");
            if !name.is_empty() {
                cb.emit(name);
            }
        })
    };
    let on_open = {
        let cb = props.on_open.clone();
        Callback::from(move |e: Event| {
            let input = e.target_unchecked_into::<HtmlInputElement>();
            if let Some(file) = input.files().and_then(|f| f.get(0)) {
                cb.emit(file);
            }
            // Opening the same file again must fire again.
            input.set_value("");
        })
    };
    let on_format = {
        let cb = props.on_format.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            if let Some((f, _)) = Format::ALL.iter().find(|(_, label)| *label == v) {
                cb.emit(*f);
            }
        })
    };
    let on_work = {
        let (open, forget, shown) = (props.on_work.clone(), props.on_delete_work.clone(), props.work.clone());
        Callback::from(move |e: Event| {
            let select = e.target_unchecked_into::<HtmlSelectElement>();
            let choice = select.value();
            select.set_value("");
            match (choice.as_str(), &shown) {
                ("", _) => {}
                (FORGET, Some(id)) => forget.emit(id.clone()),
                (FORGET, None) => {}
                (id, _) => open.emit(AttrValue::from(id.to_string())),
            }
        })
    };
    let list_works = props.on_list_works.reform(|_: FocusEvent| ());
    let save = props.on_save.reform(|_: MouseEvent| ());
    let export = props.on_export.reform(|_: MouseEvent| ());
    let reset = props.on_reset.reform(|_: MouseEvent| ());
    let share = props.on_share.reform(|_: MouseEvent| ());
    let theme = props.on_theme.reform(|_: MouseEvent| ());
    let eyaml = props.on_eyaml.reform(|_: MouseEvent| ());
    // The button says which theme is on, and what a click turns it to.
    let (label, title) = match props.theme.as_str() {
        "dark" => ("☾ Dark", "Colour theme: dark (click for light)"),
        "light" => ("☀ Light", "Colour theme: light (click for the system's)"),
        _ => ("◐ System", "Colour theme: the system's (click for dark)"),
    };
    html! {
        <header class="topbar">
            <h1>{ "Hiera Playground" }</h1>
            <div class="toolbar">
                if props.welcome {
                    <button type="button" class="offer" data-testid="start-tour" onclick={props.on_tour.reform(|_: MouseEvent| ())}
                        title="New to Hiera? Twenty-one short lessons, each a task the page checks as you type">{ "Take the tour" }</button>
                } else {
                    <button type="button" data-testid="open-tour" onclick={props.on_tour.reform(|_: MouseEvent| ())}
                        title="Learn Hiera with lessons: a task each, checked as you type">{ "Tour" }</button>
                }
                <select aria-label="Open an example" data-testid="gallery" onchange={on_example}>
                    <option value="" selected=true>{ "Examples…" }</option>
                    <option value="blank">{ "Blank document" }</option>
                    { for props.examples.iter().map(|f| html! { <option value={f.clone()}>{ example_title(f) }</option> }) }
                </select>
                <select aria-label="Your works" data-testid="works" onchange={on_work} onfocus={list_works}
                    title="Every document you edited or opened in this browser, newest first">
                    <option value="" selected=true>{ format!("Works ({})", props.works.len()) }</option>
                    { for props.works.iter().map(|w| {
                        let shown = props.work.as_ref() == Some(&w.id);
                        let when = js_sys::Date::new(&(w.saved as f64).into()).to_locale_string("default", &wasm_bindgen::JsValue::UNDEFINED);
                        let label = format!("{}{} · {}", if shown { "▸ " } else { "" }, w.title, String::from(when));
                        html! { <option value={w.id.clone()} data-testid="work-entry" disabled={shown}>{ label }</option> }
                    }) }
                    if props.work.is_some() {
                        <option value={FORGET} data-testid="forget-work">{ "Forget the work on show…" }</option>
                    }
                </select>
                <label class="button">
                    { "Open…" }
                    <input type="file" accept=".yaml,.yml,.zip" data-testid="open-case" class="visually-hidden" onchange={on_open} />
                </label>
                <button type="button" data-testid="save-case" onclick={save}>{ "Save" }</button>
                <button type="button" data-testid="export-zip" onclick={export} title="The files as a control repository, with the puppet lookup commands">{ "Export zip" }</button>
                <button type="button" data-testid="reset" onclick={reset} title="A new work from the welcome example; this one stays in Works">{ "New" }</button>
                <button type="button" data-testid="share-button" onclick={share}>{ "Share link" }</button>
                <button type="button" data-testid="report-button" onclick={props.on_report.reform(|_: MouseEvent| ())}
                    title="The document and its answers as Markdown for an issue or a chat, and the markup to embed it">{ "Report it" }</button>
                <button type="button" data-testid="eyaml-button" onclick={eyaml} title="Make eyaml keys and encrypt values, as the eyaml command does">{ "eyaml…" }</button>
                <select aria-label="Show values as" data-testid="value-format" onchange={on_format}>
                    { for Format::ALL.iter().map(|(f, label)| html! { <option value={*label} selected={*f == props.format}>{ format!("Values: {label}") }</option> }) }
                </select>
                <button type="button" {title} data-testid="theme" data-theme={props.theme.clone()} onclick={theme}>{ label }</button>
            </div>
        </header>
    }
}
