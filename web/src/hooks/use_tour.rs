//! The tour: its lessons are fetched when it opens (`lessons/`, not in the
//! page's first download), a lesson opens beside the visitor's work with a
//! link of its own (`?lesson=NAME`; `?embed&lesson=NAME` in a frame), and the
//! lessons passed are kept in the browser.

use wasm_bindgen_futures::spawn_local;
use yew::prelude::*;

use crate::browser;
use crate::chunks::{fetch, Chunk, Feature};
use crate::state::{Action, Notice, State, View};

/// Opens the lesson named in the address (`?lesson=NAME`) once, keeps the
/// lessons passed, and gives the callback that opens a lesson by file name
/// (empty: the first not passed yet).
#[hook]
pub fn use_tour(state: &UseReducerHandle<State>) -> Callback<String> {
    let open = {
        let dispatch = state.dispatcher();
        Callback::from(move |name: String| {
            let dispatch = dispatch.clone();
            spawn_local(async move {
                if let Err(e) = open_lesson(&name, &dispatch).await {
                    dispatch.dispatch(Action::Notify(Notice {
                        text: format!("The tour could not open: {e}"),
                        error: true,
                    }));
                }
            });
        })
    };
    {
        let open = open.clone();
        use_effect_with((), move |_| {
            let asked = browser::query().into_iter().find(|(k, _)| k == "lesson").map(|(_, v)| v);
            if let Some(name) = asked {
                open.emit(name);
            }
        });
    }
    // What the learner passed outlives the page; the lesson's link follows
    // the lesson on show (an embed's address is its page's to keep).
    let shown = state.tour.as_ref().map(|t| (t.name(), t.passed.clone()));
    let embedded = matches!(state.view, View::Embed { .. });
    use_effect_with(shown, move |shown| match shown {
        Some((name, passed)) => {
            let lines: Vec<&str> = passed.iter().map(|p| p.as_str()).collect();
            browser::save(browser::TOUR, &lines.join("\n"));
            if !embedded {
                browser::replace_query(&format!("lesson={}", name.trim_end_matches(".yaml")));
            }
        }
        None => {
            if !embedded && browser::query().iter().any(|(k, _)| k == "lesson") {
                browser::replace_query("");
            }
        }
    });
    open
}

/// Fetches the lessons' list and the lesson `name` (a file, with or without
/// `.yaml`; empty: the first not passed), and shows it.
async fn open_lesson(name: &str, dispatch: &UseReducerDispatcher<State>) -> Result<(), String> {
    let index = browser::fetch_text("lessons/index.txt").await?;
    let lessons: Vec<AttrValue> =
        index.lines().map(str::trim).filter(|l| !l.is_empty()).map(|l| AttrValue::from(l.to_string())).collect();
    let passed: Vec<AttrValue> = browser::load(browser::TOUR)
        .unwrap_or_default()
        .lines()
        .filter(|l| lessons.iter().any(|n| n == l))
        .map(|l| AttrValue::from(l.to_string()))
        .collect();
    let at = if name.is_empty() {
        lessons.iter().position(|l| !passed.contains(l)).unwrap_or(0)
    } else {
        let file = if name.ends_with(".yaml") { name.to_string() } else { format!("{name}.yaml") };
        lessons.iter().position(|l| *l == file).ok_or_else(|| format!("there is no lesson {name}"))?
    };
    let file = lessons.get(at).ok_or("there are no lessons")?;
    let text = browser::fetch_text(&format!("lessons/{file}")).await?;
    let Ok(Chunk::Tour(code)) = fetch(Feature::Tour).await else {
        return Err(
            "its code could not be fetched: the page is offline, or was updated since it was opened (reload it)".into(),
        );
    };
    dispatch.dispatch(Action::Fetched(Chunk::Tour(code)));
    let (mut doc, lesson) = (code.read)(&text)?;
    // The answers recorded from Puppet make the lesson a test; the learner's pins are their own.
    doc.lookups.iter_mut().for_each(|l| {
        l.expect = None;
        l.explain = None;
    });
    dispatch.dispatch(Action::StartLesson { lessons, at, lesson, doc, passed });
    Ok(())
}
