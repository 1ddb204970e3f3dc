use yew::prelude::*;

/// Props of [`FileTabs`].
#[derive(Properties, PartialEq)]
pub struct FileTabsProps {
    pub paths: Vec<AttrValue>,
    /// Index of the selected path.
    pub active: usize,
    /// Gets the index of the path the user picked.
    pub onselect: Callback<usize>,
}

/// One tab per file of the example.
#[function_component(FileTabs)]
pub fn file_tabs(props: &FileTabsProps) -> Html {
    let tabs = props.paths.iter().enumerate().map(|(index, path)| {
        let selected = index == props.active;
        let onclick = props.onselect.reform(move |_: MouseEvent| index);
        html! {
            <button type="button" role="tab" class={classes!("tab", selected.then_some("selected"))}
                aria-selected={selected.to_string()} {onclick}>
                { path }
            </button>
        }
    });
    html! {
        <nav class="tabs" role="tablist" aria-label="Files">{ for tabs }</nav>
    }
}
