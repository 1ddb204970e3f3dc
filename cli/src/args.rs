//! `puppet lookup`'s command line, plus `--root`, `--env-dir`, `--all` and `conformance`.

use hiera_core::Value;

/// The help text.
pub const USAGE: &str = "\
hiera-lookup: Puppet's Hiera lookup, without Ruby

USAGE
  hiera-lookup [OPTIONS] KEY...
  hiera-lookup [OPTIONS] --all
  hiera-lookup diff --from DIR --to DIR --facts-dir DIR [OPTIONS] KEY...|--all
                   [--render-as markdown [--full-json URL]]
  hiera-lookup class [OPTIONS] CLASS...
  hiera-lookup check --facts-dir DIR [OPTIONS] CLASS...|--classes FILE|--all-classes
  hiera-lookup lint --facts-dir DIR [OPTIONS]
  hiera-lookup reduce [OPTIONS] [--with-keys] KEY... > case.yaml
  hiera-lookup conformance [--exact] CASE_OR_DIR...
  hiera-lookup bench [--passes N] [--out FILE] REPO

OPTIONS
  --root DIR                 the directory that plays '/': DIR/etc/puppetlabs/code/environments/ENV
                             is the environment, DIR/etc/puppetlabs/puppet the confdir
  --env-dir DIR              an environment directory, used as the environment
  --node NAME                the node (default: the clientcert fact, else localhost)
  --environment ENV          the environment (default: production)
  --puppet 7|8               answer as Puppet 7.23 or as Puppet 8 (OpenVox 8.28.1) does
                             (default: 8)
  --facts FILE               the node's facts, YAML or JSON
  --facts-dir DIR            every node at once: one facts file each (facter -y, puppet facts
                             show, a PuppetDB factset, facterdb's .facts), named by its
                             certname or file name;
                             prints NODE: {KEY: VALUE} (a failing key as {error: MESSAGE})
  --merge first|unique|hash|deep
  --knock-out-prefix P       with --merge deep
  --sort-merged-arrays       with --merge deep
  --merge-hash-arrays        with --merge deep
  --default VALUE            returned when no key is found
  --type TYPE                the type the value must have
  --explain                  print how the value was found, as puppet lookup --explain
  --render-as s|json|yaml    output format (default yaml)
  --all                      every key the node's data has, as one hash

DIFF
  Every (node, key) whose answer differs between two trees (each an environment
  directory, or a directory that plays '/'), for a review of a change in CI.
  --all: every key either tree's data holds for the node. --render-as
  markdown writes a pull request comment: each changed key once, the nodes
  that see the same change grouped and collapsed, keys that now fail first,
  cut to 65,536 characters with a line pointing to the whole diff (--full-json
  URL, where CI keeps the --render-as json output). Exit status: 0 no
  difference, 1 differences, 2 error.

CLASS
  What `include CLASS` binds each parameter of each class to on the node
  (automatic parameter lookup): the value, where it comes from (the data
  file and line, or the default) and its type. --render-as json prints
  {CLASS: {parameters: {PARAM: VALUE}}} or {CLASS: {error: MESSAGE}}, a default
  only Puppet evaluates as {default_expression: SOURCE}. Exit status: 0 every
  class binds, 2 Puppet's compile would fail.

CHECK
  Binds every class on every node of --facts-dir, as `class` does, and lists
  each failure: the node, the class, the parameter, Puppet's message and the
  data file and line of the value. --classes FILE names the classes one a
  line; --all-classes takes every class the modules define. --render-as json
  prints a list of {node, class, parameter, message, file, line}. Exit
  status: 0 every class binds on every node, 1 failures, 2 error.

LINT
  Reviews the data for every node of --facts-dir: keys nothing reads
  (unused-key: no class parameter, no lookup()/hiera() call in the manifests,
  no %{lookup()}/%{alias()} in the data), data files no node's hierarchy
  reads (dead-file), values every node reading them gets from a higher level
  (shadowed), legacy facts Puppet 8 no longer gives nodes, in paths and data
  (legacy-fact, with the level a node no longer reads), and class parameters
  whose value fails their type (type). Each finding has its file and line;
  what could not be checked is said after them. --render-as json prints a
  list of {kind, file, line, key, nodes, message}. Exit status: 0 nothing
  found, 1 findings, 2 error.

REDUCE
  The smallest document, in the case format, that gives each KEY (looked up
  with the options given) the answer and --explain text the tree gives it:
  only the hiera.yaml files, the data files the lookups read and, of each,
  the keys searched there, the facts and node name the answers depend on.
  Every step is checked with the engine, and not taken if an answer or its
  explanation would change. Private keys are left out unless --with-keys
  (their eyaml values then fail, as on a Puppet without the key). The
  document opens in the page and runs under `conformance`; what was left
  out is said on standard error.

EXIT STATUS
  0 found, 1 not found, 2 error
";

/// How to print the value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RenderAs {
    /// Puppet's string form.
    S,
    /// Compact JSON.
    Json,
    /// YAML.
    Yaml,
}

/// What the command line asks for.
#[derive(Debug)]
pub enum Command {
    /// Print the help.
    Help,
    /// Run conformance cases.
    Conformance {
        /// Also require identical error and explain texts.
        exact: bool,
        /// Case files or directories of them.
        paths: Vec<String>,
    },
    /// Time every key of a generated control repo (../shared/bench).
    Bench {
        /// The repo: an environment with facts.yaml and keys.txt.
        repo: String,
        /// Where the result dump goes.
        out: String,
        /// Passes over all keys; the first is cold.
        passes: usize,
    },
    /// Look keys up.
    Lookup(Box<Options>),
    /// Compare the answers of two trees for every node of a facts directory.
    Diff(Box<Options>),
    /// Bind classes' parameters (the keys are class names).
    Class(Box<Options>),
    /// Bind classes on every node of a facts directory and list failures.
    Check(Box<Options>),
    /// Review the data for every node of a facts directory.
    Lint(Box<Options>),
    /// The smallest document that reproduces lookups.
    Reduce(Box<Options>),
}

/// The options of a lookup.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub keys: Vec<String>,
    pub root: Option<String>,
    pub env_dir: Option<String>,
    pub node: Option<String>,
    pub environment: String,
    pub puppet: hiera_core::Puppet,
    pub facts: Option<String>,
    /// A directory of facts files, one a node: every node is looked up.
    pub facts_dir: Option<String>,
    /// `diff`: the tree before and the tree after.
    pub from: Option<String>,
    /// See `from`.
    pub to: Option<String>,
    /// `diff --render-as markdown`: a pull request comment.
    pub markdown: bool,
    /// With `markdown`: where the whole diff as JSON is, linked when the
    /// comment is cut short.
    pub full_json: Option<String>,
    pub merge: Option<String>,
    pub knockout_prefix: Option<String>,
    pub sort_merged_arrays: bool,
    pub merge_hash_arrays: bool,
    pub default: Option<String>,
    pub value_type: Option<String>,
    pub explain: bool,
    pub render_as: Option<RenderAs>,
    pub all: bool,
    /// `check --classes FILE`: the classes, one a line.
    pub classes_file: Option<String>,
    /// `check --all-classes`.
    pub all_classes: bool,
    /// `reduce --with-keys`: keep the private keys.
    pub with_keys: bool,
}

impl Options {
    /// The merge `puppet lookup` builds from its flags.
    pub fn merge_value(&self) -> Result<Option<Value>, hiera_core::Error> {
        let options = hiera_core::merge::MergeOptions {
            strategy: self.merge.clone().unwrap_or_default(),
            knockout_prefix: self.knockout_prefix.clone(),
            sort_merged_arrays: self.sort_merged_arrays,
            merge_hash_arrays: self.merge_hash_arrays,
        };
        options.request()
    }
}

/// Reads the arguments (without the program name).
pub fn parse(argv: &[String]) -> Result<Command, String> {
    if argv.first().map(String::as_str) == Some("conformance") {
        let exact = argv.iter().any(|a| a == "--exact");
        let paths: Vec<String> = argv[1..].iter().filter(|a| *a != "--exact").cloned().collect();
        if paths.is_empty() {
            return Err("conformance needs a case file or a directory".into());
        }
        return Ok(Command::Conformance { exact, paths });
    }
    if argv.first().map(String::as_str) == Some("bench") {
        let (mut out, mut passes, mut repo) = ("hiera-results.jsonl".to_string(), 2, None);
        let mut it = argv[1..].iter();
        while let Some(a) = it.next() {
            match a.as_str() {
                "--out" => out = it.next().cloned().ok_or("--out needs a value")?,
                "--passes" => passes = it.next().and_then(|p| p.parse().ok()).ok_or("--passes needs a number")?,
                r => repo = Some(r.to_string()),
            }
        }
        return Ok(Command::Bench { repo: repo.ok_or("bench needs a repo")?, out, passes });
    }
    let diff = argv.first().map(String::as_str) == Some("diff");
    let class = argv.first().map(String::as_str) == Some("class");
    let check = argv.first().map(String::as_str) == Some("check");
    let lint = argv.first().map(String::as_str) == Some("lint");
    let reduce = argv.first().map(String::as_str) == Some("reduce");
    let argv = if diff || class || check || lint || reduce { &argv[1..] } else { argv };
    let mut o = Options { environment: "production".into(), ..Options::default() };
    // lexopt reads `--flag value`, `--flag=value` and `--` (every argument
    // after it a key); the messages are puppet lookup's.
    let mut p = lexopt::Parser::from_args(argv);
    let value = |p: &mut lexopt::Parser, name: &str| -> Result<String, String> {
        p.value().ok().and_then(|v| v.into_string().ok()).ok_or_else(|| format!("--{name} needs a value"))
    };
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        use lexopt::Arg::{Long, Short, Value as Key};
        match arg {
            Short('h') | Long("help") => return Ok(Command::Help),
            Long("root") => o.root = Some(value(&mut p, "root")?),
            Long("env-dir") => o.env_dir = Some(value(&mut p, "env-dir")?),
            Long("node") => o.node = Some(value(&mut p, "node")?),
            Long("environment") => o.environment = value(&mut p, "environment")?,
            Long("facts") => o.facts = Some(value(&mut p, "facts")?),
            Long("facts-dir") => o.facts_dir = Some(value(&mut p, "facts-dir")?),
            Long("from") if diff => o.from = Some(value(&mut p, "from")?),
            Long("to") if diff => o.to = Some(value(&mut p, "to")?),
            Long("full-json") if diff => o.full_json = Some(value(&mut p, "full-json")?),
            Long("puppet") => {
                let v = value(&mut p, "puppet")?;
                o.puppet = v
                    .parse()
                    .ok()
                    .and_then(hiera_core::Puppet::from_major)
                    .ok_or_else(|| format!("--puppet must be 7 or 8, not '{v}'"))?;
            }
            Long("merge") => o.merge = Some(value(&mut p, "merge")?),
            Long("knock-out-prefix") => o.knockout_prefix = Some(value(&mut p, "knock-out-prefix")?),
            Long("sort-merged-arrays") => o.sort_merged_arrays = true,
            Long("merge-hash-arrays") => o.merge_hash_arrays = true,
            Long("default") => o.default = Some(value(&mut p, "default")?),
            Long("type") => o.value_type = Some(value(&mut p, "type")?),
            Long("explain") => o.explain = true,
            Long("all") => o.all = true,
            Long("classes") if check => o.classes_file = Some(value(&mut p, "classes")?),
            Long("all-classes") if check => o.all_classes = true,
            Long("with-keys") if reduce => o.with_keys = true,
            Long("render-as") => {
                o.markdown = false;
                o.render_as = Some(match value(&mut p, "render-as")?.as_str() {
                    "s" => RenderAs::S,
                    "json" => RenderAs::Json,
                    "yaml" => RenderAs::Yaml,
                    "markdown" if diff => {
                        o.markdown = true;
                        continue;
                    }
                    other => return Err(format!("Unknown rendering format '{other}'")),
                })
            }
            Long(f) => return Err(format!("unknown option '--{f}'")),
            Short(c) => return Err(format!("unknown option '-{c}'")),
            Key(k) => o.keys.push(k.into_string().map_err(|k| format!("a key that is not UTF-8: {k:?}"))?),
        }
    }
    if diff {
        if o.from.is_none() || o.to.is_none() || o.facts_dir.is_none() {
            return Err("diff needs --from DIR, --to DIR and --facts-dir DIR".into());
        }
        if o.keys.is_empty() && !o.all {
            return Err("No keys were given to lookup.".into());
        }
        return Ok(Command::Diff(Box::new(o)));
    }
    if reduce {
        if o.keys.is_empty() {
            return Err("reduce needs the keys whose lookups the example must reproduce".into());
        }
        if o.root.is_none() && o.env_dir.is_none() {
            return Err("give --root DIR or --env-dir DIR".into());
        }
        return Ok(Command::Reduce(Box::new(o)));
    }
    if lint {
        if o.facts_dir.is_none() {
            return Err("lint needs --facts-dir DIR: the nodes whose lookups it reviews".into());
        }
        if o.root.is_none() && o.env_dir.is_none() {
            return Err("give --root DIR or --env-dir DIR".into());
        }
        return Ok(Command::Lint(Box::new(o)));
    }
    if check {
        if o.facts_dir.is_none() {
            return Err("check needs --facts-dir DIR".into());
        }
        if o.keys.is_empty() && o.classes_file.is_none() && !o.all_classes {
            return Err("check needs classes: CLASS..., --classes FILE or --all-classes".into());
        }
        if o.root.is_none() && o.env_dir.is_none() {
            return Err("give --root DIR or --env-dir DIR".into());
        }
        return Ok(Command::Check(Box::new(o)));
    }
    if class {
        if o.keys.is_empty() {
            return Err("class needs the classes to bind, as include names them".into());
        }
        if o.root.is_none() && o.env_dir.is_none() {
            return Err("give --root DIR or --env-dir DIR".into());
        }
        return Ok(Command::Class(Box::new(o)));
    }
    if o.facts_dir.is_some() && (o.facts.is_some() || o.node.is_some() || o.explain) {
        return Err("--facts-dir names each node: it does not go with --facts, --node or --explain".into());
    }
    if o.keys.is_empty() && !o.all {
        return Err("No keys were given to lookup.".into());
    }
    if o.root.is_none() && o.env_dir.is_none() {
        return Err("give --root DIR or --env-dir DIR".into());
    }
    Ok(Command::Lookup(Box::new(o)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lookup(args: &[&str]) -> Result<Options, String> {
        match parse(&args.iter().map(|a| a.to_string()).collect::<Vec<_>>())? {
            Command::Lookup(o) => Ok(*o),
            other => Err(format!("not a lookup: {other:?}")),
        }
    }

    #[test]
    fn reads_puppet_lookup_s_options_and_keys() {
        let o = lookup(&[
            "--env-dir=env",
            "--node",
            "web01",
            "--merge",
            "deep",
            "--knock-out-prefix",
            "--",
            "--explain",
            "k",
        ])
        .unwrap();
        assert_eq!((o.env_dir.as_deref(), o.node.as_deref()), (Some("env"), Some("web01")));
        assert_eq!((o.merge.as_deref(), o.knockout_prefix.as_deref()), (Some("deep"), Some("--")));
        assert!(o.explain);
        assert_eq!(o.keys, ["k"]);
    }

    #[test]
    fn every_argument_after_a_double_dash_is_a_key() {
        let o = lookup(&["--env-dir", "env", "--facts", "f.yaml", "--", "ntp::servers", "--not-an-option"]).unwrap();
        assert_eq!(o.keys, ["ntp::servers", "--not-an-option"]);
        assert_eq!(o.facts.as_deref(), Some("f.yaml"));
    }

    #[test]
    fn says_what_is_wrong_as_puppet_lookup_does() {
        assert_eq!(lookup(&["--env-dir", "e", "--bogus", "k"]).unwrap_err(), "unknown option '--bogus'");
        assert_eq!(lookup(&["--env-dir", "e", "--node"]).unwrap_err(), "--node needs a value");
        assert_eq!(lookup(&["--env-dir", "e", "--puppet", "9", "k"]).unwrap_err(), "--puppet must be 7 or 8, not '9'");
        assert_eq!(
            lookup(&["--env-dir", "e", "--render-as", "xml", "k"]).unwrap_err(),
            "Unknown rendering format 'xml'"
        );
        assert_eq!(lookup(&["--env-dir", "e"]).unwrap_err(), "No keys were given to lookup.");
        assert_eq!(lookup(&["k"]).unwrap_err(), "give --root DIR or --env-dir DIR");
        assert!(matches!(parse(&["-h".to_string()]), Ok(Command::Help)));
    }
}
