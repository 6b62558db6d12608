r"""How each side of the agreement test reads a schema, as plain JSON Schema (2020-12).

- `advertised(dialect, schema)`: a dialect's advertised parameters, as the model reads them.
  The JSON Schema dialects are read as written. The Gemini OpenAPI forms (`gemini`,
  `gemini-vertex`): `nullable: true` lets `null` through, and objects are closed (the model sends
  the declared properties only). `anthropic-strict`: integers keep within the range of the
  handler's Rust type (the form cannot state bounds): `i64`, or the type `format` names
  (`int32`, `uint32`, `uint64`). A tool a Gemini entry lists without `parameters` takes `{}`.
- `canonical(schema)`: the manifest's own schema, as docs/manifest.md defines it: `nullable: true`
  adds `null` to the node's `type`.
- `misread(sent, read)`: where the dispatcher's reading of the arguments `sent` is not one the docs
  allow (docs/lint-rules.md): a `null` member dropped (a strict-mode "not given"), an integral
  float read as the integer, a list of `{key, value}` pairs read as the map they spell (a key in two
  pairs takes the last value, as in a JSON object with the key written twice), an object keyed by
  positions (`{"0": a, "1": b}`) read as the tuple, an integer beyond 64 bits read as the nearest
  double; every other value read as sent.
- `bounded(schema)`: a part of the schema to generate from (every instance of the result is an
  instance of the schema): every `$ref` inlined, a recursive one twice at most (hypothesis-jsonschema
  does not generate from recursive references), and at most two properties beyond the declared
  ones in an open object (which hypothesis-jsonschema makes slowly, and the dispatcher ignores);
  tuples, `dependentRequired` and `dependentSchemas` in the draft-07 spelling, the one
  hypothesis-jsonschema reads; each `pattern` read as ECMA-262 reads it, as the validator does:
  `\d` and `\w` are ASCII classes (Python's `re`, which hypothesis generates with, makes them
  Unicode classes unless a pattern starts with `(?a)`).
"""

from __future__ import annotations

import copy
from typing import Any, Callable

Schema = Any

# Keywords whose value is one subschema, a list of them, or a map of them (`items` is a list in
# the draft-07 tuple spelling).
ONE = (
    "items",
    "additionalItems",
    "additionalProperties",
    "not",
    "contains",
    "propertyNames",
    "if",
    "then",
    "else",
)
LIST = ("anyOf", "oneOf", "allOf", "prefixItems")
MAP = ("properties", "$defs", "patternProperties", "dependentSchemas")

GEMINI_OPENAPI = ("gemini", "gemini-vertex")

# The range of each integer type the generated Rust uses, by `format` (other formats: i64).
INTEGER_RANGES = {
    "int32": (-(2**31), 2**31 - 1),
    "uint32": (0, 2**32 - 1),
    "uint64": (0, 2**64 - 1),
}
I64 = (-(2**63), 2**63 - 1)

NO_PARAMETERS = {"type": "object", "properties": {}, "additionalProperties": False}


def walk(schema: Schema, rewrite: Callable[[dict], Schema]) -> Schema:
    """Applies `rewrite` to every schema node, children first."""
    if not isinstance(schema, dict):
        return schema
    node = dict(schema)
    for k in ONE:
        if isinstance(node.get(k), list):
            node[k] = [walk(s, rewrite) for s in node[k]]
        elif k in node:
            node[k] = walk(node[k], rewrite)
    for k in LIST:
        if isinstance(node.get(k), list):
            node[k] = [walk(s, rewrite) for s in node[k]]
    for k in MAP:
        if isinstance(node.get(k), dict):
            node[k] = {name: walk(s, rewrite) for name, s in node[k].items()}
    return rewrite(node)


def types(node: dict) -> list[str]:
    t = node.get("type")
    if isinstance(t, str):
        return [t]
    return list(t) if isinstance(t, list) else []


def _gemini(node: dict) -> Schema:
    if types(node) == ["object"] or ("properties" in node and not types(node)):
        node.setdefault("additionalProperties", False)
    if node.pop("nullable", False) is True:
        annotations = {k: node.pop(k) for k in ("description", "title") if k in node}
        return {**annotations, "anyOf": [node, {"type": "null"}]}
    return node


def _integer_range(node: dict) -> Schema:
    t = types(node)
    if "integer" in t and "number" not in t:
        lo, hi = INTEGER_RANGES.get(node.get("format"), I64)
        node["minimum"] = max(node.get("minimum", lo), lo)
        node["maximum"] = min(node.get("maximum", hi), hi)
    return node


def advertised(dialect: str, schema: Schema | None) -> Schema:
    """The dialect's advertised parameters as JSON Schema; `None` means no `parameters`."""
    if schema is None:
        return copy.deepcopy(NO_PARAMETERS)
    if dialect in GEMINI_OPENAPI:
        return walk(schema, _gemini)
    if dialect == "anthropic-strict":
        return walk(schema, _integer_range)
    return copy.deepcopy(schema)


def _nullable(node: dict) -> Schema:
    if node.pop("nullable", False) is True and types(node) and "null" not in types(node):
        node["type"] = types(node) + ["null"]
    return node


def _tuple_2020(node: dict) -> Schema:
    if isinstance(node.get("items"), list):
        node["prefixItems"] = node.pop("items")
        if "additionalItems" in node:
            node["items"] = node.pop("additionalItems")
    return node


def _tuple_draft7(node: dict) -> Schema:
    if "prefixItems" in node:
        if "items" in node:
            node["additionalItems"] = node.pop("items")
        node["items"] = node.pop("prefixItems")
    return node


def canonical(schema: Schema) -> Schema:
    """The manifest's schema, `nullable` read as docs/manifest.md says, and a draft-07 tuple
    (`items: [...]`, which toolc reads as `prefixItems`) in the 2020-12 spelling."""
    return walk(schema, lambda n: _tuple_2020(_nullable(n)))


EXTRA_PROPERTIES = 2


def _few_extras(node: dict) -> Schema:
    objecty = "object" in types(node) or "properties" in node or "additionalProperties" in node
    if objecty and node.get("additionalProperties", True) is not False and "maxProperties" not in node:
        node["maxProperties"] = len(node.get("properties", {})) + EXTRA_PROPERTIES
    return node


def _dependencies_draft7(node: dict) -> Schema:
    """`dependentRequired` and `dependentSchemas` as draft-07's `dependencies`, which says the
    same (a property's list of required names, or its schema)."""
    required = node.pop("dependentRequired", None) or {}
    schemas = node.pop("dependentSchemas", None) or {}
    if not required and not schemas:
        return node
    dependencies = dict(node.get("dependencies", {}))
    for name in sorted(required.keys() | schemas.keys()):
        if name in required and name in schemas:
            dependencies[name] = {"allOf": [{"required": required[name]}, schemas[name]]}
        elif name in schemas:
            dependencies[name] = schemas[name]
        else:
            dependencies[name] = required[name]
    node["dependencies"] = dependencies
    return node


def _ecma_pattern(node: dict) -> Schema:
    pattern = node.get("pattern")
    if isinstance(pattern, str) and not pattern.startswith("(?a)"):
        node["pattern"] = "(?a)" + pattern
    return node


def bounded(schema: Schema) -> Schema:
    """A part of `schema` to generate instances from; see the module's doc. Tuples are given in
    the draft-07 spelling (`items: [...]`, `additionalItems`), and `dependentRequired` and
    `dependentSchemas` as `dependencies`, the ones hypothesis-jsonschema reads: it does not know
    the 2020-12 keywords. Patterns are read with ASCII classes, as ECMA-262 reads them."""
    return walk(
        unrolled(schema),
        lambda n: _ecma_pattern(_dependencies_draft7(_tuple_draft7(_few_extras(n)))),
    )


def unrolled(schema: Schema, depth: int = 2) -> Schema:
    """`schema` without `$ref`s: each inlined, a recursive one `depth` times at most (deeper, the
    reference admits nothing, so what it stands in must be left out or take another branch)."""
    defs = schema.get("$defs", {}) if isinstance(schema, dict) else {}

    def inline(node: Schema, stack: tuple[str, ...]) -> Schema:
        if not isinstance(node, dict):
            return node
        node = dict(node)
        node.pop("$defs", None)
        ref = node.pop("$ref", None)
        for k in ONE:
            if isinstance(node.get(k), list):
                node[k] = [inline(s, stack) for s in node[k]]
            elif k in node:
                node[k] = inline(node[k], stack)
        for k in LIST:
            if isinstance(node.get(k), list):
                node[k] = [inline(s, stack) for s in node[k]]
        for k in MAP:
            if isinstance(node.get(k), dict):
                node[k] = {name: inline(s, stack) for name, s in node[k].items()}
        if ref is None:
            return node
        prefix = "#/$defs/"
        if not ref.startswith(prefix) or ref[len(prefix):] not in defs:
            raise ValueError(f"unresolvable $ref {ref!r}")
        name = ref[len(prefix):]
        target = False if stack.count(name) >= depth else inline(defs[name], stack + (name,))
        if not node:
            return target
        return {**node, "allOf": [*node.get("allOf", []), target]}

    return inline(schema, ())


def misread(sent: Any, read: Any, at: str = "") -> list[str]:
    """Where `read` is not `sent` under the dispatcher's documented readings (see the module's
    doc); empty when it is. Which reading applies is told by the shape `read` has."""
    where = at or "/"
    if isinstance(read, dict):
        if isinstance(sent, list):
            spelled: dict[str, Any] = {}
            for pair in sent:
                if not (isinstance(pair, dict) and pair.keys() == {"key", "value"} and isinstance(pair["key"], str)):
                    return [f"{where}: a list read as an object, but {pair!r} is not a {{key, value}} pair"]
                spelled[pair["key"]] = pair["value"]
            if spelled.keys() != read.keys():
                return [f"{where}: the pairs spell the keys {sorted(spelled)}, read as {sorted(read)}"]
            sent = spelled
        elif not isinstance(sent, dict):
            return [f"{where}: {sent!r} read as an object"]
        out = []
        for k, v in sent.items():
            if k in read:
                out += misread(v, read[k], f"{at}/{k}")
            elif v is not None:
                out.append(f"{where}: the member {k!r} is not null, yet it was dropped")
        out += [f"{where}: the member {k!r} was not sent" for k in read.keys() - sent.keys()]
        return out
    if isinstance(read, list):
        if isinstance(sent, dict):
            positions = [str(i) for i in range(len(read))]
            if sorted(sent) != sorted(positions):
                return [f"{where}: an object with the keys {sorted(sent)} read as a tuple of {len(read)}"]
            sent = [sent[p] for p in positions]
        if not isinstance(sent, list) or len(sent) != len(read):
            return [f"{where}: {sent!r} read as {read!r}"]
        return [m for i, (s, r) in enumerate(zip(sent, read)) for m in misread(s, r, f"{at}/{i}")]
    number = (int, float)
    if isinstance(sent, number) and isinstance(read, number) and not isinstance(sent, bool) and not isinstance(read, bool):
        integral = isinstance(sent, float) and isinstance(read, int) and sent == read
        if (type(sent) is type(read) and sent == read) or integral or _nearest_double(sent, read):
            return []
    elif type(sent) is type(read) and sent == read:
        return []
    return [f"{where}: {sent!r} read as {read!r}"]


def _nearest_double(sent: int | float, read: int | float) -> bool:
    """Whether `read` is the double nearest to `sent`, an integer beyond 64 bits (JSON numbers
    are read as 64-bit integers where they are integers that fit, else as doubles)."""
    if not isinstance(sent, int) or -(2**63) <= sent < 2**64 or not isinstance(read, float):
        return False
    try:
        return float(sent) == read
    except OverflowError:
        return False
