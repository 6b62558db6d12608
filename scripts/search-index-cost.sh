#!/usr/bin/env bash
# What the compiled search index costs the generated module's compile, on the
# synthetic agent of the search quality test (runtime/tests/data/search_purposes.json:
# 1,000 tools): the generated file is compiled as a library crate as toolc writes it,
# and again with the index taken out (no `__search` module, no `.with_search_index`),
# alternately, after the dependencies are built once. Prints each time, the medians,
# the two files' sizes, then the search quality through the generated agent (top-1 and
# top-5 of the 100 paraphrase queries, and that nothing was tokenized at run time).
#
#   scripts/search-index-cost.sh             # 5 builds of each
#   RUNS=9 scripts/search-index-cost.sh
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
runs=${RUNS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build -q --bin toolc
mkdir -p "$work/manifest"
python3 - "$repo/runtime/tests/data/search_purposes.json" "$work/manifest/synthetic.yaml" <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))
out = ["version: 1", "toolboxes:", "  synthetic:", "    description: Synthetic tools", "    tools:"]
for e_id, words, gloss in data["entities"]:
    for verb, sentence, params in data["actions"]:
        fill = lambda s: s.replace("{e}", words).replace("{id}", e_id)
        article = "An" if words[0] in "aeiou" else "A"
        out.append(f"      {verb}_{e_id}:")
        out.append(f"        description: {json.dumps(fill(sentence) + f' {article} {words} is {gloss}.')}")
        out.append("        parameters:")
        out.append("          type: object")
        out.append("          properties:")
        for name, doc in params:
            out.append(f"            {fill(name)}: {{ type: string, description: {json.dumps(fill(doc))} }}")
out += ["capabilities:", "  synthetic: { description: Synthetic, toolbox: synthetic }",
        "agents:", "  synthetic: { description: 1000 synthetic tools, capabilities: [synthetic] }"]
open(sys.argv[2], "w").write("\n".join(out) + "\n")
PY
# More tools than OpenAI and Gemini take in one request: list them for MCP only.
printf '[lint]\ndialects = ["mcp"]\n' > "$work/manifest/toolc.toml"
"$repo/target/debug/toolc" build "$work/manifest" --out "$work/generated" --format plain 2>&1 | tail -1

# Two library crates over the same file, with and without the index, and one workspace.
for variant in with without; do
  mkdir -p "$work/$variant/src"
  cat > "$work/$variant/Cargo.toml" <<TOML
[package]
name = "index_$variant"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
toolc-runtime = { path = "$repo/runtime" }
TOML
  printf '//! The generated module.\npub mod toolset {\n    include!("toolset.rs");\n}\n' > "$work/$variant/src/lib.rs"
done
cp "$work/generated/rust/toolset.rs" "$work/with/src/toolset.rs"
python3 - "$work/with/src/toolset.rs" "$work/without/src/toolset.rs" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
start = text.index("/// The agents' tool-search indexes")
end = text.index("\n}\n", text.index("pub mod __search {")) + 3
text = text[:start] + text[end:]
text = re.sub(r"\n\s*\.with_search_index\(&super::__search::\w+\)", "", text)
assert "__search" not in text
open(sys.argv[2], "w").write(text)
PY
cat > "$work/Cargo.toml" <<TOML
[workspace]
members = ["with", "without"]
resolver = "3"
TOML
cp "$repo/Cargo.lock" "$work/Cargo.lock"
export CARGO_TARGET_DIR="$work/target"
cargo build -q --manifest-path "$work/Cargo.toml" --workspace

wc -c -l "$work/with/src/toolset.rs" "$work/without/src/toolset.rs" | head -2
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
# Wall time, and CPU time (user + system of cargo and rustc), which a loaded machine
# disturbs less.
declare -A walls cpus
for i in $(seq 1 "$runs"); do
  for variant in with without; do
    touch "$work/$variant/src/lib.rs"
    /usr/bin/time -f "%e %U %S" -o "$work/time" \
      cargo build -q --manifest-path "$work/Cargo.toml" -p "index_$variant"
    read -r wall user sys < "$work/time"
    cpu=$(awk "BEGIN { printf \"%.2f\", $user + $sys }")
    walls[$variant]="${walls[$variant]:-} $wall"
    cpus[$variant]="${cpus[$variant]:-} $cpu"
    echo "run $i, $variant index: $wall s wall, $cpu s CPU"
  done
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for variant in with without; do
  echo "median, $variant index: $(echo "${walls[$variant]}" | median) s wall, $(echo "${cpus[$variant]}" | median) s CPU (debug build of the generated module, dependencies built)"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

# Quality through the generated agent: an implementation of every tool, the 100 queries.
mkdir -p "$work/with/examples"
python3 - "$work/with/src/toolset.rs" "$repo/runtime/tests/data/search_purposes.json" "$work/with/examples/quality.rs" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
trait = text[text.index("pub trait Synthetic"):]
trait = trait[:trait.index("\n        }\n")]
methods = re.findall(r"fn (\w+)\(\s*&self,\s*params: (\w+),", trait)
assert len(methods) == 1000, len(methods)
queries = json.load(open(sys.argv[2]))["queries"]
out = ["use index_with::toolset::toolboxes::synthetic::*;",
       "use toolc_runtime::{HandlerError, ToolContext};",
       "struct Impl;",
       "impl Synthetic for Impl {"]
for name, params in methods:
    out.append(f"    async fn {name}(&self, _: {params}, _: &ToolContext<'_, Scope>) -> Result<toolc_runtime::__private::serde_json::Value, HandlerError> {{ Ok(Default::default()) }}")
out.append("}")
out.append("const QUERIES: &[(&str, &str)] = &[" + ", ".join(f"({json.dumps(q)}, {json.dumps(t)})" for q, t in queries) + "];")
out.append("""fn main() {
    let agent = index_with::toolset::agents::Synthetic { synthetic: Impl }.build();
    let (mut top1, mut top5) = (0, 0);
    for (q, want) in QUERIES {
        let hits = agent.search_tools(q, 5);
        match hits.iter().position(|h| h.tool.name == *want) {
            Some(0) => { top1 += 1; top5 += 1; }
            Some(_) => top5 += 1,
            None => {}
        }
    }
    let parts = agent.search_index_parts();
    println!("through the generated agent: top-1 {top1}/100, top-5 {top5}/100; tools in the compiled index {}, tokenized at run time {}", parts.0, parts.1);
    assert_eq!(parts, (1000, 0));
    assert!(top5 >= 90);
}""")
open(sys.argv[3], "w").write("\n".join(out) + "\n")
PY
cargo run -q --manifest-path "$work/Cargo.toml" -p index_with --example quality
