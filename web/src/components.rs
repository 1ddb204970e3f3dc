//! The page's views.

pub mod all_keys;
pub mod bars;
pub mod classes;
pub mod editor;
pub mod embed;
pub mod explain;
pub mod eyaml;
pub mod file_tree;
pub mod lookups;
pub mod node_panel;
pub mod nodes;
pub mod report;
pub mod review;
pub mod shortcuts;
pub mod toolbar;
pub mod tour;
pub mod why;
pub mod workspace;
