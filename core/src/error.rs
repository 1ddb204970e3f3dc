//! Errors as values: every failure a lookup can meet, worded as Puppet words it.

use std::fmt;

/// How Puppet classifies an error, which decides what `--explain` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A `Puppet::DataBinding::LookupError`: the lookup failed, and the
    /// explanation ends with the message.
    Lookup,
    /// A `Puppet::Error` outside a data provider (a bad hiera.yaml type, a
    /// bad merge): `puppet lookup` fails hard and prints no explanation.
    Puppet,
    /// No key was found: `Function lookup() did not find a value...`, a
    /// lookup error that `puppet lookup` reports with exit status 1.
    NotFound,
    /// Any other Ruby error (an invalid regexp, a failed sort): also hard,
    /// and not turned into a lookup error by a data provider.
    Runtime,
}

/// An error from loading, configuring or looking up.
#[derive(Clone, Debug, PartialEq)]
pub struct Error {
    /// Puppet's message, including any ` (file: ..., line: ...)` suffix.
    pub message: String,
    /// How Puppet classifies it.
    pub kind: ErrorKind,
    /// True when Puppet attaches an issue code (its own validation errors),
    /// which keeps it from being wrapped as "Lookup of key ... failed".
    pub has_issue_code: bool,
    /// The file it is about, if any.
    pub file: Option<String>,
    /// 1-based line in that file, if known.
    pub line: Option<usize>,
    /// 1-based column in that file, if known.
    pub column: Option<usize>,
}

impl Error {
    /// A lookup error with Puppet's message.
    pub fn lookup(message: impl Into<String>) -> Error {
        Error {
            message: message.into(),
            kind: ErrorKind::Lookup,
            has_issue_code: false,
            file: None,
            line: None,
            column: None,
        }
    }

    /// A hard `Puppet::Error`.
    pub fn puppet(message: impl Into<String>) -> Error {
        Error { kind: ErrorKind::Puppet, ..Error::lookup(message) }
    }

    /// A Ruby runtime error (ArgumentError, RegexpError...).
    pub fn runtime(message: impl Into<String>) -> Error {
        Error { kind: ErrorKind::Runtime, ..Error::lookup(message) }
    }

    /// A lookup error raised through one of Puppet's issues, located in a file
    /// (and line) the way Puppet appends the location to the message.
    pub fn issue(message: impl Into<String>, file: Option<&str>, line: Option<usize>) -> Error {
        let message = message.into();
        let message = match (file, line) {
            (Some(f), Some(l)) => format!("{message} (file: {f}, line: {l})"),
            (Some(f), None) => format!("{message} (file: {f})"),
            (None, Some(l)) => format!("{message} (line: {l})"),
            (None, None) => message,
        };
        Error {
            message,
            kind: ErrorKind::Lookup,
            has_issue_code: true,
            file: file.map(str::to_string),
            line,
            column: None,
        }
    }

    /// Records where in a file the error is, without changing the message.
    pub fn at(mut self, file: &str, line: Option<usize>, column: Option<usize>) -> Error {
        self.file = Some(file.to_string());
        self.line = line;
        self.column = column;
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}
