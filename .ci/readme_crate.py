#!/usr/bin/env python3
"""Writes the crate README.md tells a user to write, for CI to build outside the workspace.

usage: readme_crate.py CHECKOUT OUT PACKAGE...

OUT/registry: the README's crates.io dependency lines, with [patch.crates-io] pointing every crate of
the workspace that would be published and that those lines reach (each PACKAGE, a folder `cargo package`
made, unpacked: toolc, toolc-runtime and the crates they depend on, such as toolc-search; toolc-mcp, which
these lines do not name, is left out so that no patch goes unused) at its package, the README's build.rs
and src/lib.rs, and the example manifests: building it builds toolc and toolc-runtime from their packages,
as a user would once they are published.

OUT/git: the README's git dependency lines, the repository URL of Cargo.toml replaced by the checkout,
for cargo to resolve: the packages are found in the repository under the names the README gives.

The blocks are found by their first line (`# Cargo.toml`, `// build.rs`, ...); a block missing or
written twice fails, so the README cannot drift from what CI builds.
"""

import json
import pathlib
import re
import shutil
import sys
import tomllib

PACKAGE = """[package]
name = "readme-crate"
version = "0.0.0"
edition = "2024"
publish = false

"""


def blocks(readme: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for _lang, body in re.findall(r"```(toml|rust)\n(.*?)```", readme, re.S):
        first = body.split("\n", 1)[0].strip()
        if first in found:
            sys.exit(f"README.md: two blocks start with {first!r}")
        found[first] = body
    return found


def reached(packages: dict[str, pathlib.Path], roots: list[str]) -> set[str]:
    """The packages `roots` name, and the packages those depend on, transitively."""
    seen: set[str] = set()
    todo = [r for r in roots if r in packages]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        manifest = tomllib.loads((packages[name] / "Cargo.toml").read_text())
        for table in ("dependencies", "build-dependencies"):
            todo.extend(dep for dep in manifest.get(table, {}) if dep in packages)
    return seen


def main() -> None:
    if len(sys.argv) < 4:
        sys.exit("usage: readme_crate.py CHECKOUT OUT PACKAGE...")
    checkout, out = (pathlib.Path(a).resolve() for a in sys.argv[1:3])
    packages = {}
    for a in sys.argv[3:]:
        package = pathlib.Path(a).resolve()
        name = tomllib.loads((package / "Cargo.toml").read_text())["package"]["name"]
        packages[name] = package
    for needed in ("toolc", "toolc-runtime"):
        if needed not in packages:
            sys.exit(f"readme_crate.py: no package of {needed} among {sorted(packages)}")
    readme = (checkout / "README.md").read_text()
    found = blocks(readme)
    wanted = {
        "registry": "# Cargo.toml",
        "git": "# Cargo.toml, until toolc is on crates.io",
        "build": "// build.rs",
        "lib": "// src/lib.rs",
    }
    missing = [first for first in wanted.values() if first not in found]
    if missing:
        sys.exit(f"README.md has no block starting with {missing}")

    registry = out / "registry"
    (registry / "src").mkdir(parents=True)
    lines = tomllib.loads(found[wanted["registry"]])
    roots = [*lines.get("dependencies", {}), *lines.get("build-dependencies", {})]
    used = reached(packages, roots)
    patch = "\n[patch.crates-io]\n" + "".join(
        f"{name} = {{ path = {json.dumps(str(path))} }}\n"
        for name, path in sorted(packages.items())
        if name in used
    )
    (registry / "Cargo.toml").write_text(PACKAGE + found[wanted["registry"]] + patch)
    (registry / "build.rs").write_text(found[wanted["build"]])
    (registry / "src" / "lib.rs").write_text(found[wanted["lib"]])
    shutil.copytree(checkout / "manifests", registry / "manifests")

    url = tomllib.loads((checkout / "Cargo.toml").read_text())["workspace"]["package"]["repository"]
    git_lines = found[wanted["git"]]
    if url not in git_lines:
        sys.exit(f"README.md's git dependency lines do not name the repository of Cargo.toml, {url}")
    git = out / "git"
    (git / "src").mkdir(parents=True)
    (git / "Cargo.toml").write_text(PACKAGE + git_lines.replace(url, checkout.as_uri()))
    (git / "src" / "lib.rs").write_text("")


if __name__ == "__main__":
    main()
