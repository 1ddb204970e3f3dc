//! The example the page opens with.

/// A small site: a four-level hierarchy and one data file per level.
pub const DEFAULT: &[(&str, &str)] = &[
    ("hiera.yaml", include_str!("../examples/default/hiera.yaml")),
    (
        "data/common.yaml",
        include_str!("../examples/default/data/common.yaml"),
    ),
    (
        "data/os/Debian.yaml",
        include_str!("../examples/default/data/os/Debian.yaml"),
    ),
    (
        "data/roles/web.yaml",
        include_str!("../examples/default/data/roles/web.yaml"),
    ),
    (
        "data/nodes/web01.example.com.yaml",
        include_str!("../examples/default/data/nodes/web01.example.com.yaml"),
    ),
];
