//! "Report it": a document and its answers as Markdown for an issue tracker
//! or a chat, and the markup that embeds it in a web page (an iframe of the
//! playground, or `embed.js` over the files written into the page).

use crate::document::case::Document;
use crate::document::playground::{Evaluation, Outcome};

/// The document as Markdown: the Puppet, node and environment, the facts,
/// every file, and each lookup as `puppet lookup` arguments with its answer
/// and its `--explain` text (folded). `evaluations` are the lookups', in
/// order, with their traces.
pub fn markdown(doc: &Document, evaluations: &[&Evaluation]) -> String {
    let mut out = String::from("### Hiera lookup\n\n");
    if let Some(d) = &doc.description {
        out.push_str(&format!("{d}\n\n"));
    }
    out.push_str(&format!(
        "{}, node `{}`, environment `{}`.\n\n",
        doc.puppet.release(),
        doc.node().name,
        doc.environment
    ));
    if !doc.facts.is_empty() {
        out.push_str(&format!("**Facts**\n\n{}\n", fenced(&crate::load::facts::to_text(&doc.facts), "yaml")));
    }
    for (path, text) in doc.files.iter().filter(|(p, _)| !p.ends_with('/')) {
        out.push_str(&format!("**`{path}`**\n\n{}\n", fenced(text, language(path))));
    }
    for (l, e) in doc.lookups.iter().zip(evaluations) {
        out.push_str(&format!("**`puppet lookup {}`**\n\n", l.puppet_args()));
        let answer = match &e.outcome {
            Outcome::Found(r) => r.yaml.clone(),
            Outcome::Failed { message, .. } => format!("Error: {message}"),
        };
        out.push_str(&fenced(&answer, ""));
        let explain = e.explain();
        if !explain.is_empty() {
            out.push_str(&format!("\n<details><summary>--explain</summary>\n\n{}</details>\n", fenced(&explain, "")));
        }
        out.push('\n');
    }
    out
}

/// `text` in a code fence longer than any run of backticks in it.
fn fenced(text: &str, language: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    let newline = if text.ends_with('\n') { "" } else { "\n" };
    format!("{fence}{language}\n{text}{newline}{fence}\n")
}

/// The language a fence names for a file, for highlighting.
fn language(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("yaml" | "yml" | "eyaml") => "yaml",
        Some("json") => "json",
        _ => "",
    }
}

/// An iframe of the playground showing the document of `share_link` (a
/// link [`crate::document::share`] wrote), in the compact embed view.
pub fn iframe_markup(share_link: &str) -> String {
    let (page, fragment) = share_link.split_once('#').unwrap_or((share_link, ""));
    let page = page.split('?').next().unwrap_or(page);
    format!(
        "<iframe src=\"{}\" title=\"Hiera playground\" loading=\"lazy\" style=\"width:100%;height:480px;border:1px solid #dde1e7;border-radius:8px\"></iframe>\n",
        html_escape(&format!("{page}?embed#{fragment}"))
    )
}

/// The markup `embed.js` (served beside the page at `base`) turns into a
/// playground: each file as it is, and the rest of the document (the
/// Puppet, node, facts, lookups with their merges and defaults, more
/// nodes) in the case format, so that it answers as the share link does.
pub fn embed_markup(doc: &Document, base: &str) -> String {
    let mut out = format!("<script src=\"{}embed.js\" defer></script>\n", html_escape(base));
    out.push_str("<div class=\"hiera-playground\">\n");
    for (path, text) in doc.files.iter().filter(|(p, _)| !p.ends_with('/')) {
        out.push_str(&format!("  <pre data-file=\"{}\">{}</pre>\n", html_escape(path), html_escape(text)));
    }
    out.push_str(&format!("  <pre data-case>{}</pre>\n</div>\n", html_escape(&doc.to_yaml_without_files())));
    out
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::playground::Playground;

    const DOC: &str = "facts:\n  role: web\nfiles:\n  hiera.yaml: |\n    version: 5\n    hierarchy:\n      - name: Common\n        path: common.yaml\n  data/common.yaml: |\n    motd: \"a ``` fence <b>\"\nlookups:\n  - key: motd\n  - key: nope\n    merge: unique\n";

    #[test]
    fn the_markdown_holds_files_facts_answers_and_explanations() {
        let p = Playground::new(Document::from_yaml(DOC).unwrap());
        let evaluations: Vec<Evaluation> = p.document().lookups.iter().map(|l| p.evaluate(l, true)).collect();
        let md = markdown(p.document(), &evaluations.iter().collect::<Vec<_>>());
        assert!(md.contains("Puppet 7.23, node `localhost`, environment `production`."), "{md}");
        assert!(md.contains("**Facts**\n\n```yaml\nrole: web\n```\n"), "{md}");
        // A file holding a fence gets a longer one.
        assert!(md.contains("**`data/common.yaml`**\n\n````yaml\nmotd: \"a ``` fence <b>\"\n````\n"), "{md}");
        assert!(md.contains("**`puppet lookup 'motd'`**\n\n````\n--- a ``` fence <b>\n````"), "{md}");
        assert!(md.contains("**`puppet lookup --merge unique 'nope'`**\n\n```\nError: Function lookup() did not find a value for the name 'nope'\n```"), "{md}");
        assert!(md.contains("<details><summary>--explain</summary>\n\n```\nSearching for \"lookup_options\""), "{md}");
    }

    #[test]
    fn embed_markup_escapes_what_it_writes() {
        let doc = Document::from_yaml(DOC).unwrap();
        let markup = embed_markup(&doc, "https://example.org/hiera/");
        assert!(markup.starts_with(
            "<script src=\"https://example.org/hiera/embed.js\" defer></script>\n<div class=\"hiera-playground\">\n"
        ));
        assert!(
            markup.contains("<pre data-file=\"data/common.yaml\">motd: &quot;a ``` fence &lt;b&gt;&quot;\n</pre>"),
            "{markup}"
        );
        assert!(
            markup.contains(
                "<pre data-case>facts:\n  role: web\nlookups:\n- key: motd\n- key: nope\n  merge: unique\n</pre>"
            ),
            "{markup}"
        );
        let iframe = iframe_markup("https://example.org/hiera/index.html?x#v2.abc");
        assert!(iframe.starts_with("<iframe src=\"https://example.org/hiera/index.html?embed#v2.abc\""), "{iframe}");
    }
}
