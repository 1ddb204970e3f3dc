//! HOCON, as `hocon_data` reads it: ruby-hocon 1.3.1's `Hocon.parse(text)`,
//! unwrapped to plain data. The reader (`parse`, with the `hocon` feature)
//! is behind [`Reader`], so that the page can fetch it only for documents
//! with a HOCON level.
//!
//! Written here rather than taken from a crate: the `hocon` crate resolves
//! includes and environment variables from the process, orders merged
//! objects its own way and words its errors its own way, where Puppet prints
//! ruby-hocon's (`String: 3: List should have had new element after a
//! comma...`) and returns hashes in ruby-hocon's order (a merged object lists
//! the later definition's keys first). A string has no place to include
//! from: `include "file"` and `include file(...)` include nothing, as in
//! ruby-hocon, and `url(...)` and `classpath(...)` fail as its includer
//! fails on them; a substitution falls back to no environment variables
//! (the engine has none). The tokenizer, the parser's messages and the
//! joining of concatenated values follow ruby-hocon 1.3.1's `Tokenizer`,
//! `ConfigDocumentParser`, `PathParser` and `ConfigConcatenation`, bugs
//! included (`[1] x` is `[1]`), since Puppet answers with them.

use crate::value::Hash;
use std::rc::Rc;

#[cfg(feature = "hocon")]
mod parse;
#[cfg(feature = "hocon")]
pub use parse::{parse, MAX_DEPTH};

/// A parse or resolve error: ruby-hocon's message and its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The message, without the `String: N: ` origin.
    pub message: String,
    /// The 1-based line it is about, or 0 where ruby-hocon gives the error
    /// no origin (a key's path with an empty element).
    pub line: usize,
    /// True when ruby-hocon fails with a Ruby error of its own rather than
    /// a `ConfigError` (an `include url(...)`: its includer has no such
    /// method): Puppet then prints the Ruby message alone, unwrapped, and
    /// no explanation.
    pub ruby: bool,
}

impl std::fmt::Display for Error {
    /// As ruby-hocon prints it for a parsed string: `String: LINE: MESSAGE`
    /// (a Ruby error, or one without an origin: its message).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.ruby || self.line == 0 {
            return f.write_str(&self.message);
        }
        write!(f, "String: {}: {}", self.line, self.message)
    }
}

impl std::error::Error for Error {}

/// What reads HOCON text for the engine.
pub trait Reader {
    /// The hash `Hocon.parse(text)` returns, or its error.
    fn parse(&self, text: &str) -> Result<Hash, Error>;
}

/// The reader built in with the `hocon` feature; `None` without it.
pub fn builtin() -> Option<Rc<dyn Reader>> {
    #[cfg(feature = "hocon")]
    return Some(Rc::new(Builtin));
    #[cfg(not(feature = "hocon"))]
    None
}

/// [`parse`] as a [`Reader`].
#[cfg(feature = "hocon")]
pub struct Builtin;

#[cfg(feature = "hocon")]
impl Reader for Builtin {
    fn parse(&self, text: &str) -> Result<Hash, Error> {
        parse(text)
    }
}

/// The message when no [`Reader`] is there to read with.
pub const NOT_LOADED: &str = "the HOCON reader is not loaded (yet)";
