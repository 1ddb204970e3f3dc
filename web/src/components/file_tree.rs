//! The document's files as a tree: environment files, modules, and absolute
//! paths (the global layer), with create, rename and delete.

use std::collections::BTreeMap;

use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, HtmlInputElement};
use yew::prelude::*;

use crate::browser;
use crate::state::Action;

/// Props of [`FileTree`].
#[derive(Properties, PartialEq)]
pub struct FileTreeProps {
    /// Every path of the document (a folder ends in `/`).
    pub paths: Vec<String>,
    /// The file in the editor.
    pub open: Option<String>,
    /// The environment's name, for the heading.
    pub environment: AttrValue,
    /// Where actions go.
    pub dispatch: Callback<Action>,
}

#[derive(Default)]
struct Folder {
    folders: BTreeMap<String, Folder>,
    files: Vec<(String, String)>,
}

impl Folder {
    fn insert(&mut self, full: &str, segments: &[&str]) {
        match segments {
            [] => {}
            [name] => self.files.push((name.to_string(), full.to_string())),
            [dir, rest @ ..] => self.folders.entry(dir.to_string()).or_default().insert(full, rest),
        }
    }

    /// The first file shown (a folder's files come before its folders).
    fn first_file(&self) -> Option<&str> {
        self.files.first().map(|(_, full)| full.as_str()).or_else(|| self.folders.values().find_map(Folder::first_file))
    }
}

/// Keys in the tree, as in a file manager: the arrows and Home and End
/// move between entries, F2 renames the entry, Delete deletes it (Enter
/// opens a file, or folds a folder, as their buttons do).
fn tree_keys(e: KeyboardEvent) {
    let Some(target) = e.target().and_then(|t| t.dyn_into::<HtmlElement>().ok()) else { return };
    let on_entry =
        target.get_attribute("data-testid").as_deref() == Some("file-entry") || target.tag_name() == "SUMMARY";
    let Some(tree) = target.closest(".file-tree").ok().flatten().filter(|_| on_entry) else { return };
    let action = |label: &str| {
        let li = target.closest("li").ok().flatten()?;
        let selector =
            format!(":scope > .entry-actions [aria-label^={label}], :scope > details > summary [aria-label^={label}]");
        li.query_selector(&selector).ok().flatten()?.dyn_into::<HtmlElement>().ok()
    };
    let entries = || -> Vec<HtmlElement> {
        let Ok(all) = tree.query_selector_all(".tree [data-testid=file-entry], .tree summary") else {
            return Vec::new();
        };
        // Entries in a folded folder are not shown, and have no offset parent.
        (0..all.length())
            .filter_map(|i| all.item(i)?.dyn_into::<HtmlElement>().ok())
            .filter(|e| e.offset_parent().is_some())
            .collect()
    };
    let next = match e.key().as_str() {
        "F2" => action("Rename"),
        "Delete" => action("Delete"),
        "ArrowDown" | "ArrowUp" | "Home" | "End" => {
            let entries = entries();
            let at = entries.iter().position(|x| *x == target);
            let to = match (e.key().as_str(), at) {
                ("ArrowDown", Some(i)) => (i + 1).min(entries.len().saturating_sub(1)),
                ("ArrowUp", Some(i)) => i.saturating_sub(1),
                ("End", _) => entries.len().saturating_sub(1),
                _ => 0,
            };
            let _ = entries.get(to).map(|x| x.focus());
            e.prevent_default();
            return;
        }
        _ => return,
    };
    if let Some(button) = next {
        e.prevent_default();
        button.click();
    }
}

/// The file tree.
#[function_component(FileTree)]
pub fn file_tree(props: &FileTreeProps) -> Html {
    let mut env = Folder::default();
    let mut absolute = Folder::default();
    for p in &props.paths {
        let (root, rest) = match p.strip_prefix('/') {
            Some(r) => (&mut absolute, r),
            None => (&mut env, p.as_str()),
        };
        let segments: Vec<&str> = rest.split('/').collect();
        // A folder path ("a/b/") ends in an empty segment: it makes the folder only.
        match segments.split_last() {
            Some((&"", dirs)) => {
                let mut f = root;
                for d in dirs {
                    f = f.folders.entry(d.to_string()).or_default();
                }
            }
            _ => root.insert(p, &segments),
        }
    }
    // New files and folders are named in a box inline: `Some(true)` for a folder.
    let creating = use_state(|| None::<bool>);
    let input = use_node_ref();
    {
        let input = input.clone();
        use_effect_with(*creating, move |_| {
            if let Some(input) = input.cast::<HtmlInputElement>() {
                let _ = input.focus();
            }
        });
    }
    let start = |folder: bool| {
        let creating = creating.clone();
        Callback::from(move |_: MouseEvent| creating.set(Some(folder)))
    };
    let submit = {
        let (dispatch, creating, input) = (props.dispatch.clone(), creating.clone(), input.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let Some(input) = input.cast::<HtmlInputElement>() else { return };
            let path = input.value().trim().to_string();
            let path = match *creating {
                Some(true) => format!("{}/", path.trim_end_matches('/')),
                _ => path,
            };
            if path.trim_end_matches('/').is_empty() || (*creating == Some(false) && path.ends_with('/')) {
                return;
            }
            dispatch.emit(Action::CreateFile(path));
            creating.set(None);
        })
    };
    let cancel = {
        let creating = creating.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                creating.set(None);
            }
        })
    };
    let close = {
        let creating = creating.clone();
        Callback::from(move |_: MouseEvent| creating.set(None))
    };
    // The tree is one stop for Tab: the open file (the first while none is), with its buttons.
    let stop = props.open.as_deref().filter(|o| props.paths.iter().any(|p| p == o));
    let stop = stop.or_else(|| env.first_file()).or_else(|| absolute.first_file()).map(str::to_string);
    let props = &Entries { props, stop };
    html! {
        <nav class="file-tree" aria-label="Files" onkeydown={Callback::from(tree_keys)}>
            <div class="tree-actions">
                <button type="button" onclick={start(false)} data-testid="new-file">{ "New file" }</button>
                <button type="button" onclick={start(true)} data-testid="new-folder">{ "New folder" }</button>
            </div>
            if let Some(folder) = *creating {
                <form class="new-path" data-testid="new-path-form" onsubmit={submit} onkeydown={cancel}>
                    <label for="new-path">{ if folder { "New folder" } else { "New file (data/nodes/web01.yaml, or /etc/puppetlabs/puppet/hiera.yaml)" } }</label>
                    <input id="new-path" name="path" type="text" value="data/" spellcheck="false" autocomplete="off" data-testid="new-path" ref={input} />
                    <button type="submit" data-testid="new-path-create">{ "Create" }</button>
                    <button type="button" onclick={close}>{ "Cancel" }</button>
                </form>
            }
            <p class="tree-root">{ format!("environments/{}/", props.props.environment) }</p>
            { folder_view(&env, "", props) }
            if !absolute.files.is_empty() || !absolute.folders.is_empty() {
                <p class="tree-root">{ "/ (global and absolute paths)" }</p>
                { folder_view(&absolute, "/", props) }
            }
        </nav>
    }
}

/// What draws the entries: the tree's props, and the entry that Tab stops at.
struct Entries<'a> {
    props: &'a FileTreeProps,
    stop: Option<String>,
}

fn folder_view(folder: &Folder, prefix: &str, props: &Entries) -> Html {
    let folders = folder.folders.iter().map(|(name, sub)| {
        let path = format!("{prefix}{name}/");
        html! {
            <li key={path.clone()}>
                <details open=true>
                    <summary tabindex="-1">
                        <span class="folder-name">{ format!("{name}/") }</span>
                        { entry_actions(&path, props) }
                    </summary>
                    { folder_view(sub, &path, props) }
                </details>
            </li>
        }
    });
    let files = folder.files.iter().map(|(name, path)| {
        let open = props.props.open.as_deref() == Some(path.as_str());
        let onclick = {
            let (dispatch, path) = (props.props.dispatch.clone(), path.clone());
            Callback::from(move |_: MouseEvent| dispatch.emit(Action::OpenFile(path.clone())))
        };
        let stop = props.stop.as_deref() == Some(path.as_str());
        html! {
            <li key={path.clone()} class={classes!("file", open.then_some("open"))}>
                <button type="button" class="file-entry" data-testid="file-entry" data-path={path.clone()}
                    aria-current={open.then_some("true")} title={path.clone()} {onclick} tabindex={if stop { "0" } else { "-1" }}>
                    { name }
                </button>
                { entry_actions(path, props) }
            </li>
        }
    });
    html! { <ul class="tree">{ for files }{ for folders }</ul> }
}

fn entry_actions(path: &str, entries: &Entries) -> Html {
    let props = entries.props;
    let tabindex = (entries.stop.as_deref() != Some(path)).then_some("-1");
    let rename = {
        let (dispatch, path) = (props.dispatch.clone(), path.to_string());
        Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            let shown = path.trim_end_matches('/');
            if let Some(to) = browser::prompt(&format!("Rename {shown} to:"), shown) {
                let to = to.trim().trim_end_matches('/').to_string();
                if !to.is_empty() && to != shown {
                    let to = if path.ends_with('/') { format!("{to}/") } else { to };
                    dispatch.emit(Action::Rename(path.clone(), to));
                }
            }
        })
    };
    let delete = {
        let (dispatch, path) = (props.dispatch.clone(), path.to_string());
        Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            let what = if path.ends_with('/') { "the folder and everything in it" } else { "the file" };
            if browser::confirm(&format!("Delete {what} {path}?")) {
                dispatch.emit(Action::Delete(path.clone()));
            }
        })
    };
    let label = path.trim_end_matches('/').to_string();
    html! {
        <span class="entry-actions">
            <button type="button" class="icon" title={format!("Rename {label} (F2)")} aria-label={format!("Rename {label}")} onclick={rename} {tabindex}>{ "✎" }</button>
            <button type="button" class="icon" title={format!("Delete {label} (Delete)")} aria-label={format!("Delete {label}")} onclick={delete} {tabindex}>{ "×" }</button>
        </span>
    }
}
