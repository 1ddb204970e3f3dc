//! Stage 4, find values: one module per backend function, each reading a
//! data file into a hash of keys to values (`yaml_data`, `json_data` and
//! `hocon_data` in `data`, `eyaml_lookup_key` in `eyaml`).

pub mod data;
pub mod eyaml;
