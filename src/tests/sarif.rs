//! The SARIF log's paths. The log itself is tested from the outside, through `toolc lint
//! --format sarif` (tests/lint_sarif.rs).

use crate::cli::sarif::path_uri;
use std::path::Path;

#[test]
fn paths_become_uri_references() {
    assert_eq!(
        path_uri(Path::new("manifests/a b.yaml")),
        ("manifests/a%20b.yaml".into(), false)
    );
    assert_eq!(
        path_uri(Path::new("./x/é.yaml")),
        ("x/%C3%A9.yaml".into(), false)
    );
    assert_eq!(
        path_uri(Path::new("/abs/a.yaml")),
        ("file:///abs/a.yaml".into(), true)
    );
}
