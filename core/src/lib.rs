//! Puppet's Hiera 5 lookup, re-implemented over an in-memory filesystem.

pub mod value;
pub mod yaml;
