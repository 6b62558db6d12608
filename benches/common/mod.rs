//! Synthetic manifests for the benches: realistic tools, scaled.

/// Tools per file: large toolsets span several files, as real ones do.
pub const TOOLS_PER_FILE: usize = 1_000;

/// One manifest file: a toolbox `bench_{file}` of `n` tools, each with a
/// parameters schema, a named return type, policies and an example.
pub fn manifest_file(file: usize, n: usize) -> String {
    let mut s = String::from("version: 1\n");
    if file == 0 {
        s.push_str(
            "types:\n  Item:\n    type: object\n    properties:\n      id: { type: string }\n      count: { type: integer, minimum: 0 }\n    required: [id, count]\n",
        );
    }
    s.push_str(&format!(
        "toolboxes:\n  bench_{file}:\n    description: Generated tools\n    tools:\n"
    ));
    for i in 0..n {
        s.push_str(&format!(
            "      tool_{file}_{i}:\n        description: Tool number {i}\n        auth: user\n        roles: [ops]\n        rate_limit: 10/min\n        timeout_ms: 5000\n        parameters:\n          type: object\n          properties:\n            id: {{ type: string, description: The id }}\n            limit: {{ type: integer, minimum: 1, maximum: 100, default: 20 }}\n            mode: {{ type: string, enum: [fast, safe] }}\n          required: [id]\n        returns: {{ $ref: \"#/types/Item\" }}\n        examples:\n          - arguments: {{ id: x{i}, limit: 5 }}\n            result: {{ id: x{i}, count: 1 }}\n"
        ));
    }
    s.push_str(&format!(
        "capabilities:\n  bench_{file}:\n    description: Generated capability\n    toolbox: bench_{file}\n"
    ));
    s
}

/// Writes a toolset of `n` tools into `dir`, [`TOOLS_PER_FILE`] per file.
pub fn write_toolset(dir: &std::path::Path, n: usize) -> Vec<std::path::PathBuf> {
    let mut paths = Vec::new();
    let mut left = n;
    let mut file = 0;
    while left > 0 {
        let k = left.min(TOOLS_PER_FILE);
        let path = dir.join(format!("bench_{file}.yaml"));
        std::fs::write(&path, manifest_file(file, k)).expect("write manifest");
        paths.push(path);
        left -= k;
        file += 1;
    }
    paths
}
