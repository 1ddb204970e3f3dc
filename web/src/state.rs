//! The page's state and its one reducer.

use std::rc::Rc;

use hiera_core::config::HieraConfig;
use yew::prelude::*;

use crate::components::editor::Marker;

/// The file Hiera reads its configuration from.
const CONFIG_PATH: &str = "hiera.yaml";

/// One file of the example being edited.
#[derive(Clone, Debug, PartialEq)]
pub struct File {
    pub path: AttrValue,
    pub text: AttrValue,
}

/// What the engine made of `hiera.yaml`, kept to what the page shows.
#[derive(Clone, Debug, PartialEq)]
pub enum Config {
    Parsed {
        version: u32,
        levels: Vec<AttrValue>,
    },
    Invalid(Problem),
}

/// An engine error, with its position when the engine knows it (1-based).
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub path: AttrValue,
    pub message: AttrValue,
    pub line: Option<usize>,
    pub column: Option<usize>,
}

/// Everything the page shows.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub files: Vec<File>,
    /// Index in `files` of the file in the editor.
    pub active: usize,
    pub config: Rc<Config>,
}

/// What the user can do.
pub enum Action {
    /// Show the file at this index in the editor.
    Select(usize),
    /// The editor's file now has this text.
    Edit(String),
}

impl State {
    /// Opens an example given as (path, text) pairs, its first file in the editor.
    pub fn new(example: &[(&str, &str)]) -> Self {
        let files = example
            .iter()
            .map(|&(path, text)| File {
                path: path.into(),
                text: text.into(),
            })
            .collect();
        Self::with_files(files, 0)
    }

    fn with_files(files: Vec<File>, active: usize) -> Self {
        let config = Rc::new(parse_config(&files));
        Self {
            files,
            active,
            config,
        }
    }

    /// The file in the editor.
    pub fn active_file(&self) -> &File {
        &self.files[self.active]
    }

    /// Every file's path, in order.
    pub fn paths(&self) -> Vec<AttrValue> {
        self.files.iter().map(|file| file.path.clone()).collect()
    }

    /// The engine's complaints about the file in the editor, where it can point at them.
    pub fn markers(&self) -> Vec<Marker> {
        match &*self.config {
            Config::Invalid(problem) if problem.path == self.active_file().path => problem
                .line
                .map(|line| Marker {
                    line,
                    column: problem.column.unwrap_or(1),
                    message: problem.message.clone(),
                })
                .into_iter()
                .collect(),
            _ => Vec::new(),
        }
    }
}

fn parse_config(files: &[File]) -> Config {
    let text = files
        .iter()
        .find(|file| file.path == CONFIG_PATH)
        .map_or("", |file| file.text.as_str());
    match HieraConfig::parse(CONFIG_PATH, text) {
        Ok(config) => Config::Parsed {
            version: config.version,
            levels: config
                .hierarchy
                .into_iter()
                .map(|level| level.name.into())
                .collect(),
        },
        Err(error) => Config::Invalid(Problem {
            path: error
                .file
                .clone()
                .unwrap_or_else(|| CONFIG_PATH.into())
                .into(),
            message: error.to_string().into(),
            line: error.line,
            column: error.column,
        }),
    }
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        match action {
            Action::Select(index) if index < self.files.len() => Rc::new(Self {
                active: index,
                ..(*self).clone()
            }),
            Action::Select(_) => self,
            Action::Edit(text) => {
                let mut files = self.files.clone();
                files[self.active].text = text.into();
                Rc::new(Self::with_files(files, self.active))
            }
        }
    }
}
