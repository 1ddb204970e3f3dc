//! "Report it": the document with its answers as Markdown, copied for an
//! issue tracker or a chat, and the markup that embeds it in a web page.
//! What it holds is what a share link holds: private keys only when the
//! user chose to include them.

use hiera_core::report::iframe_markup;
use yew::prelude::*;

use crate::browser;
use crate::hooks::use_share_link::use_share_link;
use crate::state::State;

/// Props of [`Report`].
#[derive(Properties, PartialEq)]
pub struct ReportProps {
    /// The page's state, reported as it stands.
    pub state: State,
    /// Closes the panel.
    pub onclose: Callback<()>,
}

/// The panel.
#[function_component(Report)]
pub fn report(props: &ReportProps) -> Html {
    let state = &props.state;
    // Answered by the page's engine, as a share link holds the document:
    // without private keys unless the user chose to include them.
    let made = {
        let state = state.clone();
        use_memo((state.revision, state.include_private_keys), move |_| {
            let base = browser::page_url();
            let base = base.rsplit_once('/').map_or(String::new(), |(dir, _)| format!("{dir}/"));
            state.report(&base)
        })
    };
    let link = use_share_link(Some(state.clone()));
    let (markdown, script) = (*made).clone();
    let select = Callback::from(|e: FocusEvent| e.target_unchecked_into::<web_sys::HtmlTextAreaElement>().select());
    let iframe = link.as_deref().map(iframe_markup).unwrap_or_else(|| "Making the link…".into());
    let select_input = Callback::from(|e: FocusEvent| e.target_unchecked_into::<web_sys::HtmlInputElement>().select());
    let copy_of = |text: String| Callback::from(move |_: MouseEvent| browser::copy(&text));
    html! {
        <section class="report" data-testid="report" aria-label="Report it">
            <div class="report-head">
                <h2>{ "Report it" }</h2>
                <button type="button" class="icon" aria-label="Close" onclick={props.onclose.reform(|_| ())}>{ "×" }</button>
            </div>
            <p class="muted">{ if state.include_private_keys { "Private keys are included, as you chose for share links." } else { "Private keys are left out, as in share links: eyaml values then fail to decrypt." } }</p>
            <h3>{ "A link to this document" }</h3>
            <button type="button" data-testid="copy-report-link" onclick={copy_of(link.as_deref().unwrap_or_default().to_string())}>{ "Copy the link" }</button>
            <input type="text" readonly=true data-testid="report-link" aria-label="A link to this document" value={link.clone().unwrap_or_default()} onfocus={select_input} />
            <h3>{ "Markdown, for an issue or a chat" }</h3>
            <button type="button" data-testid="copy-markdown" onclick={copy_of(markdown.clone())}>{ "Copy Markdown" }</button>
            <textarea readonly=true data-testid="report-markdown" aria-label="The document as Markdown" rows="8" value={markdown} placeholder="Making the report…" onfocus={select.clone()} />
            <h3>{ "Embed this" }</h3>
            <label for="embed-iframe">{ "An iframe of this playground, all of it:" }</label>
            <button type="button" data-testid="copy-embed-iframe" onclick={copy_of(iframe.clone())}>{ "Copy" }</button>
            <textarea id="embed-iframe" readonly=true data-testid="embed-iframe" rows="3" onfocus={select.clone()} value={iframe} />
            <label for="embed-script">{ "Or the files in your page, made live by embed.js: everything a share link holds (the Puppet, the node and other nodes, the facts, each lookup with its merge, default and type). Add data-compact to the div for rows that open Why when clicked, data-readonly for a page that is only read:" }</label>
            <button type="button" data-testid="copy-embed-script" onclick={copy_of(script.clone())}>{ "Copy" }</button>
            <textarea id="embed-script" readonly=true data-testid="embed-script" rows="6" value={script} onfocus={select} />
        </section>
    }
}
