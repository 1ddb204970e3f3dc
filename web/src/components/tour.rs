//! The tour of Hiera: the lesson on show (what it teaches, the task, its
//! checks as the engine answers them now, hints one at a time, the solution
//! and a fresh start), and the way to the other lessons.

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::state::{Action, Tour};

/// Props of [`TourPanel`].
#[derive(Properties, PartialEq)]
pub struct TourProps {
    /// The tour (see `State::tour`).
    pub tour: Tour,
    /// Opens a lesson by file name.
    pub open: Callback<String>,
    /// Where actions go.
    pub dispatch: Callback<Action>,
}

/// The lesson's panel, above the work.
#[function_component(TourPanel)]
pub fn tour_panel(props: &TourProps) -> Html {
    let tour = &props.tour;
    let lesson = &tour.lesson;
    let go = |at: usize| {
        let name = tour.lessons.get(at).map(|n| n.to_string());
        let open = props.open.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(name) = &name {
                open.emit(name.clone());
            }
        })
    };
    let choose = props.open.reform(|e: Event| e.target_unchecked_into::<HtmlSelectElement>().value());
    let passed = |name: &AttrValue| tour.passed.contains(name);
    let left = lesson.hints.len() - tour.hints;
    html! {
        <section class="tour" data-testid="tour" aria-label="Tour of Hiera" data-lesson={tour.name()} data-done={tour.done().to_string()}>
            <div class="tour-head">
                <select aria-label="Lessons" data-testid="tour-lessons" onchange={choose}>
                    { for tour.lessons.iter().enumerate().map(|(i, name)| html! {
                        <option value={name.clone()} selected={i == tour.at}>
                            { format!("{}{}. {}", if passed(name) { "✓ " } else { "" }, i + 1, crate::components::toolbar::example_title(name)) }
                        </option>
                    }) }
                </select>
                <h2 data-testid="tour-title">{ format!("Lesson {} of {}: {}", tour.at + 1, tour.lessons.len(), lesson.title) }</h2>
                <button type="button" class="icon" aria-label="Close the tour" data-testid="tour-close" onclick={props.dispatch.reform(|_| Action::CloseTour)}>{ "×" }</button>
            </div>
            <div class="tour-text" data-testid="tour-text">
                { for lesson.text.split("\n\n").map(|p| html! { <p>{ p.trim() }</p> }) }
            </div>
            <p class="tour-task" data-testid="tour-task"><strong>{ "Task: " }</strong>{ &lesson.task }</p>
            <ul class="tour-checks" aria-label="Checks">
                { for tour.checks.iter().map(|c| html! {
                    <li data-testid="tour-check" data-passed={c.passed.to_string()}>
                        <span aria-hidden="true">{ if c.passed { "✓ " } else { "✗ " } }</span>
                        { &c.text }
                        if let Some(why) = &c.why { <span class="muted">{ format!(" ({why})") }</span> }
                    </li>
                }) }
            </ul>
            if tour.done() {
                <p class="tour-passed" role="status" data-testid="tour-passed">
                    { "Done: every check holds." }
                    if tour.at + 1 < tour.lessons.len() {
                        { " " }<button type="button" data-testid="tour-next-lesson" onclick={go(tour.at + 1)}>{ "Next lesson" }</button>
                    }
                </p>
            }
            if tour.hints > 0 {
                <ol class="tour-hints">
                    { for lesson.hints.iter().take(tour.hints).map(|h| html! { <li data-testid="tour-hint">{ h }</li> }) }
                </ol>
            }
            <div class="tour-actions">
                <button type="button" data-testid="tour-prev" disabled={tour.at == 0} onclick={go(tour.at.saturating_sub(1))}>{ "← Previous" }</button>
                <button type="button" data-testid="tour-hint-button" disabled={left == 0} onclick={props.dispatch.reform(|_| Action::Hint)}>
                    { format!("Hint ({left} left)") }</button>
                <button type="button" data-testid="tour-solution" onclick={props.dispatch.reform(|_| Action::ShowSolution)}>{ "Show the solution" }</button>
                <button type="button" data-testid="tour-restart" onclick={props.dispatch.reform(|_| Action::RestartLesson)}>{ "Start over" }</button>
                <button type="button" data-testid="tour-next" disabled={tour.at + 1 >= tour.lessons.len()} onclick={go(tour.at + 1)}>{ "Next →" }</button>
            </div>
        </section>
    }
}
