//! The page's building blocks.

pub mod editor;
pub mod file_tabs;
pub mod hierarchy;
