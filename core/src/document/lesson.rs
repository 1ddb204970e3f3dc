//! A lesson of the tour: a document in the case format with a `lesson:`
//! section (FORMAT.md): what to read, a task, the checks that tell whether
//! the task is done, hints, and a solution. The checks are answered by the
//! engine the document is shown with, so that a lesson passes exactly when
//! Puppet would answer as the task asks.

use crate::case::{CaseLookup, Document};
use crate::document::playground::Playground;
use crate::error::Error;
use crate::value::{Str, Value};

/// A lesson: its words, its checks, its hints and its solution.
#[derive(Clone, Debug, PartialEq)]
pub struct Lesson {
    /// Its title.
    pub title: String,
    /// What it teaches, paragraphs apart by blank lines.
    pub text: String,
    /// What the learner is asked to do.
    pub task: String,
    /// What must hold once the task is done.
    pub checks: Vec<Check>,
    /// Hints, shown one at a time.
    pub hints: Vec<String>,
    /// The files the solution changes (path, text).
    pub solution: Vec<(String, String)>,
}

/// Something a lesson's task must make true.
#[derive(Clone, Debug, PartialEq)]
pub enum Check {
    /// The lookup (with its merge, default, type) answers as `expect:` says.
    Answer(CaseLookup),
    /// The file is as the lesson began.
    Unchanged(String),
    /// The file holds this text (`%{facts.os.family}`, say): what the task
    /// asks to be written so, and not only to give an answer.
    Contains {
        /// The file.
        file: String,
        /// The text.
        text: String,
    },
    /// The lookup's value was decrypted from an eyaml block.
    Encrypted(String),
    /// The lookup's value comes (in part) from this hierarchy level.
    Level {
        /// The key looked up.
        key: String,
        /// The level's name.
        level: String,
    },
}

/// A check as the page shows it: what it asks, and whether it holds now.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    /// What the check asks, in words.
    pub text: String,
    /// Whether it holds.
    pub passed: bool,
    /// Why not, when it does not.
    pub why: Option<String>,
}

impl Lesson {
    /// The lesson of a document's text, and the document as the lesson
    /// starts; an error when the text is no document or has no lesson.
    pub fn from_yaml(text: &str) -> Result<(Document, Lesson), Error> {
        let doc = Document::from_yaml(text)?;
        let top = match crate::formats::yaml::load(text) {
            Ok(Some((Value::Hash(top), _))) => top,
            _ => return Err(Error::lookup("lesson: expected a mapping")),
        };
        let Some(Value::Hash(lesson)) = top.get(&Str("lesson")) else {
            return Err(Error::lookup("lesson: the document has no 'lesson' mapping"));
        };
        let text = |k: &str| lesson.get(&Str(k)).map(Value::to_ruby_s).unwrap_or_default();
        let list = |k: &str| match lesson.get(&Str(k)) {
            Some(Value::Array(a)) => a.iter().collect::<Vec<_>>(),
            _ => Vec::new(),
        };
        let checks = list("checks").into_iter().map(check).collect::<Result<Vec<_>, _>>()?;
        let solution = match lesson.get(&Str("solution")) {
            Some(Value::Hash(h)) => h.iter().map(|(k, v)| (k.to_ruby_s(), v.to_ruby_s())).collect(),
            _ => Vec::new(),
        };
        let lesson = Lesson {
            title: text("title"),
            text: text("text"),
            task: text("task"),
            checks,
            hints: list("hints").into_iter().map(Value::to_ruby_s).collect(),
            solution,
        };
        Ok((doc, lesson))
    }

    /// Each check, and whether it holds for `now` (the lesson's document as
    /// edited, in its engine) against `start` (the document as the lesson
    /// began).
    pub fn check(&self, start: &Document, now: &Playground) -> Vec<Checked> {
        self.checks.iter().map(|c| c.run(start, now)).collect()
    }

    /// Whether every check holds.
    pub fn passed(&self, start: &Document, now: &Playground) -> bool {
        self.check(start, now).iter().all(|c| c.passed)
    }

    /// The lesson's document with the solution's files written into it.
    pub fn solved(&self, start: &Document) -> Document {
        let mut doc = start.clone();
        for (path, text) in &self.solution {
            match doc.files.iter_mut().find(|(p, _)| p == path) {
                Some((_, t)) => *t = text.as_str().into(),
                None => doc.files.push((path.clone(), text.as_str().into())),
            }
        }
        doc
    }
}

/// A check as the lesson writes it: `{answer: LOOKUP}` (a lookup with its
/// `expect:`), `{unchanged: PATH}`, `{contains: TEXT, file: PATH}`,
/// `{encrypted: KEY}` or `{level: NAME, key: KEY}`.
fn check(v: &Value) -> Result<Check, Error> {
    let Value::Hash(h) = v else { return Err(Error::lookup("lesson: each check must be a mapping")) };
    if let Some(lookup) = h.get(&Str("answer")) {
        let lookup = CaseLookup::from_value(lookup)?;
        if lookup.expect.is_none() {
            return Err(Error::lookup("lesson: an answer check needs its 'expect'"));
        }
        return Ok(Check::Answer(lookup));
    }
    if let Some(path) = h.get(&Str("unchanged")) {
        return Ok(Check::Unchanged(path.to_ruby_s()));
    }
    if let Some(key) = h.get(&Str("encrypted")) {
        return Ok(Check::Encrypted(key.to_ruby_s()));
    }
    if let (Some(text), Some(file)) = (h.get(&Str("contains")), h.get(&Str("file"))) {
        return Ok(Check::Contains { file: file.to_ruby_s(), text: text.to_ruby_s() });
    }
    if let (Some(level), Some(key)) = (h.get(&Str("level")), h.get(&Str("key"))) {
        return Ok(Check::Level { key: key.to_ruby_s(), level: level.to_ruby_s() });
    }
    Err(Error::lookup(
        "lesson: a check is 'answer', 'unchanged', 'contains' with 'file', 'encrypted', or 'level' with 'key'",
    ))
}

impl Check {
    fn run(&self, start: &Document, now: &Playground) -> Checked {
        let (text, result) = match self {
            Check::Answer(lookup) => {
                let text = match &lookup.expect {
                    Some(e) => format!("{} gives {}", lookup.key_label(), crate::case::describe(e)),
                    None => lookup.key_label(),
                };
                let expectation = now.evaluate(lookup, false).expectation.unwrap_or(Ok(()));
                (text, expectation.map_err(|m| m.0))
            }
            Check::Unchanged(path) => {
                let before = start.files.iter().find(|(p, _)| p == path).map(|(_, t)| t);
                let after = now.document().files.iter().find(|(p, _)| p == path).map(|(_, t)| t);
                let result = if before == after { Ok(()) } else { Err(format!("{path} was changed")) };
                (format!("{path} is as it was"), result)
            }
            Check::Contains { file, text } => {
                let holds = now.document().files.iter().any(|(p, t)| p == file && t.contains(text.as_str()));
                let result = if holds { Ok(()) } else { Err(format!("{file} does not have {text}")) };
                (format!("{file} has {text}"), result)
            }
            Check::Encrypted(key) => {
                let request = crate::Request { keys: vec![key.clone()], explain: true, ..Default::default() };
                let answer = now.hiera().lookup(&request);
                let steps = answer.explanation.as_ref().map(crate::document::steps::merge_steps).unwrap_or_default();
                let decrypted =
                    steps.iter().any(|s| s.decrypted && s.outcome == crate::document::steps::StepOutcome::Found);
                let result =
                    if decrypted { Ok(()) } else { Err(format!("{key} is not read from an ENC[PKCS7,...] block")) };
                (format!("{key} is kept encrypted (eyaml)"), result)
            }
            Check::Level { key, level } => {
                let request = crate::Request { keys: vec![key.clone()], explain: true, ..Default::default() };
                let answer = now.hiera().lookup(&request);
                let sources = answer.explanation.as_ref().map(|e| now.sources(e)).unwrap_or_default();
                let found: Vec<&str> = sources.iter().map(|s| s.level.as_str()).collect();
                let result = if found.contains(&level.as_str()) {
                    Ok(())
                } else if found.is_empty() {
                    Err(format!("{key} is found at no level"))
                } else {
                    Err(format!("{key} comes from {}", found.join(", ")))
                };
                (format!("{key} comes from the level \"{level}\""), result)
            }
        };
        let (passed, why) = match result {
            Ok(()) => (true, None),
            Err(why) => (false, Some(why)),
        };
        Checked { text, passed, why }
    }
}
