//! The page's hooks: its effects and the callbacks that act on whole documents.

pub mod use_backends;
pub mod use_chunks;
pub mod use_document_io;
pub mod use_drop;
pub mod use_latest;
pub mod use_page;
pub mod use_share_link;
pub mod use_tour;
