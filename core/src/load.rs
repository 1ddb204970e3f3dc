//! Stage 1, load files: the in-memory filesystem everything is read from,
//! and the node's facts as `facter`, `puppet facts` or PuppetDB write them.

pub mod facts;
pub mod fs;
