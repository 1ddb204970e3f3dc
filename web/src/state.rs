//! The page's state and its one reducer. Every change goes through
//! [`State::reduce`], which updates the document's engine, a [`Playground`]
//! (re-parsing only the changed file), re-evaluates every lookup and keeps
//! what the views draw: the document as it now is, the answers, what the
//! tab on show needs. The engine is read and changed only while reducing;
//! a state kept from before (by an effect, say) holds its own document and
//! answers, whatever the engine became since.

use std::cell::RefCell;
use std::rc::Rc;

use hiera_core::case::{CaseLookup, Document, OtherNode};
use hiera_core::fleet::{Change, Table};
use hiera_core::lesson::{Checked, Lesson};
use hiera_core::playground::{BoundClass, Evaluation, Outcome, Playground, Problem, ResolvedKey, Scopes};
use hiera_core::steps::{parts, Part};
use hiera_core::Value;
use yew::prelude::*;

use crate::chunks::{Chunk, Chunks, Feature, ReduceCode};
use crate::components::editor::Marker;

/// How values are shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// YAML.
    Yaml,
    /// JSON.
    Json,
    /// Puppet's own rendering.
    Puppet,
}

impl Format {
    /// Every format, in menu order, with its label.
    pub const ALL: [(Format, &'static str); 3] =
        [(Format::Yaml, "YAML"), (Format::Json, "JSON"), (Format::Puppet, "Puppet")];
}

/// How the page was opened.
#[derive(Clone, Debug, PartialEq)]
pub enum View {
    /// The playground, autosaving the visitor's work.
    Work,
    /// A shared link: its document is shown, and the visitor's own work is
    /// not overwritten until they choose to keep this one.
    Shared,
    /// An example from the gallery, shown as a shared link is; a folder
    /// dropped on it opens, still beside the visitor's work.
    Example,
    /// `?embed`: a compact view for an iframe.
    Embed {
        /// `&readonly`: no editing.
        readonly: bool,
        /// `&compact`: the rows show their answers only, and Why opens
        /// under them for the row clicked.
        compact: bool,
        /// `&file=path`: only this file.
        file: Option<String>,
        /// `&lookup=N`: only this lookup.
        lookup: Option<usize>,
        /// Until the embedding page's document arrives (`www/embed.js`
        /// sends it): nothing is shown, and no height is told, so that the
        /// host page never sizes its frame for a document it did not send.
        waiting: bool,
    },
}

/// The results panel's tabs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tab {
    /// The merge step by step.
    Why,
    /// Puppet's `--explain` text.
    Explain,
    /// Every key the node resolves.
    AllKeys,
    /// Every lookup for every node.
    Nodes,
    /// The classes of the document's manifests, bound for the node.
    Classes,
    /// A review of the data over every node (`hiera-lookup lint`).
    Review,
}

/// A message shown above the page until dismissed.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    /// What happened.
    pub text: String,
    /// True for a problem, false for information.
    pub error: bool,
}

/// Something states share, equal only to itself (a new one is made for
/// every change), so that comparing states never walks what it holds.
#[derive(Debug, Default)]
pub struct Same<T>(pub Rc<T>);

impl<T> Same<T> {
    /// Shares `value`.
    pub fn new(value: T) -> Same<T> {
        Same(Rc::new(value))
    }
}

impl<T> Clone for Same<T> {
    fn clone(&self) -> Self {
        Same(self.0.clone())
    }
}

impl<T> PartialEq for Same<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> std::ops::Deref for Same<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// The Nodes tab: every lookup's answer for every node, what each node's
/// paths read and `puppet lookup` adds, and what changed since the pin.
#[derive(Debug)]
pub struct Fleet {
    /// The answers, a column a node (the shown one first).
    pub table: Table,
    /// Each node's environment, in the table's order.
    pub environments: Vec<String>,
    /// The variables the paths read, and those `puppet lookup` adds.
    pub scopes: Scopes,
    /// The answers when they were pinned.
    pub pinned: Option<Same<Table>>,
    /// Every (node, lookup) whose answer changed since the pin, as
    /// `hiera-lookup diff` lists them.
    pub changes: Vec<Change>,
}

/// The tour of Hiera, while it is open: the lesson on show and how far the
/// learner is with it.
#[derive(Clone, Debug, PartialEq)]
pub struct Tour {
    /// The lessons' files, in order (`lessons/index.txt`).
    pub lessons: Rc<Vec<AttrValue>>,
    /// The lesson on show, by its place in `lessons`.
    pub at: usize,
    /// The lesson.
    pub lesson: Same<Lesson>,
    /// Its document as the lesson began.
    pub start: Same<Document>,
    /// How many of its hints are shown.
    pub hints: usize,
    /// Its checks, and whether each holds for the document on show.
    pub checks: Rc<Vec<Checked>>,
    /// The lessons passed, by file, as the browser keeps them.
    pub passed: Rc<Vec<AttrValue>>,
}

/// The eyaml tools, while they are open: what `eyaml createkeys` and
/// `eyaml encrypt` do, for the document on show.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EyamlTools {
    /// Whether a key pair is being made.
    pub making_keys: bool,
    /// The block the typed value was encrypted to, last.
    pub block: Option<AttrValue>,
}

/// Where `eyaml createkeys` writes the private key, and the tools put it.
pub const PRIVATE_KEY: &str = "/etc/puppetlabs/puppet/eyaml/private_key.pkcs7.pem";
/// Where `eyaml createkeys` writes the certificate, and the tools put it.
pub const PUBLIC_KEY: &str = "/etc/puppetlabs/puppet/eyaml/public_key.pkcs7.pem";

/// What the eyaml tools report.
#[derive(Debug)]
pub enum Eyaml {
    /// A key pair is being made.
    MakingKeys,
    /// The key pair made (private key's PEM, certificate's), or why not.
    KeysMade(Result<(String, String), String>),
    /// The block a typed value was encrypted to, or why not.
    Encrypted(Result<String, String>),
}

impl Tour {
    /// The lesson's file name.
    pub fn name(&self) -> AttrValue {
        self.lessons.get(self.at).cloned().unwrap_or_default()
    }

    /// Whether every check holds.
    pub fn done(&self) -> bool {
        self.checks.iter().all(|c| c.passed)
    }
}

/// A lookup's evaluation as the views receive it: equal only to itself. An
/// edit makes new evaluations, which are drawn again anyway, and comparing
/// them deeply (explanations can be large) would cost more than drawing.
pub type Shown = Same<Evaluation>;

/// Everything the page shows.
#[derive(Clone, PartialEq)]
pub struct State {
    /// The newest state's engine, shared by every state reduced from it:
    /// only [`State::reduce`] reads it.
    engine: Same<RefCell<Playground>>,
    /// The document as it is in this state.
    document: Same<Document>,
    /// The keys the data files define, for completion.
    pub keys: Rc<Vec<String>>,
    /// The open file's own syntax and validation problems.
    problems: Rc<Vec<Problem>>,
    /// Bumped on every change of the document, so that views can tell.
    pub revision: u64,
    /// Bumped when another document is loaded: what was made for the one
    /// before (a share link) is not for this one.
    pub loaded: u64,
    /// Whether files changed since the document was loaded: its
    /// description was written for the files as they were.
    pub edited: bool,
    /// The file in the editor.
    pub open_file: Option<String>,
    /// The lookup whose explanation is shown.
    pub selected: Option<usize>,
    /// One evaluation per lookup, with its trace.
    pub results: Rc<Vec<Shown>>,
    /// Every key the node resolves, while All keys is on show.
    pub resolved: Option<Same<Vec<ResolvedKey>>>,
    /// Every lookup for every node, while Nodes is on show.
    pub fleet: Option<Same<Fleet>>,
    /// The review of the data over every node, while Review is on show
    /// (once its code is fetched).
    pub review: Option<Same<hiera_core::review::Review>>,
    /// The code fetched when first needed (see [`crate::chunks`]).
    pub chunks: Chunks,
    /// The lookup whose minimal example was asked for before its code
    /// came: it is made when the code comes.
    minimal_asked: Option<usize>,
    /// The tour, while it is open.
    pub tour: Option<Tour>,
    /// The classes of the document's manifests, bound for the node (none
    /// when it has no manifests).
    pub classes: Same<Vec<BoundClass>>,
    /// The answers of every node when the user pinned them, for the
    /// document on show.
    fleet_pin: Option<Same<Table>>,
    /// A file and line to show in the editor, highlighted.
    pub reveal: Option<(String, usize)>,
    /// The facts as the user typed them.
    pub facts_text: AttrValue,
    /// Why the facts text is not used, when it cannot be read.
    pub facts_error: Option<AttrValue>,
    /// How values are shown.
    pub format: Format,
    /// A message for the user.
    pub notice: Option<Notice>,
    /// Whether share links and exports carry the document's private keys.
    pub include_private_keys: bool,
    /// How the page was opened.
    pub view: View,
    /// The results panel's tab.
    pub tab: Tab,
    /// Whether "Report it" is open.
    pub report_open: bool,
    /// The eyaml tools, while they are open.
    pub eyaml: Option<EyamlTools>,
    /// The last share link made, and the document it is for
    /// ([`State::loaded`]): it is shown only while that document is.
    pub share_link: Option<(u64, String)>,
    /// The gallery's examples (files under `examples/`).
    pub examples: Rc<Vec<AttrValue>>,
    /// The theme chosen: "" (the system's), "dark" or "light".
    pub theme: AttrValue,
    /// The optional backends, once loaded (they outlive documents).
    backends: Option<Same<crate::backends::Backends>>,
    /// The work this document is saved as; `None` while it is an example,
    /// a shared link or the welcome, not edited yet.
    pub work: Option<AttrValue>,
    /// The work "Back to my work" returns to.
    pub mine: Option<AttrValue>,
    /// The example on show, by its file name.
    pub example: Option<AttrValue>,
    /// Why the work is not saved, while it is not.
    pub unsaved: Option<AttrValue>,
    /// The works kept in the browser, for the Works menu.
    pub works: Rc<Vec<crate::works::Entry>>,
}

/// What the user (or the page) can do.
pub enum Action {
    /// Show a document beside the visitor's work (an embed's, or one to be
    /// shown as an example or shared link): it is saved once edited.
    Load(Document),
    /// Show the visitor's work `.0`.
    LoadWork(AttrValue, Document),
    /// Show a document the visitor opened (a file, a folder): a work of its own.
    LoadNew(Document),
    /// Show an example of the gallery (its file name, its document) beside the work.
    ShowExample(AttrValue, Document),
    /// Make what is shown (an example, a shared link) a work of its own.
    Keep,
    /// Another tab shows this work: keep a copy in this one.
    Fork,
    /// The work was saved, or why not.
    Saved(Option<AttrValue>),
    /// The works kept in the browser.
    Works(Vec<crate::works::Entry>),
    /// Show a file in the editor.
    OpenFile(String),
    /// Show a file in the editor with a line highlighted.
    Reveal(String, usize),
    /// The open file now has this text.
    EditFile(String),
    /// Create a file (or, ending in `/`, a folder) and open it.
    CreateFile(String),
    /// Rename a file or (ending in `/`) a folder.
    Rename(String, String),
    /// Delete a file or (ending in `/`) a folder.
    Delete(String),
    /// The facts text changed.
    SetFacts(String),
    /// The node name changed (empty: from the facts).
    SetNode(String),
    /// The environment changed.
    SetEnvironment(String),
    /// Answer as this Puppet does.
    SetPuppet(hiera_core::Puppet),
    /// A lookup changed.
    UpdateLookup(usize, CaseLookup),
    /// A new lookup at the end.
    AddLookup,
    /// A lookup removed.
    RemoveLookup(usize),
    /// Pin a lookup's answer as its expected one (true), or forget it.
    Pin(usize, bool),
    /// Show a lookup's explanation.
    Select(usize),
    /// Show values in another format.
    SetFormat(Format),
    /// Show a message.
    Notify(Notice),
    /// The optional backends have loaded: decrypt eyaml and read HOCON with them.
    BackendsReady(Same<crate::backends::Backends>),
    /// A view's code has been fetched (see [`State::wanted_code`]).
    Fetched(Chunk),
    /// Whether share links and exports carry private keys.
    IncludePrivateKeys(bool),
    /// Pin every node's answers (or forget the pin): the Nodes table then
    /// marks each answer that changes.
    PinFleet(bool),
    /// Add a node beside the document's own: its name (one the document
    /// has gets a number; empty: "node"), its environment (none: the
    /// document's) and its facts, as the facts box reads them.
    AddNode(String, Option<String>, String),
    /// Remove the `i`-th of the other nodes.
    RemoveNode(usize),
    /// Show why the node of a fleet column (0: the shown one) gets a
    /// lookup's (row's) answer.
    OpenWhy(usize, usize),
    /// Show Why for a class parameter's key (class, parameter), looked up
    /// with the parameter's type: the lookup that does so, added if the
    /// document has none.
    WhyParameter(String, String),
    /// The page now shows this.
    SetView(View),
    /// Show another tab of the results panel.
    SetTab(Tab),
    /// Open or close "Report it".
    ShowReport(bool),
    /// Open or close the eyaml tools.
    ShowEyaml(bool),
    /// What the eyaml tools did.
    Eyaml(Eyaml),
    /// A share link was made for the document loaded `.0`th (or forgotten).
    ShareLink(Option<(u64, String)>),
    /// The gallery's examples arrived.
    Examples(Vec<AttrValue>),
    /// Use this theme ("", "dark" or "light").
    SetTheme(String),
    /// Hide the message.
    Dismiss,
    /// Show a lesson of the tour (its place among `lessons`, the lesson and
    /// its document) beside the work, with the lessons passed so far.
    StartLesson {
        /// The lessons' files, in order.
        lessons: Vec<AttrValue>,
        /// The lesson's place among them.
        at: usize,
        /// The lesson.
        lesson: Lesson,
        /// Its document as it begins.
        doc: Document,
        /// The lessons passed, as the browser keeps them.
        passed: Vec<AttrValue>,
    },
    /// Show the lesson's next hint.
    Hint,
    /// Write the lesson's solution into the document.
    ShowSolution,
    /// Start the lesson again from its beginning.
    RestartLesson,
    /// Close the tour.
    CloseTour,
    /// Show, beside the work, the smallest document that gives the `i`-th
    /// lookup the same answer and explanation, with Report it open.
    ShareMinimal(usize),
}

impl State {
    /// The page showing `doc`.
    pub fn new(doc: Document) -> State {
        let empty = Document::from_yaml("files: {}").expect("an empty document reads");
        let mut state = State {
            engine: Same::new(RefCell::new(Playground::new(empty.clone()))),
            document: Same::new(empty),
            keys: Rc::default(),
            problems: Rc::default(),
            revision: 0,
            loaded: 0,
            edited: false,
            open_file: None,
            selected: None,
            results: Rc::default(),
            resolved: None,
            fleet: None,
            review: None,
            chunks: Chunks::default(),
            minimal_asked: None,
            tour: None,
            classes: Same::new(Vec::new()),
            fleet_pin: None,
            reveal: None,
            facts_text: AttrValue::default(),
            facts_error: None,
            format: Format::Yaml,
            notice: None,
            include_private_keys: false,
            view: View::Work,
            tab: Tab::Why,
            report_open: false,
            eyaml: None,
            share_link: None,
            examples: Rc::default(),
            theme: AttrValue::default(),
            backends: None,
            work: None,
            mine: None,
            example: None,
            unsaved: None,
            works: Rc::default(),
        };
        state.load(doc);
        state.note_problems();
        state
    }

    /// The page showing a shared link: its document, open file and lookup.
    pub fn shared(shared: hiera_core::share::Shared) -> State {
        let mut state = State::new(shared.document);
        if let Some(open) = shared.open.filter(|o| state.document().files.iter().any(|(p, _)| p == o)) {
            state.open_file = Some(open);
        }
        let count = state.document().lookups.len();
        if let Some(i) = shared.selected.filter(|i| *i < count) {
            state.selected = Some(i);
        }
        state
    }

    /// The page showing `doc`, with a problem to tell.
    pub fn with_notice(doc: Document, text: &str) -> State {
        let mut state = State::new(doc);
        state.notice = Some(Notice { text: text.to_string(), error: true });
        state
    }

    fn load(&mut self, doc: Document) {
        self.loaded += 1;
        self.tour = None;
        self.fleet_pin = None;
        self.work = None;
        self.example = None;
        self.edited = false;
        self.facts_text = hiera_core::facts::to_text(&doc.facts).into();
        self.facts_error = None;
        self.open_file = doc.files.iter().map(|(p, _)| p.clone()).find(|p| !p.ends_with('/'));
        self.selected = (!doc.lookups.is_empty()).then_some(0);
        let mut engine = Playground::new(doc);
        if let Some(backends) = &self.backends {
            engine.set_pkcs7(backends.pkcs7.clone());
            engine.set_hocon(backends.hocon.clone());
        }
        self.engine = Same::new(RefCell::new(engine));
        if let View::Embed { file, lookup, waiting, compact, .. } = &mut self.view {
            *waiting = false;
            if *compact {
                self.selected = None;
            }
            if let Some(f) = file.as_ref().filter(|f| self.document.files.iter().any(|(p, _)| p == *f)) {
                self.open_file = Some(f.clone());
            }
            if lookup.is_some() {
                self.selected = *lookup;
            }
        }
        self.evaluate();
    }

    /// The code that what is on show (a tab, a panel, the tour) or a
    /// minimal example asked for needs, and the page has not fetched.
    pub fn wanted_code(&self) -> Option<Feature> {
        let shown = [
            (self.tab == Tab::Review, Feature::Review),
            (self.tab == Tab::Nodes, Feature::Nodes),
            (self.tab == Tab::AllKeys, Feature::AllKeys),
            (self.tab == Tab::Explain, Feature::Explain),
            (self.tab == Tab::Classes, Feature::Classes),
            (self.tour.is_some(), Feature::Tour),
            (self.minimal_asked.is_some(), Feature::Reduce),
            (self.report_open, Feature::Report),
            (self.eyaml.is_some(), Feature::Eyaml),
        ];
        shown.into_iter().find(|&(on, feature)| on && !self.chunks.has(feature)).map(|(_, feature)| feature)
    }

    /// Whether the optional backends are loaded.
    pub fn backends_loaded(&self) -> bool {
        self.backends.is_some()
    }

    /// Whether the document uses eyaml or HOCON and the backends that read
    /// them are not loaded.
    pub fn wants_backends(&self) -> bool {
        self.backends.is_none()
            && (self.document.uses_backend("eyaml_lookup_key") || self.document.uses_backend("hocon_data"))
    }

    /// The document as share links and exports carry it: without its
    /// private keys unless the user chose to include them.
    pub fn shareable(&self) -> Document {
        let doc = self.document();
        if self.include_private_keys {
            doc.clone()
        } else {
            doc.without_private_keys()
        }
    }

    /// Report it's Markdown and `embed.js` markup for a page served beside
    /// `base`, of the document as share links carry it. The answers are the
    /// page's own; when private keys are left out of a document that has
    /// some, they are answered as on a Puppet without the keys (eyaml
    /// values fail), by the same engine over the document without them, so
    /// that no decrypted secret reaches the report.
    pub fn report(&self, base: &str) -> (String, String) {
        let doc = self.shareable();
        let evaluations: Vec<Evaluation> = if self.include_private_keys || self.document().private_keys().is_empty() {
            self.results.iter().map(|e| (**e).clone()).collect()
        } else {
            let mut without = Playground::new(doc.clone());
            if let Some(backends) = &self.backends {
                without.set_pkcs7(backends.pkcs7.clone());
                without.set_hocon(backends.hocon.clone());
            }
            doc.lookups.iter().map(|l| without.evaluate(l, true)).collect()
        };
        let markdown = hiera_core::report::markdown(&doc, &evaluations.iter().collect::<Vec<_>>());
        (markdown, hiera_core::report::embed_markup(&doc, base))
    }

    /// The document as it stands.
    pub fn document(&self) -> &Document {
        &self.document
    }

    /// The text of the open file.
    pub fn open_text(&self) -> Option<String> {
        let file = self.open_file.as_ref()?;
        self.document().files.iter().find(|(p, _)| p == file).map(|(_, t)| t.to_string())
    }

    /// What the editor should mark in the open file: its own syntax or
    /// validation problems, and lookup errors that point into it.
    pub fn markers(&self) -> Vec<Marker> {
        let Some(file) = &self.open_file else { return Vec::new() };
        let mut markers: Vec<Marker> = self
            .problems
            .iter()
            .map(|Problem { line, column, message }| Marker {
                line: *line,
                column: *column,
                message: message.clone().into(),
                note: false,
            })
            .collect();
        for e in self.results.iter() {
            if let Outcome::Failed { message, place: Some(place), .. } = &e.outcome {
                if &place.file == file {
                    let marker = Marker {
                        line: place.line.unwrap_or(1),
                        column: place.column.unwrap_or(1),
                        message: message.clone().into(),
                        note: false,
                    };
                    if !markers.contains(&marker) {
                        markers.push(marker);
                    }
                }
            }
        }
        // A value that fails its class parameter's type, where it is written.
        for class in self.classes.iter() {
            for (p, sources) in class.binding.parameters.iter().zip(&class.sources) {
                let Some(mismatch) = &p.mismatch else { continue };
                for source in sources.iter().filter(|s| &s.file == file) {
                    let message = format!("{}: {mismatch}", class.binding.resource());
                    let marker =
                        Marker { line: source.line.unwrap_or(1), column: 1, message: message.into(), note: false };
                    if !markers.contains(&marker) {
                        markers.push(marker);
                    }
                }
            }
        }
        // Hovering a key the selected lookup found says what its value did.
        let selected =
            self.selected.and_then(|i| Some((self.document().lookups.get(i)?.key_label(), self.results.get(i)?)));
        if let Some((label, e)) = selected {
            for (step, part) in e.steps.iter().zip(parts(&e.steps)) {
                let (Some(part), Some(origin)) = (part, &step.origin) else { continue };
                if self.document.relative(&step.path) == *file {
                    let what = match part {
                        Part::Wins => "is the answer",
                        Part::Merged => "is merged into the answer",
                        Part::Overridden => "is overridden: higher levels set all of it",
                    };
                    let message = format!("{label}: this value {what} ({})", step.level);
                    let at = origin.spans.at();
                    markers.push(Marker {
                        line: at.line as usize,
                        column: at.column as usize,
                        message: message.into(),
                        note: true,
                    });
                }
            }
        }
        markers
    }

    /// Re-evaluates every lookup, with its trace: each row shows its warnings.
    fn evaluate(&mut self) {
        self.revision += 1;
        let engine = self.engine.borrow();
        self.document = Same::new(engine.document().clone());
        self.keys = engine.data_keys();
        let results = engine.document().lookups.iter().map(|l| Same::new(engine.evaluate_in_both(l))).collect();
        self.results = Rc::new(results);
        drop(engine);
        self.fill_tabs();
    }

    /// The open file's problems, once it or the document changed.
    fn note_problems(&mut self) {
        let problems = self.open_file.as_ref().map(|f| self.engine.borrow().problems(f)).unwrap_or_default();
        self.problems = Rc::new(problems);
    }

    /// Shows the smallest document that gives the `i`-th lookup the same
    /// answer and explanation, beside the work, with Report it open.
    fn share_minimal(&mut self, i: usize, code: ReduceCode) {
        let doc = self.document().clone();
        if let Some(lookup) = doc.lookups.get(i).cloned() {
            let reduced = (code.reduce)(&doc, &[lookup], self.include_private_keys);
            let mine = self.work.clone().or_else(|| self.mine.clone());
            self.load(reduced.document.clone());
            self.view = View::Shared;
            self.mine = mine;
            self.report_open = true;
            let text = format!(
                "The smallest example of this lookup, beside your work (\"Back to my work\" returns to it): share its link, or Report it. {}",
                reduced.summary()
            );
            self.notice = Some(Notice { text, error: false });
        }
    }

    /// What the tabs show besides the lookups: what the tab on show needs,
    /// and the classes (their marks are in the data files).
    fn fill_tabs(&mut self) {
        self.resolve_keys();
        self.answer_nodes();
        self.bind_classes();
        let code = self.chunks.review.filter(|_| self.tab == Tab::Review);
        self.review = code.map(|code| Same::new((code.review)(&mut self.engine.borrow_mut())));
        self.check_lesson();
    }

    /// The lesson's checks against the document as it is now; a lesson whose
    /// checks all hold is passed.
    fn check_lesson(&mut self) {
        let (Some(tour), Some(code)) = (&mut self.tour, self.chunks.tour) else { return };
        let checks = (code.check)(&tour.lesson, &tour.start, &self.engine.borrow());
        tour.checks = Rc::new(checks);
        let name = tour.name();
        if tour.done() && !tour.passed.contains(&name) {
            let mut passed = (*tour.passed).clone();
            passed.push(name);
            tour.passed = Rc::new(passed);
        }
    }

    /// Binds every class of the document's manifests (they mark values
    /// that fail their parameter's type in the data files); where every
    /// value came from only while Classes is on show.
    fn bind_classes(&mut self) {
        let has_manifests = self.document.files.iter().any(|(p, _)| p.ends_with(".pp"));
        let all_sources = self.tab == Tab::Classes;
        self.classes = Same::new(if has_manifests { self.engine.borrow().classes(all_sources) } else { Vec::new() });
    }

    /// Answers every lookup for every node while Nodes is on show.
    fn answer_nodes(&mut self) {
        let code = self.chunks.nodes.filter(|_| self.tab == Tab::Nodes);
        self.fleet = code.map(|code| {
            let mut engine = self.engine.borrow_mut();
            let environments = engine.document().all_nodes().into_iter().map(|n| n.environment).collect();
            let (table, scopes) = (code.answer)(&mut engine);
            let changes = self.fleet_pin.as_ref().map(|pin| (code.changes)(pin, &table)).unwrap_or_default();
            Same::new(Fleet { table, environments, scopes, pinned: self.fleet_pin.clone(), changes })
        });
    }

    /// Resolves every key of the node while All keys is on show (and
    /// only then: it looks up every key).
    fn resolve_keys(&mut self) {
        let code = self.chunks.all_keys.filter(|_| self.tab == Tab::AllKeys);
        self.resolved = code.map(|code| Same::new((code.resolve)(&self.engine.borrow())));
    }

    fn with_engine<T>(&mut self, change: impl FnOnce(&mut Playground) -> T) -> T {
        let out = change(&mut self.engine.borrow_mut());
        self.evaluate();
        out
    }
}

/// Reads the facts editor's text: YAML or JSON facts as `facter`, `puppet
/// facts` or PuppetDB give them (or nothing).
fn parse_facts(text: &str) -> Result<hiera_core::facts::NodeFacts, String> {
    // The message ends with the position, where there is one.
    hiera_core::facts::read(text).map_err(|e| format!("Facts: {e}"))
}

impl State {
    /// Renames a file, or a folder (`from` ending in `/`), keeping the one
    /// on show open under its new name.
    fn rename(&mut self, from: &str, to: &str) {
        self.with_engine(|e| e.rename(from, to));
        if let Some(open) = &self.open_file {
            if open == from || (from.ends_with('/') && open.starts_with(from)) {
                self.open_file = Some(format!("{to}{}", &open[from.len()..]));
            }
        }
    }

    /// Deletes a file, or a folder and all in it; the first file left is
    /// shown if the one on show went.
    fn delete(&mut self, path: &str) {
        let doomed: Vec<String> = self
            .document()
            .files
            .iter()
            .map(|(p, _)| p.clone())
            .filter(|p| p == path || (path.ends_with('/') && p.starts_with(path)))
            .collect();
        self.with_engine(|e| doomed.iter().for_each(|p| e.remove_file(p)));
        if self.open_file.as_ref().is_some_and(|o| doomed.contains(o)) {
            let first = self.document().files.iter().map(|(p, _)| p.clone()).find(|p| !p.ends_with('/'));
            self.open_file = first;
        }
    }

    /// Takes the facts as typed; text that does not read as facts keeps the
    /// node's facts as they were and says why.
    fn set_facts(&mut self, text: String) {
        match parse_facts(&text) {
            Ok(read) => {
                self.facts_error = None;
                // Facts of another node (a factset, `facter -y` pasted from it)
                // name it: the node follows, unless it was named otherwise.
                // A `clientcert` fact names the node by itself.
                let new_name = read.node_name().filter(|_| !read.facts.contains_key(&Value::from("clientcert")));
                self.with_engine(|e| {
                    let doc = e.document();
                    // The earlier facts' own name (without cloning them on each keystroke).
                    let old_name = hiera_core::facts::fqdn(&doc.facts);
                    let followed = doc.node.is_none() || doc.node == old_name;
                    if followed && doc.node != new_name {
                        e.set_node_name(new_name);
                    }
                    e.set_facts(read.facts)
                });
            }
            Err(message) => self.facts_error = Some(message.into()),
        }
        self.facts_text = text.into();
    }

    /// Changes the document's lookups.
    fn edit_lookups(&mut self, change: impl FnOnce(&mut Vec<CaseLookup>)) {
        self.with_engine(|e| {
            let mut lookups = e.document().lookups.clone();
            change(&mut lookups);
            e.set_lookups(lookups);
        });
    }

    /// Adds files, leaving any that exist as they are and the editor on the
    /// file it shows.
    fn add_files(&mut self, files: Vec<(String, String)>) {
        let new: Vec<(String, String)> = {
            let doc = self.document();
            files.into_iter().filter(|(p, _)| !doc.files.iter().any(|(q, _)| q == p)).collect()
        };
        self.with_engine(|e| new.iter().for_each(|(p, t)| e.set_file(p, t)));
    }

    /// What the eyaml tools did: a new key pair goes where `eyaml
    /// createkeys` writes it, failures are said.
    fn eyaml_did(&mut self, event: Eyaml) {
        let Some(tools) = &mut self.eyaml else { return };
        let failed = match event {
            Eyaml::MakingKeys => {
                tools.making_keys = true;
                None
            }
            Eyaml::KeysMade(made) => {
                tools.making_keys = false;
                match made {
                    Ok((private, public)) => {
                        self.add_files(vec![(PUBLIC_KEY.into(), public), (PRIVATE_KEY.into(), private)]);
                        None
                    }
                    Err(e) => Some(format!("Could not make a key pair: {e}")),
                }
            }
            Eyaml::Encrypted(Ok(block)) => {
                tools.block = Some(block.into());
                None
            }
            Eyaml::Encrypted(Err(e)) => Some(format!("Could not encrypt: {e}")),
        };
        if let Some(text) = failed {
            self.notice = Some(Notice { text, error: true });
        }
    }

    /// The certificate the eyaml tools encrypt to (path, PEM): the one
    /// where `eyaml createkeys` puts it, else the document's first.
    pub fn eyaml_certificate(&self) -> Option<(String, String)> {
        let doc = self.document();
        let mut certificates = doc.files.iter().filter(|(_, t)| t.contains("-----BEGIN CERTIFICATE-----"));
        let first = certificates.clone().next();
        certificates.find(|(p, _)| p == PUBLIC_KEY).or(first).map(|(p, t)| (p.clone(), t.to_string()))
    }

    /// Whether the document has a key file where `eyaml createkeys` writes it.
    pub fn eyaml_has_keys(&self) -> bool {
        self.document().files.iter().any(|(p, _)| p == PRIVATE_KEY || p == PUBLIC_KEY)
    }

    /// Why for `class::param`, looked up with the parameter's type as
    /// Puppet checks it: the document's lookup that does so, else a new one.
    fn why_parameter(&mut self, class: &str, param: &str) {
        let key = format!("{class}::{param}");
        let type_text = self
            .classes
            .iter()
            .filter(|c| c.binding.class == class)
            .flat_map(|c| c.binding.parameters.iter())
            .find(|p| p.name == param)
            .and_then(|p| p.type_text.clone());
        let existing =
            self.document().lookups.iter().position(|l| l.keys == [key.clone()] && l.value_type == type_text);
        let row = match existing {
            Some(row) => row,
            None => {
                let row = self.document().lookups.len();
                let lookup = CaseLookup { keys: vec![key], value_type: type_text, ..CaseLookup::default() };
                self.own_edits();
                self.edit_lookups(|lookups| lookups.push(lookup));
                row
            }
        };
        self.selected = Some(row);
        self.tab = Tab::Why;
        self.resolve_keys();
        self.answer_nodes();
    }

    /// Why for lookup `row` of the Nodes table's `column`: column 0 is the
    /// node on show, the others become it.
    fn open_why(&mut self, column: usize, row: usize) {
        if column > 0 {
            if !self.with_engine(|e| e.show_node(column - 1)) {
                let text = "Why shows the nodes of the document's environment: its files are there".to_string();
                self.notice = Some(Notice { text, error: true });
                return;
            }
            let facts = hiera_core::facts::to_text(&self.document().facts);
            self.facts_text = facts.into();
            self.facts_error = None;
        }
        self.selected = Some(row);
        self.tab = Tab::Why;
    }
}

impl Action {
    /// Whether this is the visitor changing the document.
    fn edits(&self) -> bool {
        matches!(
            self,
            Action::EditFile(_)
                | Action::CreateFile(_)
                | Action::Rename(..)
                | Action::Delete(_)
                | Action::SetFacts(_)
                | Action::SetNode(_)
                | Action::SetEnvironment(_)
                | Action::SetPuppet(_)
                | Action::UpdateLookup(..)
                | Action::AddLookup
                | Action::RemoveLookup(_)
                | Action::Pin(..)
                | Action::Eyaml(Eyaml::KeysMade(Ok(_)))
                | Action::AddNode(..)
                | Action::RemoveNode(_)
        )
    }
}

impl State {
    /// What is shown becomes the work `id`.
    fn become_work(&mut self, id: AttrValue) {
        self.work = Some(id.clone());
        self.mine = Some(id);
        self.example = None;
        if matches!(self.view, View::Example | View::Shared) {
            self.view = View::Work;
        }
    }

    /// The visitor edits what is shown: an example, a shared link or the
    /// welcome becomes a work of its own, beside the others.
    fn own_edits(&mut self) {
        if self.work.is_some() || matches!(self.view, View::Embed { .. }) {
            return;
        }
        if matches!(self.view, View::Example | View::Shared) {
            let text = "Your changes are kept as a work of their own; your other work is still there (Works).";
            self.notice = Some(Notice { text: text.into(), error: false });
        }
        self.become_work(crate::works::new_id().into());
    }
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut s = (*self).clone();
        s.edited |= matches!(
            action,
            Action::EditFile(_)
                | Action::CreateFile(_)
                | Action::Rename(..)
                | Action::Delete(_)
                | Action::Eyaml(Eyaml::KeysMade(Ok(_)))
        );
        if action.edits() {
            s.own_edits();
        }
        match action {
            Action::Load(doc) => s.load(doc),
            Action::LoadWork(id, doc) => {
                s.load(doc);
                s.become_work(id);
            }
            Action::LoadNew(doc) => {
                s.load(doc);
                s.become_work(crate::works::new_id().into());
            }
            Action::ShowExample(name, doc) => {
                if s.view == View::Work {
                    s.view = View::Example;
                }
                s.load(doc);
                s.example = Some(name);
            }
            Action::StartLesson { lessons, at, lesson, doc, passed } => {
                if s.view == View::Work {
                    s.view = View::Example;
                }
                s.load(doc.clone());
                s.tour = Some(Tour {
                    lessons: Rc::new(lessons),
                    at,
                    lesson: Same::new(lesson),
                    start: Same::new(doc),
                    hints: 0,
                    checks: Rc::default(),
                    passed: Rc::new(passed),
                });
                s.check_lesson();
            }
            Action::Hint => {
                if let Some(tour) = &mut s.tour {
                    tour.hints = (tour.hints + 1).min(tour.lesson.hints.len());
                }
            }
            Action::ShowSolution => {
                if let Some(solution) = s.tour.as_ref().map(|t| t.lesson.solution.clone()) {
                    s.own_edits();
                    s.edited = true;
                    s.with_engine(|e| solution.iter().for_each(|(path, text)| e.set_file(path, text)));
                }
            }
            Action::RestartLesson => {
                if let Some(tour) = s.tour.clone() {
                    if s.view == View::Work {
                        s.view = View::Example;
                    }
                    s.load((*tour.start).clone());
                    s.tour = Some(Tour { hints: 0, ..tour });
                    s.check_lesson();
                }
            }
            Action::CloseTour => s.tour = None,
            Action::ShareMinimal(i) => match s.chunks.reduce {
                Some(code) => s.share_minimal(i, code),
                None => s.minimal_asked = Some(i),
            },
            Action::Keep => s.become_work(crate::works::new_id().into()),
            Action::Fork => {
                s.become_work(crate::works::new_id().into());
                let text = "This work is open in another tab too: this tab keeps a copy of its own (the Works menu lists both).";
                s.notice = Some(Notice { text: text.into(), error: false });
            }
            Action::Saved(unsaved) => s.unsaved = unsaved,
            Action::Works(works) => s.works = Rc::new(works),
            Action::OpenFile(path) => {
                s.open_file = Some(path);
                s.reveal = None;
            }
            Action::Reveal(path, line) => {
                s.open_file = Some(path.clone());
                s.reveal = Some((path, line));
            }
            Action::EditFile(text) => {
                if let Some(path) = s.open_file.clone() {
                    // Held before the engine runs: a crash must not lose it.
                    crate::recovery::hold(&path, &text);
                    s.with_engine(|e| e.set_file(&path, &text));
                }
            }
            Action::CreateFile(path) => {
                if !s.document().files.iter().any(|(p, _)| p == &path) {
                    s.with_engine(|e| e.set_file(&path, ""));
                }
                if !path.ends_with('/') {
                    s.open_file = Some(path);
                }
            }
            Action::Rename(from, to) => s.rename(&from, &to),
            Action::Delete(path) => s.delete(&path),
            Action::SetFacts(text) => s.set_facts(text),
            Action::SetNode(name) => {
                let name = name.trim().to_string();
                s.with_engine(|e| e.set_node_name((!name.is_empty()).then_some(name)));
            }
            Action::SetEnvironment(env) => {
                let env = env.trim();
                let env = if env.is_empty() { "production" } else { env }.to_string();
                s.with_engine(|e| e.set_environment(&env));
            }
            Action::SetPuppet(puppet) => s.with_engine(|e| e.set_puppet(puppet)),
            Action::UpdateLookup(i, lookup) => s.edit_lookups(|lookups| {
                if let Some(l) = lookups.get_mut(i) {
                    *l = lookup;
                }
            }),
            Action::AddLookup => {
                let count = s.document().lookups.len();
                s.selected = Some(count);
                s.edit_lookups(|lookups| {
                    lookups.push(CaseLookup { keys: vec![String::new()], ..CaseLookup::default() })
                });
            }
            Action::Pin(i, pin) => s.with_engine(|e| e.pin(i, pin)),
            Action::RemoveLookup(i) => {
                s.selected = match s.selected {
                    Some(sel) if sel > i => Some(sel - 1),
                    Some(sel) if sel == i => None,
                    other => other,
                };
                s.edit_lookups(|lookups| {
                    if i < lookups.len() {
                        lookups.remove(i);
                    }
                });
            }
            Action::Select(i) if self.selected == Some(i) => return self,
            Action::Select(i) => s.selected = Some(i),
            Action::SetFormat(f) => s.format = f,
            Action::Notify(n) => {
                // An embed whose document could not be read shows what it has, and why.
                if let View::Embed { waiting, .. } = &mut s.view {
                    *waiting = false;
                }
                s.notice = Some(n);
            }
            Action::BackendsReady(backends) => {
                s.backends = Some(backends.clone());
                s.with_engine(|e| {
                    e.set_pkcs7(backends.pkcs7.clone());
                    e.set_hocon(backends.hocon.clone());
                });
            }
            Action::Fetched(chunk) => {
                // Fetched ahead of need (or twice), code changes nothing on show.
                let wanted = s.wanted_code() == Some(chunk.feature());
                s.chunks.add(chunk);
                if wanted {
                    s.fill_tabs();
                }
                if let (Some(i), Some(code)) = (s.minimal_asked, s.chunks.reduce) {
                    s.minimal_asked = None;
                    s.share_minimal(i, code);
                }
            }
            Action::IncludePrivateKeys(include) => s.include_private_keys = include,
            Action::AddNode(name, environment, facts) => {
                let name = s.document().free_node_name(&name);
                let node = parse_facts(&facts)
                    .and_then(|read| OtherNode::new(name.clone(), environment, read.facts).map_err(|e| e.to_string()));
                match node {
                    Ok(node) => s.with_engine(|e| e.add_node(node)),
                    Err(message) => {
                        s.notice = Some(Notice { text: format!("Could not add {name}: {message}"), error: true })
                    }
                }
            }
            Action::RemoveNode(i) => s.with_engine(|e| e.remove_node(i)),
            Action::OpenWhy(column, row) => s.open_why(column, row),
            Action::WhyParameter(class, param) => s.why_parameter(&class, &param),
            Action::SetView(view) => s.view = view,
            Action::SetTab(tab) => {
                s.tab = tab;
                s.fill_tabs();
            }
            // The answers on show are pinned as they are: nothing changed since.
            Action::PinFleet(pin) => {
                s.fleet_pin = pin.then(|| s.fleet.as_ref().map(|f| Same::new(f.table.clone()))).flatten();
                s.fleet = s.fleet.as_ref().map(|f| {
                    let (table, environments, scopes) = (f.table.clone(), f.environments.clone(), f.scopes.clone());
                    Same::new(Fleet { table, environments, scopes, pinned: s.fleet_pin.clone(), changes: Vec::new() })
                });
            }
            Action::ShowReport(open) => s.report_open = open,
            Action::ShowEyaml(open) => s.eyaml = open.then(|| s.eyaml.clone().unwrap_or_default()),
            Action::Eyaml(event) => s.eyaml_did(event),
            Action::ShareLink(link) => s.share_link = link,
            Action::Examples(examples) => s.examples = Rc::new(examples),
            Action::SetTheme(theme) => s.theme = theme.into(),
            Action::Dismiss => s.notice = None,
        }
        if s.open_file != self.open_file || s.revision != self.revision {
            s.note_problems();
        }
        Rc::new(s)
    }
}

/// The reducer on its own, natively: one test a family of actions.
#[cfg(test)]
mod tests {
    use super::*;

    /// The welcome example, already a work of the visitor's (so that an
    /// edit needs no new work id, which the browser makes).
    fn welcome() -> Rc<State> {
        let doc = Document::from_yaml(include_str!("../../www/examples/00-welcome.yaml")).unwrap();
        let mut state = State::new(doc);
        state.work = Some("work".into());
        state.chunks = crate::chunks::all_now();
        Rc::new(state)
    }

    fn act(state: &Rc<State>, action: Action) -> Rc<State> {
        state.clone().reduce(action)
    }

    /// Lookup `i`'s value as JSON, or its error.
    fn answer(state: &State, i: usize) -> String {
        match &state.results[i].outcome {
            Outcome::Found(r) => r.json.clone(),
            Outcome::Failed { message, .. } => message.clone(),
        }
    }

    #[test]
    fn a_document_opens_at_its_first_file_and_lookup_and_an_embed_takes_its_file_and_lookup() {
        let state = welcome();
        assert_eq!((state.open_file.as_deref(), state.selected), (Some("hiera.yaml"), Some(0)));
        assert_eq!(answer(&state, 0), "8080");
        let mut embed = (*state).clone();
        embed.view = View::Embed {
            readonly: false,
            compact: false,
            file: Some("data/common.yaml".into()),
            lookup: Some(2),
            waiting: true,
        };
        let doc = state.document().clone();
        let embed = Rc::new(embed);
        // A document that cannot be read is said, not waited for.
        let told = act(&embed, Action::Notify(Notice { text: "bad".into(), error: true }));
        assert!(matches!(told.view, View::Embed { waiting: false, .. }));
        let loaded = act(&embed, Action::Load(doc));
        assert!(matches!(loaded.view, View::Embed { waiting: false, .. }));
        assert_eq!((loaded.open_file.as_deref(), loaded.selected), (Some("data/common.yaml"), Some(2)));
    }

    #[test]
    fn an_edit_changes_the_answers_and_a_new_file_leaves_the_editor_where_it_was() {
        let state = act(&welcome(), Action::OpenFile("data/nodes/web01.example.com.yaml".into()));
        let edited = act(&state, Action::EditFile("profile::web::port: 9090\n".into()));
        assert_eq!(answer(&edited, 0), "9090");
        assert!(edited.edited && edited.revision > state.revision);
        assert!(*edited != *state);
        let before = state.open_text().unwrap();
        assert!(
            before.contains("8080") && !before.contains("9090"),
            "a state from before keeps its document: {before}"
        );
        assert_eq!(answer(&state, 0), "8080", "and its answers");
        let tools = act(&edited, Action::ShowEyaml(true));
        let keys = act(&tools, Action::Eyaml(Eyaml::KeysMade(Ok(("private".into(), "public".into())))));
        assert_eq!(keys.open_file.as_deref(), Some("data/nodes/web01.example.com.yaml"));
        assert!(keys.document().files.contains(&(PRIVATE_KEY.into(), "private".into())));
        let renamed = act(&keys, Action::Rename("data/nodes/".into(), "data/hosts/".into()));
        assert_eq!(renamed.open_file.as_deref(), Some("data/hosts/web01.example.com.yaml"));
        assert_eq!(answer(&renamed, 0), "80", "the per-node level no longer finds the file");
    }

    #[test]
    fn lookups_are_added_changed_pinned_and_removed() {
        let state = welcome();
        let count = state.document().lookups.len();
        let added = act(&state, Action::AddLookup);
        assert_eq!(added.document().lookups.len(), count + 1);
        let mut lookup = added.document().lookups[count].clone();
        lookup.keys = vec!["profile::base::motd".into()];
        let changed = act(&added, Action::UpdateLookup(count, lookup));
        assert_eq!(answer(&changed, count), "\"Managed by Puppet on Debian 12\"");
        let pinned = act(&changed, Action::Pin(count, true));
        assert_eq!(pinned.results[count].expectation, Some(Ok(())));
        let selected = act(&pinned, Action::Select(count));
        assert!(Rc::ptr_eq(&act(&selected, Action::Select(count)), &selected), "selecting again changes nothing");
        let removed = act(&selected, Action::RemoveLookup(count));
        assert_eq!((removed.document().lookups.len(), removed.selected), (count, None));
    }

    #[test]
    fn the_node_s_facts_and_name_change_the_answers() {
        let state = welcome();
        let redhat =
            act(&state, Action::SetFacts("role: web\nos:\n  family: RedHat\n  release:\n    major: '9'\n".into()));
        assert_eq!(answer(&redhat, 4), "\"Managed by Puppet on RedHat 9\"");
        let renamed = act(&state, Action::SetNode("web02.example.com".into()));
        assert_eq!(answer(&renamed, 0), "80", "web02 has no per-node file");
        let bad = act(&state, Action::SetFacts("os: [".into()));
        assert!(bad.facts_error.is_some() && answer(&bad, 0) == "8080", "bad facts keep the last good ones");
    }

    #[test]
    fn all_keys_are_resolved_while_their_tab_is_shown_and_again_after_an_edit() {
        let state = welcome();
        assert!(state.resolved.is_none());
        let shown = act(&state, Action::SetTab(Tab::AllKeys));
        let keys = shown.resolved.clone().expect("resolved while shown");
        assert!(keys
            .iter()
            .any(|(key, value, _)| key == "profile::web::port" && value.as_ref().unwrap().json == "8080"));
        let opened = act(&shown, Action::OpenFile("data/common.yaml".into()));
        let edited = act(&opened, Action::EditFile("profile::extra: 1\n".into()));
        assert!(edited.resolved.as_ref().is_some_and(|k| k.iter().any(|(key, ..)| key == "profile::extra")));
        assert!(act(&edited, Action::SetTab(Tab::Why)).resolved.is_none());
    }

    #[test]
    fn nodes_are_answered_while_their_tab_is_shown_and_a_pin_tells_what_an_edit_changed() {
        let shown = act(&welcome(), Action::SetTab(Tab::Nodes));
        let facts = shown.facts_text.to_string();
        // A taken name gets a number on its host part.
        let added = act(&shown, Action::AddNode("web01.example.com".into(), None, facts));
        let fleet = added.fleet.clone().expect("answered while shown");
        assert_eq!(fleet.table.nodes, ["web01.example.com", "web01-2.example.com"]);
        assert_eq!(fleet.table.answers[0].iter().map(ToString::to_string).collect::<Vec<_>>(), ["8080", "80"]);
        let pinned = act(&added, Action::PinFleet(true));
        let opened = act(&pinned, Action::OpenFile("data/common.yaml".into()));
        let common = opened.open_text().unwrap().replace("profile::web::port: 80", "profile::web::port: 81");
        let edited = act(&opened, Action::EditFile(common));
        let changes: Vec<String> = edited.fleet.as_ref().unwrap().changes.iter().map(ToString::to_string).collect();
        assert_eq!(changes, ["web01-2.example.com profile::web::port: 80 -> 81"]);
        assert!(act(&edited, Action::PinFleet(false)).fleet.as_ref().unwrap().changes.is_empty());
        assert!(act(&edited, Action::SetTab(Tab::Why)).fleet.is_none());
    }

    #[test]
    fn classes_are_bound_after_every_edit_and_a_parameter_opens_why_with_its_type() {
        let doc = Document::from_yaml(
            "files:\n  hiera.yaml: \"version: 5\\n\"\n  data/common.yaml: \"web::port: '8080'\\n\"\n  modules/web/manifests/init.pp: \"class web (Integer $port = 80) { }\\n\"\n",
        )
        .unwrap();
        let mut state = State::new(doc);
        state.work = Some("work".into());
        let state = Rc::new(state);
        let web = &state.classes[0];
        assert_eq!(web.binding.class, "web");
        assert_eq!(
            web.binding.parameters[0].mismatch.as_deref(),
            Some("parameter 'port' expects an Integer value, got String")
        );
        // The quoted value is marked where it is written.
        let data = act(&state, Action::OpenFile("data/common.yaml".into()));
        assert!(data.markers().iter().any(|m| m.line == 1 && m.message.contains("expects an Integer value")));
        let fixed = act(&data, Action::EditFile("web::port: 8080\n".into()));
        assert!(fixed.classes[0].binding.error.is_none());
        assert!(fixed.markers().is_empty());
        // Where a passing value came from is found while Classes is on show.
        assert!(fixed.classes[0].sources[0].is_empty());
        let shown = act(&fixed, Action::SetTab(Tab::Classes));
        assert_eq!(shown.classes[0].sources[0][0].line, Some(1));
        let why = act(&fixed, Action::WhyParameter("web".into(), "port".into()));
        assert_eq!((why.tab, why.selected), (Tab::Why, Some(0)));
        assert_eq!(why.document().lookups[0].keys, ["web::port"]);
        assert_eq!(why.document().lookups[0].value_type.as_deref(), Some("Integer"));
        assert_eq!(answer(&why, 0), "8080");
        // Asked again, the same lookup is shown rather than another added.
        let again = act(&act(&why, Action::SetTab(Tab::Classes)), Action::WhyParameter("web".into(), "port".into()));
        assert_eq!(again.document().lookups.len(), 1);
    }

    #[test]
    fn the_data_is_reviewed_while_review_is_shown_and_again_after_an_edit() {
        let state = Rc::new(State { chunks: Chunks::default(), ..(*welcome()).clone() });
        assert!(state.review.is_none());
        // The review's code is fetched the first time its tab is shown.
        let asked = act(&state, Action::SetTab(Tab::Review));
        assert_eq!(asked.wanted_code(), Some(Feature::Review));
        assert!(asked.review.is_none());
        let shown = act(&asked, Action::Fetched(Chunk::Review(crate::chunks::all_now().review.unwrap())));
        assert_eq!(shown.wanted_code(), None);
        let files = |s: &State| -> Vec<String> {
            s.review.as_ref().expect("reviewed while shown").findings.iter().map(|f| f.file.clone()).collect()
        };
        let before = files(&shown);
        let added = act(&shown, Action::CreateFile("data/roles/mail.yaml".into()));
        let after = files(&added);
        assert!(!before.contains(&"data/roles/mail.yaml".to_string()));
        assert!(after.contains(&"data/roles/mail.yaml".to_string()), "no node reads the new role's file: {after:?}");
        assert!(act(&added, Action::SetTab(Tab::Why)).review.is_none());
    }

    #[test]
    fn a_lesson_is_checked_as_it_is_edited_its_hints_and_solution_shown_and_its_pass_kept() {
        let text = include_str!("../../www/lessons/01-first-found.yaml");
        let (doc, lesson) = hiera_core::lesson::Lesson::from_yaml(text).unwrap();
        let lessons = vec!["01-first-found.yaml".into(), "02-facts-in-paths.yaml".into()];
        let started = act(&welcome(), Action::StartLesson { lessons, at: 0, lesson, doc, passed: Vec::new() });
        let tour = started.tour.clone().expect("the tour is open");
        assert_eq!((tour.checks.len(), tour.done()), (3, false));
        assert_eq!(started.view, View::Example, "beside the work");
        // Edits make it a work, whose id comes from the browser's clock, which native tests have not.
        let as_work = |state: &Rc<State>| {
            let mut state = (**state).clone();
            state.work = Some("work".into());
            Rc::new(state)
        };
        let started = as_work(&started);
        let hinted = act(&act(&started, Action::Hint), Action::Hint);
        assert_eq!(hinted.tour.as_ref().unwrap().hints, 2);
        // The learner's own answer passes as the solution does.
        let created = act(&hinted, Action::CreateFile("data/nodes/web01.example.com.yaml".into()));
        let typed = act(&created, Action::EditFile("profile::web::port: 8443\n".into()));
        let tour = typed.tour.clone().unwrap();
        assert!(tour.done(), "{:?}", tour.checks);
        assert_eq!(*tour.passed, ["01-first-found.yaml"]);
        // Started over, the checks fail again and the pass is kept.
        let again = act(&typed, Action::RestartLesson);
        let tour = again.tour.clone().unwrap();
        assert!(!tour.done() && tour.hints == 0);
        assert_eq!(*tour.passed, ["01-first-found.yaml"]);
        assert!(act(&as_work(&again), Action::ShowSolution).tour.as_ref().unwrap().done());
        assert!(act(&again, Action::CloseTour).tour.is_none());
        assert!(act(&again, Action::Load(Document::blank())).tour.is_none(), "another document ends the lesson");
    }

    #[test]
    fn a_minimal_example_of_a_lookup_opens_beside_the_work_with_report_it() {
        // Its code is fetched when first asked for; the example is made when it comes.
        let state = Rc::new(State { chunks: Chunks::default(), ..(*welcome()).clone() });
        let size = state.document().to_yaml().len();
        let asked = act(&state, Action::ShareMinimal(0));
        assert_eq!((asked.wanted_code(), asked.view.clone()), (Some(Feature::Reduce), View::Work));
        let all = crate::chunks::all_now();
        let minimal = act(&asked, Action::Fetched(Chunk::Reduce(all.reduce.unwrap())));
        // Report it's code is asked for next.
        assert_eq!(minimal.wanted_code(), Some(Feature::Report));
        assert_eq!((minimal.view.clone(), minimal.report_open), (View::Shared, true));
        assert_eq!(minimal.mine.as_deref(), Some("work"), "the work is kept to go back to");
        assert!(minimal.document().to_yaml().len() < size / 2, "{:?}", minimal.document().files);
        assert!(
            !minimal.document().files.iter().any(|(_, t)| t.contains("vhosts")),
            "keys no lookup of it reads are gone"
        );
        assert_eq!(minimal.document().lookups.len(), 1);
        assert_eq!(answer(&minimal, 0), answer(&state, 0));
        assert!(minimal.notice.as_ref().unwrap().text.contains("Left out: "));
    }

    #[test]
    fn report_it_answers_with_the_page_s_engine_and_leaves_private_keys_out_unless_asked() {
        let state = welcome();
        let (markdown, script) = state.report("https://example.org/");
        assert!(markdown.contains("**`puppet lookup "), "{markdown}");
        assert!(markdown.contains("8080"), "{markdown}");
        assert!(script.contains("https://example.org/embed.js"), "{script}");
        let key = "-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----\n";
        let tools = act(&state, Action::ShowEyaml(true));
        let keyed = act(&tools, Action::Eyaml(Eyaml::KeysMade(Ok((key.into(), "certificate".into())))));
        assert!(!keyed.report("").0.contains("PRIVATE KEY"), "left out by default");
        let included = act(&keyed, Action::IncludePrivateKeys(true));
        assert!(included.report("").0.contains("PRIVATE KEY"), "included when asked");
    }

    #[test]
    fn the_eyaml_tools_make_keys_where_eyaml_does_encrypt_and_say_what_failed() {
        let closed = welcome();
        assert_eq!(act(&closed, Action::Eyaml(Eyaml::MakingKeys)).eyaml, None, "closed tools take nothing");
        let open = act(&closed, Action::ShowEyaml(true));
        let making = act(&open, Action::Eyaml(Eyaml::MakingKeys));
        assert!(making.eyaml.as_ref().unwrap().making_keys);
        let failed = act(&making, Action::Eyaml(Eyaml::KeysMade(Err("no WebCrypto".into()))));
        assert!(!failed.eyaml.as_ref().unwrap().making_keys);
        assert_eq!(
            failed.notice.as_ref().map(|n| (n.text.as_str(), n.error)),
            Some(("Could not make a key pair: no WebCrypto", true))
        );
        assert_eq!(failed.document().files, open.document().files);
        assert_eq!(failed.eyaml_certificate(), None);

        let certificate = |name: &str| format!("-----BEGIN CERTIFICATE-----\n{name}\n-----END CERTIFICATE-----\n");
        let other = act(&failed, Action::CreateFile("certs/other.pem".into()));
        let other = act(&other, Action::EditFile(certificate("other")));
        assert_eq!(other.eyaml_certificate().map(|c| c.0), Some("certs/other.pem".into()), "the only one");
        let made = act(&other, Action::Eyaml(Eyaml::KeysMade(Ok(("private".into(), certificate("made"))))));
        assert_eq!(made.eyaml_certificate().map(|c| c.0), Some(PUBLIC_KEY.into()), "where eyaml writes it first");
        assert_eq!(made.open_file.as_deref(), Some("certs/other.pem"));

        let encrypted = act(&made, Action::Eyaml(Eyaml::Encrypted(Ok("ENC[PKCS7,x]".into()))));
        assert_eq!(encrypted.eyaml.as_ref().unwrap().block.as_deref(), Some("ENC[PKCS7,x]"));
        let refused = act(&encrypted, Action::Eyaml(Eyaml::Encrypted(Err("bad certificate".into()))));
        assert_eq!(refused.notice.as_ref().unwrap().text, "Could not encrypt: bad certificate");
        assert_eq!(refused.eyaml.as_ref().unwrap().block.as_deref(), Some("ENC[PKCS7,x]"), "the last block stays");
        assert_eq!(act(&refused, Action::ShowEyaml(false)).eyaml, None);
    }
}
