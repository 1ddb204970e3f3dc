//! Code the first download leaves out. Each `*_code` function here is a
//! split point: in the page's build (the `split` feature, `web/js/app.mjs`),
//! wasm-split-cli cuts it, with every function only it reaches, into a
//! module of its own (`split_NAME.wasm`), fetched the first time a view needs
//! it, or in the background soon after the page is drawn
//! ([`use_chunks`](crate::hooks::use_chunks)). What it hands back is plain function pointers into that module, which
//! the reducer keeps ([`State::chunks`](crate::state::State)): the one engine
//! and the one state stay in the first module, and a view fetched later
//! draws what the reducer holds, as every other view does. Without the
//! feature (tests, `cargo check`), the code is called in place.

use hiera_core::case::{CaseLookup, Document};
use hiera_core::fleet::{Change, Table};
use hiera_core::lesson::{Checked, Lesson};
use hiera_core::playground::{Playground, ResolvedKey, Scopes};
use hiera_core::reduce::Reduced;
use hiera_core::review::Review;
use yew::prelude::*;

use crate::components::all_keys::AllKeysProps;
use crate::components::classes::ClassesProps;
use crate::components::explain::ExplainProps;
use crate::components::eyaml::EyamlProps;
use crate::components::nodes::NodesProps;
use crate::components::report::ReportProps;
use crate::components::review::ReviewProps;
use crate::components::tour::TourProps;

/// A module that could not be fetched (the page is offline, or was
/// deployed again since it was opened).
#[derive(Debug)]
pub struct LoadError;

#[cfg(feature = "split")]
impl From<wasm_split_helpers::SplitLoaderError> for LoadError {
    fn from(_: wasm_split_helpers::SplitLoaderError) -> Self {
        LoadError
    }
}

/// Calls a split point: fetches its module the first time.
macro_rules! fetch {
    ($code:ident) => {{
        #[cfg(feature = "split")]
        let code = $code().await;
        #[cfg(not(feature = "split"))]
        let code = $code();
        code
    }};
}

/// The Review tab's code.
#[derive(Clone, Copy)]
pub struct ReviewCode {
    /// Reviews the engine's document (`Playground::review`).
    pub review: fn(&mut Playground) -> Review,
    /// Draws a review.
    pub view: fn(ReviewProps) -> Html,
}

#[cfg_attr(feature = "split", wasm_split_helpers::wasm_split(review, fallible))]
fn review_code() -> Result<ReviewCode, LoadError> {
    Ok(ReviewCode { review: Playground::review, view: |props| html! { <crate::components::review::Review ..props /> } })
}

/// The Nodes tab's code.
#[derive(Clone, Copy)]
pub struct NodesCode {
    /// Every node's answers, and the variables their paths read
    /// (`Playground::fleet_and_scopes`).
    pub answer: fn(&mut Playground) -> (Table, Scopes),
    /// What changed from the pinned answers to these (`Table::changes`).
    pub changes: fn(&Table, &Table) -> Vec<Change>,
    /// Draws the answers.
    pub view: fn(NodesProps) -> Html,
}

#[cfg_attr(feature = "split", wasm_split_helpers::wasm_split(nodes, fallible))]
fn nodes_code() -> Result<NodesCode, LoadError> {
    Ok(NodesCode {
        answer: Playground::fleet_and_scopes,
        changes: Table::changes,
        view: |props| html! { <crate::components::nodes::Nodes ..props /> },
    })
}

/// The All keys tab's code.
#[derive(Clone, Copy)]
pub struct AllKeysCode {
    /// Every key the node resolves (`Playground::resolved_keys`).
    pub resolve: fn(&Playground) -> Vec<ResolvedKey>,
    /// Draws them.
    pub view: fn(AllKeysProps) -> Html,
}

#[cfg_attr(feature = "split", wasm_split_helpers::wasm_split(all_keys, fallible))]
fn all_keys_code() -> Result<AllKeysCode, LoadError> {
    Ok(AllKeysCode {
        resolve: Playground::resolved_keys,
        view: |props| html! { <crate::components::all_keys::AllKeys ..props /> },
    })
}

/// The Explain tab's code: its tree and `puppet lookup --explain`'s text.
#[derive(Clone, Copy)]
pub struct ExplainCode {
    /// Draws the selected lookup's explanation.
    pub view: fn(ExplainProps) -> Html,
}

#[cfg_attr(feature = "split", wasm_split_helpers::wasm_split(explain, fallible))]
fn explain_code() -> Result<ExplainCode, LoadError> {
    Ok(ExplainCode { view: |props| html! { <crate::components::explain::Explain ..props /> } })
}

/// The Classes tab's code: its tables (the classes are bound in the first
/// module: their marks are in the data files).
#[derive(Clone, Copy)]
pub struct ClassesCode {
    /// Draws the bound classes.
    pub view: fn(ClassesProps) -> Html,
}

#[cfg_attr(feature = "split", wasm_split_helpers::wasm_split(classes, fallible))]
fn classes_code() -> Result<ClassesCode, LoadError> {
    Ok(ClassesCode { view: |props| html! { <crate::components::classes::Classes ..props /> } })
}

/// The tour's code: a lesson read, checked, and its panel.
#[derive(Clone, Copy)]
pub struct TourCode {
    /// Reads a lesson's file (`Lesson::from_yaml`).
    pub read: fn(&str) -> Result<(Document, Lesson), String>,
    /// Checks the lesson against the document as it started and the
    /// engine as it is (`Lesson::check`).
    pub check: fn(&Lesson, &Document, &Playground) -> Vec<Checked>,
    /// Draws the lesson's panel.
    pub view: fn(TourProps) -> Html,
}

#[cfg_attr(feature = "split", wasm_split_helpers::wasm_split(tour, fallible))]
fn tour_code() -> Result<TourCode, LoadError> {
    Ok(TourCode {
        read: |text| Lesson::from_yaml(text).map_err(|e| e.to_string()),
        check: Lesson::check,
        view: |props| html! { <crate::components::tour::TourPanel ..props /> },
    })
}

/// "Share a minimal example"'s code.
#[derive(Clone, Copy)]
pub struct ReduceCode {
    /// The smallest document that gives the lookups the same answers
    /// (`hiera_core::reduce::reduce`).
    pub reduce: fn(&Document, &[CaseLookup], bool) -> Reduced,
}

#[cfg_attr(feature = "split", wasm_split_helpers::wasm_split(reduce, fallible))]
fn reduce_code() -> Result<ReduceCode, LoadError> {
    Ok(ReduceCode { reduce: hiera_core::reduce::reduce })
}

/// "Report it"'s code: its panel.
#[derive(Clone, Copy)]
pub struct ReportCode {
    /// Draws the panel.
    pub view: fn(ReportProps) -> Html,
}

#[cfg_attr(feature = "split", wasm_split_helpers::wasm_split(report, fallible))]
fn report_code() -> Result<ReportCode, LoadError> {
    Ok(ReportCode { view: |props| html! { <crate::components::report::Report ..props /> } })
}

/// The eyaml tools' code: their panel (the crypto is the backends module's).
#[derive(Clone, Copy)]
pub struct EyamlCode {
    /// Draws the panel.
    pub view: fn(EyamlProps) -> Html,
}

#[cfg_attr(feature = "split", wasm_split_helpers::wasm_split(eyaml, fallible))]
fn eyaml_code() -> Result<EyamlCode, LoadError> {
    Ok(EyamlCode { view: |props| html! { <crate::components::eyaml::EyamlPanel ..props /> } })
}

/// The plumbing of the features below: which code each is, how it is
/// fetched, and where the reducer keeps it.
macro_rules! features {
    ($($feature:ident, $field:ident: $code:ty = $split:ident, $what:literal;)*) => {
        /// A module of code, by what it is for.
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub enum Feature {
            $(#[doc = concat!("The code of ", $what, ".")] $feature,)*
        }

        impl Feature {
            /// Every feature.
            pub const ALL: &[Feature] = &[$(Feature::$feature),*];

            /// What it is, for the user.
            pub fn what(self) -> &'static str {
                match self {
                    $(Feature::$feature => $what,)*
                }
            }
        }

        /// A module's code, fetched.
        #[derive(Clone, Copy)]
        pub enum Chunk {
            $(#[doc = concat!("The code of ", $what, ".")] $feature($code),)*
        }

        impl Chunk {
            /// What the code is for.
            pub fn feature(&self) -> Feature {
                match self {
                    $(Chunk::$feature(_) => Feature::$feature,)*
                }
            }
        }

        /// Fetches `feature`'s code.
        pub async fn fetch(feature: Feature) -> Result<Chunk, LoadError> {
            Ok(match feature {
                $(Feature::$feature => Chunk::$feature(fetch!($split)?),)*
            })
        }

        /// The code fetched so far.
        #[derive(Clone, Copy, Default)]
        pub struct Chunks {
            $(#[doc = concat!("The code of ", $what, ".")] pub $field: Option<$code>,)*
        }

        impl Chunks {
            /// Keeps `chunk`.
            pub fn add(&mut self, chunk: Chunk) {
                match chunk {
                    $(Chunk::$feature(code) => self.$field = Some(code),)*
                }
            }

            /// Whether `feature`'s code is here.
            pub fn has(&self, feature: Feature) -> bool {
                match feature {
                    $(Feature::$feature => self.$field.is_some(),)*
                }
            }
        }

        /// Every feature's code, in place, for the reducer's tests.
        #[cfg(test)]
        pub fn all_now() -> Chunks {
            Chunks { $($field: Some($split().expect("in place, the code is there")),)* }
        }
    };
}

features! {
    Review, review: ReviewCode = review_code, "the Review tab";
    Nodes, nodes: NodesCode = nodes_code, "the Nodes tab";
    AllKeys, all_keys: AllKeysCode = all_keys_code, "the All keys tab";
    Explain, explain: ExplainCode = explain_code, "the Explain tab";
    Classes, classes: ClassesCode = classes_code, "the Classes tab";
    Tour, tour: TourCode = tour_code, "the tour";
    Reduce, reduce: ReduceCode = reduce_code, "the minimal example";
    Report, report: ReportCode = report_code, "Report it";
    Eyaml, eyaml: EyamlCode = eyaml_code, "the eyaml tools";
}

/// A build has one code of each kind: two `Chunks` holding the same kinds
/// are equal.
impl PartialEq for Chunks {
    fn eq(&self, other: &Self) -> bool {
        Feature::ALL.iter().all(|&feature| self.has(feature) == other.has(feature))
    }
}
