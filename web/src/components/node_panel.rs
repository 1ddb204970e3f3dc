//! The node a lookup is made for: its name, its environment and its facts,
//! with presets for common kinds of node; and the Puppet that answers.

use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

use hiera_core::Puppet;

use crate::state::{Action, Tab};

/// Nodes of current platforms, with their facts as Facter 4 gives them:
/// (label, node name, file under `facts/`, fetched when chosen).
const EXAMPLES: &[(&str, &str, &str)] = &[
    ("Debian 12", "web01.example.com", "debian12.yaml"),
    ("Debian 13", "web02.example.com", "debian13.yaml"),
    ("Ubuntu 24.04", "app01.example.com", "ubuntu2404.yaml"),
    ("RHEL / Rocky 9", "db01.example.com", "rocky9.yaml"),
    ("Windows Server 2022", "win01.example.com", "windows2022.yaml"),
    ("FreeBSD 14", "proxy01.example.com", "freebsd14.yaml"),
    ("macOS 14", "mac01.example.com", "macos14.yaml"),
    ("No facts", "", ""),
];

/// The operating systems of voxpupuli/facterdb, Facter 5.1, by file (under
/// `facts/facterdb/`, `.facts`; `scripts/facterdb-presets` writes them).
const FACTERDB: &[&str] = &[
    "almalinux-10-x86_64",
    "almalinux-8-x86_64",
    "almalinux-9-x86_64",
    "amazon-2023-x86_64",
    "centos-10-x86_64",
    "centos-9-x86_64",
    "debian-11-x86_64",
    "debian-12-x86_64",
    "debian-13-x86_64",
    "fedora-42-x86_64",
    "fedora-43-x86_64",
    "freebsd-13-x86_64",
    "freebsd-14-x86_64",
    "opensuse-16-x86_64",
    "oraclelinux-10-x86_64",
    "oraclelinux-8-x86_64",
    "oraclelinux-9-x86_64",
    "redhat-8-x86_64",
    "redhat-9-x86_64",
    "rocky-10-x86_64",
    "rocky-8-x86_64",
    "rocky-9-x86_64",
    "ubuntu-22.04-x86_64",
    "ubuntu-24.04-x86_64",
    "windows-10-x86_64",
    "windows-11-x86_64",
    "windows-2019-x86_64",
    "windows-2022-x86_64",
    "windows-2025-x86_64",
];

/// A facts preset: what the menu says, the node it names and its facts'
/// file under `facts/` (fetched when chosen; none: no facts).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Preset {
    /// The menu's label.
    pub label: String,
    /// The node's name.
    pub node: String,
    /// The facts' file under `facts/`, empty for none.
    pub file: String,
    /// Whether it is facterdb's (a menu group of its own).
    pub facterdb: bool,
}

/// Every preset: the examples, then facterdb's operating systems.
pub(crate) fn presets() -> Vec<Preset> {
    let examples = EXAMPLES.iter().map(|(label, node, file)| Preset {
        label: label.to_string(),
        node: node.to_string(),
        file: file.to_string(),
        facterdb: false,
    });
    examples.chain(FACTERDB.iter().map(|stem| facterdb_preset(stem))).collect()
}

/// `debian-12-x86_64`: "Debian 12 (x86_64)", node `debian12.example.com`.
fn facterdb_preset(stem: &str) -> Preset {
    let mut parts = stem.rsplitn(2, '-');
    let (arch, os_release) = (parts.next().unwrap_or(""), parts.next().unwrap_or(stem));
    let (os, release) = os_release.split_once('-').unwrap_or((os_release, ""));
    let name = match os {
        "almalinux" => "AlmaLinux",
        "amazon" => "Amazon Linux",
        "centos" => "CentOS Stream",
        "debian" => "Debian",
        "fedora" => "Fedora",
        "freebsd" => "FreeBSD",
        "opensuse" => "openSUSE Leap",
        "oraclelinux" => "Oracle Linux",
        "redhat" => "RHEL",
        "rocky" => "Rocky Linux",
        "ubuntu" => "Ubuntu",
        "windows" => "Windows",
        other => other,
    };
    Preset {
        label: format!("{name} {release} ({arch})"),
        node: format!("{os}{}.example.com", release.replace('.', "")),
        file: format!("facterdb/{stem}.facts"),
        facterdb: true,
    }
}

/// The options of a preset menu (value: the preset's index), facterdb's
/// in a group of their own.
pub(crate) fn preset_options<'p>(presets: impl Iterator<Item = (usize, &'p Preset)>) -> Html {
    let option = |(i, p): (usize, &Preset)| html! { <option value={i.to_string()}>{ p.label.clone() }</option> };
    let (facterdb, examples): (Vec<_>, Vec<_>) = presets.partition(|(_, p)| p.facterdb);
    html! {
        <>
            { for examples.into_iter().map(option) }
            <optgroup label="facterdb (Facter 5.1)">{ for facterdb.into_iter().map(option) }</optgroup>
        </>
    }
}

/// Props of [`NodePanel`].
#[derive(Properties, PartialEq)]
pub struct NodePanelProps {
    /// The Puppet whose answers are shown.
    pub puppet: Puppet,
    /// The node name as given (empty: from the facts).
    pub node: AttrValue,
    /// The environment.
    pub environment: AttrValue,
    /// The facts as typed.
    pub facts: AttrValue,
    /// Why the facts cannot be read, if they cannot.
    pub facts_error: Option<AttrValue>,
    /// Where actions go.
    pub dispatch: Callback<Action>,
}

/// Node name, environment, facts.
#[function_component(NodePanel)]
pub fn node_panel(props: &NodePanelProps) -> Html {
    let on_node =
        props.dispatch.reform(|e: InputEvent| Action::SetNode(e.target_unchecked_into::<HtmlInputElement>().value()));
    let on_env = props
        .dispatch
        .reform(|e: InputEvent| Action::SetEnvironment(e.target_unchecked_into::<HtmlInputElement>().value()));
    let on_facts = props
        .dispatch
        .reform(|e: InputEvent| Action::SetFacts(e.target_unchecked_into::<HtmlTextAreaElement>().value()));
    let on_puppet = props.dispatch.reform(|e: Event| {
        let major = e.target_unchecked_into::<HtmlSelectElement>().value().parse().unwrap_or_default();
        Action::SetPuppet(Puppet::from_major(major).unwrap_or_default())
    });
    let on_preset = {
        let dispatch = props.dispatch.clone();
        let current = props.facts.clone();
        Callback::from(move |e: Event| {
            let select = e.target_unchecked_into::<HtmlSelectElement>();
            if let Some(Preset { label, node, file, .. }) =
                select.value().parse::<usize>().ok().and_then(|i| presets().get(i).cloned())
            {
                let dispatch = dispatch.clone();
                let current = current.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    let facts = match file.as_str() {
                        "" => Ok(String::new()),
                        file => crate::browser::fetch_text(&format!("facts/{file}")).await,
                    };
                    match facts {
                        Ok(facts) => {
                            // The facts are the work's own: they are not replaced unasked.
                            let lines = current.lines().count();
                            let replaces = !current.trim().is_empty() && *current != *facts;
                            let question =
                                format!("Replace the facts ({lines} lines) with those of the {label} preset?");
                            if replaces && !crate::browser::confirm(&question) {
                                return;
                            }
                            dispatch.emit(Action::SetFacts(facts));
                            dispatch.emit(Action::SetNode(node));
                        }
                        Err(e) => dispatch.emit(Action::Notify(crate::state::Notice {
                            text: format!("Could not fetch the facts of {file}: {e}"),
                            error: true,
                        })),
                    }
                });
            }
            select.set_value("");
        })
    };
    html! {
        <section class="node-panel" aria-label="Node">
            <label class="field">
                <span>{ "Puppet" }</span>
                <select data-testid="puppet-version" onchange={on_puppet}>
                    { for Puppet::ALL.iter().rev().map(|p| html! {
                        <option value={p.to_string()} selected={*p == props.puppet}>{ p.release() }</option>
                    }) }
                </select>
            </label>
            <label class="field">
                <span>{ "Node" }</span>
                <input type="text" data-testid="node-input" value={props.node.clone()} placeholder="from the clientcert fact, else localhost"
                    spellcheck="false" autocomplete="off" oninput={on_node} />
            </label>
            <label class="field">
                <span>{ "Environment" }</span>
                <input type="text" data-testid="environment-input" value={props.environment.clone()}
                    spellcheck="false" autocomplete="off" oninput={on_env} />
            </label>
            <div class="facts-head">
                <label for="facts" title="YAML or JSON: paste facter -y, puppet facts show or a PuppetDB factset">{ "Facts" }</label>
                <select aria-label="Facts preset" data-testid="facts-preset" onchange={on_preset}>
                    <option value="" selected=true>{ "Preset…" }</option>
                    { preset_options(presets().iter().enumerate()) }
                </select>
            </div>
            <textarea id="facts" class={classes!("facts", props.facts_error.is_some().then_some("invalid"))} data-testid="facts-editor"
                spellcheck="false" value={props.facts.clone()} oninput={on_facts}
                aria-invalid={props.facts_error.is_some().then_some("true")} />
            if let Some(error) = &props.facts_error {
                <p class="problem" role="alert" data-testid="facts-error">{ error }</p>
            }
            <button type="button" class="link facts-hint" data-testid="show-variables" onclick={props.dispatch.reform(|_| Action::SetTab(Tab::Nodes))}>
                { "What the hierarchy reads of these, and what Puppet adds: Nodes" }</button>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facterdb_s_presets_are_the_files_there_are() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../www/facts/facterdb");
        let mut stems: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| e.unwrap().file_name().to_str()?.strip_suffix(".facts").map(str::to_string))
            .collect();
        stems.sort();
        assert_eq!(stems, FACTERDB, "scripts/facterdb-presets prints the list");
        let ubuntu = facterdb_preset("ubuntu-24.04-x86_64");
        assert_eq!((ubuntu.label.as_str(), ubuntu.node.as_str()), ("Ubuntu 24.04 (x86_64)", "ubuntu2404.example.com"));
        assert_eq!(ubuntu.file, "facterdb/ubuntu-24.04-x86_64.facts");
    }
}
