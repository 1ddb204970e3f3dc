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
    /// The lookup made a value that cannot be printed (a string that is not
    /// UTF-8, which a `%c` format can make): `puppet lookup` prints the
    /// whole explanation, then fails on the value.
    Render,
}

/// An error from loading, configuring or looking up. It derefs to its
/// [`Details`]; they are boxed, as a lookup's result passes up many calls
/// and is far more often a value than an error.
#[derive(Clone, PartialEq)]
pub struct Error(Box<Details>);

/// What an [`Error`] says.
#[derive(Clone, Debug, PartialEq)]
pub struct Details {
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
        Error(Box::new(Details {
            message: message.into(),
            kind: ErrorKind::Lookup,
            has_issue_code: false,
            file: None,
            line: None,
            column: None,
        }))
    }

    /// A hard `Puppet::Error`.
    pub fn puppet(message: impl Into<String>) -> Error {
        Error::lookup(message).with_kind(ErrorKind::Puppet)
    }

    /// A Ruby runtime error (ArgumentError, RegexpError...).
    pub fn runtime(message: impl Into<String>) -> Error {
        Error::lookup(message).with_kind(ErrorKind::Runtime)
    }

    /// The message, taken out of the error.
    pub fn into_message(self) -> String {
        self.0.message
    }

    /// The same error, classified as `kind`.
    pub fn with_kind(mut self, kind: ErrorKind) -> Error {
        self.kind = kind;
        self
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
        Error(Box::new(Details {
            message,
            kind: ErrorKind::Lookup,
            has_issue_code: true,
            file: file.map(str::to_string),
            line,
            column: None,
        }))
    }

    /// Records where in a file the error is, without changing the message.
    pub fn at(mut self, file: &str, line: Option<usize>, column: Option<usize>) -> Error {
        self.file = Some(file.to_string());
        self.line = line;
        self.column = column;
        self
    }
}

impl std::ops::Deref for Error {
    type Target = Details;
    fn deref(&self) -> &Details {
        &self.0
    }
}

impl std::ops::DerefMut for Error {
    fn deref_mut(&mut self) -> &mut Details {
        &mut self.0
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = &self.0;
        f.debug_struct("Error")
            .field("message", &d.message)
            .field("kind", &d.kind)
            .field("has_issue_code", &d.has_issue_code)
            .field("file", &d.file)
            .field("line", &d.line)
            .field("column", &d.column)
            .finish()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}
