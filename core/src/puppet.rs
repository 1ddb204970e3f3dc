//! Puppet's and Ruby's own rules that Hiera's answers depend on,
//! transcribed: the type system (type checks, `convert_to`), Puppet's `new`
//! (`convert_to`'s conversions) and Ruby's regular expressions.

pub(crate) mod convert;
pub(crate) mod regexp;
pub(crate) mod types;
