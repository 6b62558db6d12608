//! The raw manifest structs: what one file says, with the span of every
//! value, before names are resolved across files.

use super::node::Node;
use crate::diag::{FileId, Span};

/// A value and where it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct Sp<T> {
    pub value: T,
    pub span: Span,
}

impl<T> Sp<T> {
    pub fn new(value: T, span: Span) -> Self {
        Sp { value, span }
    }
}

/// A named entry of a section: the name as written, and its body.
#[derive(Debug, Clone, PartialEq)]
pub struct Named<T> {
    pub name: Sp<String>,
    pub body: T,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RawFile {
    pub file: FileId,
    pub version: Option<Sp<i64>>,
    pub types: Vec<Named<Node>>,
    pub toolboxes: Vec<Named<RawToolbox>>,
    pub playbooks: Vec<Named<RawPlaybook>>,
    pub manuals: Vec<Named<RawManual>>,
    pub capabilities: Vec<Named<RawCapability>>,
    pub agents: Vec<Named<RawAgent>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RawToolbox {
    pub span: Span,
    pub description: Option<Sp<String>>,
    pub scope: Option<Sp<String>>,
    pub tools: Vec<Named<RawTool>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RawPlaybook {
    pub span: Span,
    pub description: Option<Sp<String>>,
    pub plays: Vec<Named<RawTool>>,
}

/// `deprecated: true` or `deprecated: "use x instead"`.
#[derive(Debug, Clone, PartialEq)]
pub enum RawDeprecated {
    Flag(bool),
    Note(String),
}

/// A tool or a play: plays share the tool's keys, minus the tool-only ones.
#[derive(Debug, Clone, PartialEq)]
pub struct RawTool {
    pub span: Span,
    pub description: Option<Sp<String>>,
    pub title: Option<Sp<String>>,
    pub parameters: Option<Node>,
    pub returns: Option<Node>,
    pub validate_returns: Option<Sp<bool>>,
    pub terminal: Option<Sp<bool>>,
    pub auth: Option<Sp<String>>,
    pub roles: Vec<Sp<String>>,
    pub rate_limit: Option<Sp<String>>,
    /// Kept as a float so `0`, `-5` and `1.5` reach the policy check intact.
    pub timeout_ms: Option<Sp<f64>>,
    /// `required` or `none`, checked when the policy is resolved.
    pub approval: Option<Sp<String>>,
    pub annotations: RawHints,
    pub icons: Vec<RawIcon>,
    /// MCP's `_meta`, as written.
    pub meta: Option<Node>,
    pub deprecated: Option<Sp<RawDeprecated>>,
    pub examples: Vec<RawExample>,
    /// What serves the tool under `toolc serve`, as written.
    pub backend: Option<Sp<RawBackend>>,
}

/// A tool's `backend`: what answers its calls when `toolc serve` serves the manifest.
#[derive(Debug, Clone, PartialEq)]
pub enum RawBackend {
    /// `backend: mock`.
    Mock,
    /// `backend: {command: [program, args...]}`.
    Command(Vec<Sp<String>>),
    /// `backend: {http: {...}}`.
    Http(RawHttp),
}

/// An `http` backend's request, as written.
#[derive(Debug, Clone, PartialEq)]
pub struct RawHttp {
    pub span: Span,
    pub method: Option<Sp<String>>,
    pub url: Option<Sp<String>>,
    pub query: Vec<(Sp<String>, RawSource)>,
    pub headers: Vec<(Sp<String>, RawSource)>,
    pub body: Option<RawBody>,
}

/// Where the value of a query parameter or a header comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum RawSource {
    /// Text with `{param}` placeholders.
    Template(Sp<String>),
    /// `{env: NAME, prefix?}`: an environment variable, read when the server starts.
    Env {
        span: Span,
        name: Sp<String>,
        prefix: Option<Sp<String>>,
    },
}

/// An `http` backend's `body`.
#[derive(Debug, Clone, PartialEq)]
pub enum RawBody {
    /// `"{param}"`: one argument's value, whole.
    Whole(Sp<String>),
    /// A mapping of the body's keys to `"{param}"`s.
    Fields(Vec<(Sp<String>, Sp<String>)>),
}

/// A tool's `annotations`: the behaviour hints MCP clients read, MCP's `annotations.title`,
/// and the other keys, passed to MCP as written.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RawHints {
    pub read_only: Option<Sp<bool>>,
    pub destructive: Option<Sp<bool>>,
    pub idempotent: Option<Sp<bool>>,
    pub open_world: Option<Sp<bool>>,
    pub title: Option<Sp<String>>,
    /// Every other key (not `x-`, not a near-miss of a known key), in the order written.
    pub other: Vec<(String, Node)>,
}

/// One of a tool's `icons`.
#[derive(Debug, Clone, PartialEq)]
pub struct RawIcon {
    pub span: Span,
    pub src: Option<Sp<String>>,
    pub mime_type: Option<Sp<String>>,
    pub sizes: Vec<Sp<String>>,
    pub theme: Option<Sp<String>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RawExample {
    pub span: Span,
    pub arguments: Option<Node>,
    pub result: Option<Node>,
    pub description: Option<Sp<String>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RawManual {
    pub span: Span,
    pub description: Option<Sp<String>>,
    pub text: Option<Sp<String>>,
    pub file: Option<Sp<String>>,
}

/// A capability's `manual`: a manual's name, or an inline manual.
#[derive(Debug, Clone, PartialEq)]
pub enum RawManualRef {
    Name(Sp<String>),
    Inline(RawManual),
}

#[derive(Debug, Clone, PartialEq)]
pub struct RawCapability {
    pub span: Span,
    pub description: Option<Sp<String>>,
    pub toolbox: Option<Sp<String>>,
    pub playbook: Option<Sp<String>>,
    pub manual: Option<RawManualRef>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RawAgent {
    pub span: Span,
    pub description: Option<Sp<String>>,
    pub capabilities: Option<Sp<Vec<Sp<String>>>>,
    pub scope: Option<Sp<String>>,
    /// Other agents and capabilities exposed as one tool of this agent each.
    pub delegates: Vec<Named<RawDelegate>>,
}

/// One of an agent's `delegates`: a tool's keys, and what it delegates to
/// (exactly one of `agent` and `capability`, checked by the loader).
#[derive(Debug, Clone, PartialEq)]
pub struct RawDelegate {
    pub tool: RawTool,
    pub agent: Option<Sp<String>>,
    pub capability: Option<Sp<String>>,
}
