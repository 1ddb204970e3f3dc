use std::rc::Rc;

use yew::prelude::*;

use crate::state::Config;

/// Props of [`Hierarchy`].
#[derive(Properties, PartialEq)]
pub struct HierarchyProps {
    pub config: Rc<Config>,
}

/// The hierarchy levels the engine read from `hiera.yaml`, or why it could not.
#[function_component(Hierarchy)]
pub fn hierarchy(props: &HierarchyProps) -> Html {
    match &*props.config {
        Config::Parsed { version, levels } => html! {
            <>
                <p class="muted">{ format!("hiera.yaml version {version}, searched top to bottom") }</p>
                <ol class="levels" data-testid="levels">
                    { for levels.iter().map(|name| html! { <li>{ name }</li> }) }
                </ol>
            </>
        },
        Config::Invalid(problem) => html! {
            <p class="problem" role="alert" data-testid="problem">{ &problem.message }</p>
        },
    }
}

#[cfg(all(test, target_arch = "wasm32"))]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::state::Problem;
    use crate::test_support::render;

    #[wasm_bindgen_test]
    async fn lists_level_names_in_order() {
        let config = Rc::new(Config::Parsed {
            version: 5,
            levels: vec!["Per-node data".into(), "Common data".into()],
        });
        let root = render::<Hierarchy>(HierarchyProps { config }).await;

        let items = root.query_selector_all("[data-testid=levels] li").unwrap();
        let names: Vec<String> = (0..items.length())
            .map(|i| items.item(i).unwrap().text_content().unwrap())
            .collect();
        assert_eq!(names, ["Per-node data", "Common data"]);
    }

    #[wasm_bindgen_test]
    async fn shows_the_engine_message_when_invalid() {
        let config = Rc::new(Config::Invalid(Problem {
            path: "hiera.yaml".into(),
            message: "hiera.yaml:3:7: oops".into(),
            line: Some(3),
            column: Some(7),
        }));
        let root = render::<Hierarchy>(HierarchyProps { config }).await;

        let alert = root.query_selector("[role=alert]").unwrap().unwrap();
        assert_eq!(alert.text_content().unwrap(), "hiera.yaml:3:7: oops");
        assert!(root
            .query_selector("[data-testid=levels]")
            .unwrap()
            .is_none());
    }
}
