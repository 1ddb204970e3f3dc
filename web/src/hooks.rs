//! Hooks shared by the components.

pub mod use_drop;
pub mod use_latest;
