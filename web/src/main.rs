//! Hiera Playground's web page: edit a Hiera example and see what `hiera-core` makes of it.

mod components;
mod example;
mod hooks;
mod state;
#[cfg(all(test, target_arch = "wasm32"))]
mod test_support;

use components::editor::Editor;
use components::file_tabs::FileTabs;
use components::hierarchy::Hierarchy;
use state::{Action, State};
use yew::prelude::*;

/// The whole page: the example's files on the left, the engine's view on the right.
#[function_component(App)]
fn app() -> Html {
    let state = use_reducer(|| State::new(example::DEFAULT));

    let onselect = {
        let state = state.clone();
        Callback::from(move |index| state.dispatch(Action::Select(index)))
    };
    let onchange = {
        let state = state.clone();
        Callback::from(move |text| state.dispatch(Action::Edit(text)))
    };

    let file = state.active_file();
    html! {
        <div class="playground">
            <header class="topbar">
                <h1>{ "Hiera Playground" }</h1>
                <span class="tagline">{ "Hiera 5 lookups, computed in your browser" }</span>
            </header>
            <main class="panes">
                <section class="pane files" aria-label="Files">
                    <FileTabs paths={state.paths()} active={state.active} {onselect} />
                    // One editor per file, so undo history never crosses files.
                    <Editor key={file.path.to_string()} text={file.text.clone()}
                        markers={state.markers()} {onchange} />
                </section>
                <section class="pane engine" aria-label="Hierarchy">
                    <h2>{ "Hierarchy" }</h2>
                    <Hierarchy config={state.config.clone()} />
                </section>
            </main>
        </div>
    }
}

fn main() {
    yew::Renderer::<App>::new().render();
}

#[cfg(all(test, target_arch = "wasm32"))]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::test_support::render;

    // Goes through hiera-core: the names are the engine's reading of the example.
    #[wasm_bindgen_test]
    async fn shows_the_default_example_hierarchy() {
        let root = render::<App>(()).await;

        let items = root.query_selector_all("[data-testid=levels] li").unwrap();
        let names: Vec<String> = (0..items.length())
            .map(|i| items.item(i).unwrap().text_content().unwrap())
            .collect();
        assert_eq!(
            names,
            [
                "Per-node data",
                "Per-role data",
                "Per-OS defaults",
                "Common data"
            ]
        );
    }
}
