//! A diagnostic as the command line reports it where the path it was given is relative. Every
//! code's own test, and the meta-test that ties the codes to docs/diagnostics.md, are in the
//! library (`src/tests/diagnostics.rs`).

#[test]
fn manual_path_bare_file_name() {
    // `toolc check a.yaml` run inside the manifest folder: the root is `.`.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("secret.md"), "outside").unwrap();
    let root = dir.path().join("manifests");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(
        root.join("a.yaml"),
        "version: 1\nmanuals:\n  m: { file: ../secret.md }\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_toolc"))
        .args(["check", "--format", "plain", "a.yaml"])
        .current_dir(&root)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with(
            "a.yaml:3:14: error[manual-path]: manual file `../secret.md` is outside the manifest root `.`"
        ),
        "{stderr}"
    );
}
