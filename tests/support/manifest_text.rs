//! Manifest text for tests of a single tool: shared by the library's unit tests
//! (`src/tests/`, which include this file by path) and the integration tests.

/// A toolset with one tool `a` whose other keys are `body` (indented under the tool).
pub fn tool(body: &str) -> String {
    format!(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools.\n    tools:\n      a:\n        description: Does a.\n{body}"
    )
}

/// A tool taking the parameter `p` with schema `schema` (flow YAML), `required` or not.
pub fn param(schema: &str, required: bool) -> String {
    tool(&format!(
        "        parameters:\n          type: object\n          properties:\n            p: {schema}\n{}",
        if required {
            "          required: [p]\n"
        } else {
            ""
        }
    ))
}
