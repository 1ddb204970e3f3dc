//! Hooks shared by the components.

pub mod use_backends;
pub mod use_drop;
pub mod use_eyaml_tools;
pub mod use_latest;
pub mod use_share_link;
