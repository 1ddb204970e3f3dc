//! The text formats data comes in. They know nothing of Hiera: each reads
//! text into a [`crate::Value`] (or writes one) with the positions and the
//! surprises the explanation shows.

pub mod hocon;
pub mod json;
pub mod yaml;
