//! Around the pipeline, for the front ends: the document (files, nodes,
//! lookups) and what is done with it, the page's engine, many nodes at
//! once, share links, zips and reports.

pub mod archive;
pub mod case;
pub mod fleet;
pub mod lesson;
pub mod playground;
pub mod reduce;
pub mod report;
pub mod review;
pub mod share;
pub mod steps;
