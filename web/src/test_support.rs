//! Rendering helpers for the wasm-bindgen tests, which run in a browser.

use std::time::Duration;

use wasm_bindgen_test::wasm_bindgen_test_configure;
use web_sys::Element;
use yew::BaseComponent;

wasm_bindgen_test_configure!(run_in_browser);

/// Renders `C` into a fresh element of the test page and returns that element once
/// Yew has drawn it.
pub async fn render<C: BaseComponent>(props: C::Properties) -> Element {
    let document = web_sys::window().unwrap().document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<C>::with_root_and_props(root.clone(), props).render();
    // Yew draws on its scheduler, after the current task.
    yew::platform::time::sleep(Duration::from_millis(10)).await;
    root
}
