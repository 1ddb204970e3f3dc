//! Puppet manifests read as far as automatic parameter lookup needs: each
//! class's header (its name, `inherits`, and every parameter's type and
//! default expression) and each type alias (`type Stdlib::Port =
//! Integer[0, 65535]`). Bodies are skipped whole, with their strings,
//! heredocs, comments and regexps. The calls that look keys up are found
//! wherever they are (`lookup_calls`), for a review of what reads the data.
//! Like the data formats, this knows nothing of Hiera's semantics.

mod calls;
mod lex;
mod parse;

pub use calls::{lookup_calls, KeyText, LookupCall};
pub use parse::parse;

/// What one manifest file defines.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Manifest {
    /// Its classes, in the order written.
    pub classes: Vec<Class>,
    /// Its type aliases, in the order written.
    pub aliases: Vec<TypeAlias>,
}

/// A class's header.
#[derive(Clone, Debug, PartialEq)]
pub struct Class {
    /// Its name as written, lowercase, without a leading `::`.
    pub name: String,
    /// The class it inherits from, if any.
    pub inherits: Option<String>,
    /// Its parameters, in declaration order.
    pub params: Vec<Param>,
    /// The 1-based line of `class`.
    pub line: usize,
}

/// A class parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// Its name, without the `$`.
    pub name: String,
    /// Its type expression as written (`Array[Stdlib::Host]`), if typed.
    pub type_text: Option<String>,
    /// Its default, if it has one.
    pub default: Option<DefaultExpr>,
    /// The 1-based line of its name.
    pub line: usize,
}

/// A default expression: its source text and what of it can be evaluated
/// without running Puppet.
#[derive(Clone, Debug, PartialEq)]
pub struct DefaultExpr {
    /// The source text, as written.
    pub source: String,
    /// The expression, as far as it is read.
    pub expr: Expr,
}

/// An expression of the Puppet language, as far as defaults need: literals,
/// variables, accesses, strings with interpolation, collections and
/// arithmetic. Anything else is [`Expr::Other`].
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// `undef`.
    Undef,
    /// `true` or `false`.
    Bool(bool),
    /// A number as written (`8080`, `0x1F`, `1.5`).
    Number(String),
    /// A string without interpolation, or a bare word.
    Str(String),
    /// A double-quoted string with interpolations.
    Interpolated(Vec<Piece>),
    /// `$name` (`$::name`, `$mod::params::name`), and its 1-based line and
    /// column.
    Var(String, (usize, usize)),
    /// `expr[key]`, `expr[key1][key2]`.
    Access(Box<Expr>, Vec<Expr>),
    /// `[a, b]`.
    Array(Vec<Expr>),
    /// `{k => v}`.
    Hash(Vec<(Expr, Expr)>),
    /// `a + b`, `a * b`... (`+ - * / %`).
    Arith(char, Box<Expr>, Box<Expr>),
    /// `-a`.
    Neg(Box<Expr>),
    /// What is evaluated only by Puppet (function calls, selectors, types...).
    Other,
}

/// A piece of an interpolated string.
#[derive(Clone, Debug, PartialEq)]
pub enum Piece {
    /// Text.
    Text(String),
    /// An interpolated expression.
    Expr(Expr),
}

/// A type alias: `type Name = Type`.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeAlias {
    /// The alias's name (`Stdlib::Port`).
    pub name: String,
    /// The type expression it stands for, as written.
    pub type_text: String,
    /// The 1-based line of `type`.
    pub line: usize,
}

/// A manifest Puppet cannot parse, worded as Puppet words it.
#[derive(Clone, Debug, PartialEq)]
pub struct SyntaxError {
    /// Puppet's message without the location (`Syntax error at end of input`).
    pub message: String,
    /// 1-based line and column, where Puppet gives them.
    pub at: Option<(usize, usize)>,
}

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SyntaxError {}
