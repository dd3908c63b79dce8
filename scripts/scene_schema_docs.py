#!/usr/bin/env python3
"""The key tables of docs/scene-format.md, generated from the scene schema.

  scripts/scene_schema_docs.py [--check] [SCHEMA] [DOC]
    (defaults: scenes/schema/scene.schema.json, docs/scene-format.md)

Each table between
  <!-- schema-table: POINTER -->   and   <!-- /schema-table -->
is the schema node at POINTER (a JSON pointer into the schema, e.g. /$defs/settings; empty,
<!-- schema-table: -->, for the top level) written as rows
key | type | unit | default | constraint | meaning; nested objects become dotted keys
(solver.method) unless they say "x-table-row": true, and a "oneOf" of object variants (the body
types) gets a column saying which variants have each key ("x-union" on the "oneOf" node: what
the table says of a key across the variants, in the table's order).  A property's "x-type",
"x-unit", "x-default" and "x-constraint" fill the type, unit, default and constraint columns
where the schema's own keywords say less.  --check exits 1 when a table differs from what the
schema makes (ctest runs it: suction_scene_schema_docs); without it the tables are rewritten
(make scene-docs).
The prose around the tables is written by hand.
"""
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
args = [a for a in sys.argv[1:] if not a.startswith("--")]
CHECK = "--check" in sys.argv
schema_path = pathlib.Path(args[0]) if args else ROOT / "scenes" / "schema" / "scene.schema.json"
doc_path = pathlib.Path(args[1]) if len(args) > 1 else ROOT / "docs" / "scene-format.md"
schema = json.loads(schema_path.read_text())


def resolve(ptr):
    node = schema
    for tok in ptr.split("/")[1:]:
        tok = tok.replace("~1", "/").replace("~0", "~")
        node = node[int(tok)] if isinstance(node, list) else node[tok]
    return node


def deref(node):
    while isinstance(node, dict) and "$ref" in node and len(node) == 1:
        node = resolve(node["$ref"][1:])
    return node


def num(x):
    if isinstance(x, float):  # 1e-06 -> 1e-6, 101325.0 -> 101325, 1000000.0 -> 1e6
        text = format(x, ".15g")
        if abs(x) >= 1e6 and len(format(x, "g")) < len(text):
            text = format(x, "g")
        return text.replace("e-0", "e-").replace("e+0", "e").replace("e+", "e")
    return str(x)


def value_text(v):
    """a JSON value as the table shows it: numbers short (0.0 -> 0, 1e-06 -> 1e-6)"""
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (int, float)):
        return num(v)
    if isinstance(v, list):
        return "[" + ", ".join(value_text(e) for e in v) + "]"
    return "{" + ", ".join(json.dumps(k, ensure_ascii=False) + ": " + value_text(e) for k, e in v.items()) + "}"


def type_text(node):
    if "x-type" in node:
        return node["x-type"]
    node_d = deref(node)
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[1]
        if name in ("number", "integer"):
            return name
        if name == "vec3":
            return "[x, y, z]"
        return node_d.get("x-type", name)
    if "enum" in node:
        return ", ".join(f'`"{e}"`' for e in node["enum"])
    if "const" in node:
        return f'`"{node["const"]}"`'
    if "oneOf" in node:
        return " or ".join(dict.fromkeys(type_text(b) for b in node["oneOf"]))
    t = node.get("type")
    if t == "array":
        if "x-numbers" in node:
            return f"[{node['x-numbers']} numbers]"
        return "array of " + type_text(node.get("items", {}))
    if t == "object" and "additionalProperties" in node and isinstance(node["additionalProperties"], dict):
        return "object NAME → " + type_text(node["additionalProperties"])
    return {"string": "string", "boolean": "boolean", "object": "object"}.get(t, t or "any")


def constraint(node):
    if "x-constraint" in node:
        return node["x-constraint"]
    lo = node.get("minimum", node.get("exclusiveMinimum"))
    hi = node.get("maximum", node.get("exclusiveMaximum"))
    lo_open, hi_open = "exclusiveMinimum" in node, "exclusiveMaximum" in node
    if lo is not None and hi is not None:
        return f"in {'(' if lo_open else '['}{num(lo)}, {num(hi)}{')' if hi_open else ']'}"
    if lo is not None:
        return f"{'>' if lo_open else '>='} {num(lo)}"
    if hi is not None:
        return f"{'<' if hi_open else '<='} {num(hi)}"
    return ""


def default_text(node, required):
    if "x-default" in node:
        return node["x-default"]
    if required:
        return "required"
    if "x-required-when" in node:
        return "required when " + node["x-required-when"]
    if "default" in node:
        return "`" + value_text(node["default"]) + "`"
    return "required" if required else ""


def rows(node, prefix=""):
    """(key, node, required) for each property; nested objects flattened to dotted keys."""
    node = deref(node)
    required = set(node.get("required", []))
    out = []
    for key, prop in node.get("properties", {}).items():
        if key in ("comment", "$schema"):
            continue
        p = deref(prop)
        if p.get("type") == "object" and "properties" in p and not p.get("x-table-row"):
            out += rows(p, prefix + key + ".")
        else:
            out.append((prefix + key, prop, key in required))
    return out


def cell(s):
    return str(s).replace("\n", " ").replace("|", "\\|") if s else ""


def table(ptr):
    node = deref(resolve(ptr))
    if "oneOf" in node and "properties" not in node:  # object variants: one table, a column naming the variants of each key
        variants = []
        for b in node["oneOf"]:
            b = deref(b)
            const = [(k, p["const"]) for k, p in b["properties"].items() if isinstance(p, dict) and "const" in p]
            variants.append((const[0][1] if const else "?", b))
        disc = next((k for k, p in deref(node["oneOf"][0])["properties"].items() if "const" in p), None)
        keys = {}
        for name, b in variants:
            for key, prop, req in rows(b):
                keys.setdefault(key, []).append((name, prop, req))
        # "x-union": per key, what the table says of it across the variants (merged over the
        # first variant's property); its key order, where given, is the table's
        union = node.get("x-union", {})
        order = list(union)
        keys = dict(sorted(keys.items(), key=lambda kv: (order.index(kv[0]) if kv[0] in order else len(order))))
        lines = ["| key | type | unit | default | constraint | for | meaning |", "|---|---|---|---|---|---|---|"]
        for key, uses in keys.items():
            prop = {**uses[0][1], **union.get(key, {})}
            if key == disc:
                prop = {"description": node.get("x-discriminator", ""), **union.get(key, {}),
                        "enum": [n for n, _ in variants]}
            names = [n for n, _, _ in uses]
            for_text = "all" if len(names) == len(variants) else ", ".join(names)
            req = all(r for _, _, r in uses)
            lines.append(f"| `{key}` | {cell(type_text(prop))} | {cell(prop.get('x-unit', ''))} | "
                         f"{cell(default_text(prop, req))} | {cell(constraint(prop))} | {for_text} | "
                         f"{cell(prop.get('description', ''))} |")
        return lines
    lines = ["| key | type | unit | default | constraint | meaning |", "|---|---|---|---|---|---|"]
    for key, prop, req in rows(node):
        lines.append(f"| `{key}` | {cell(type_text(prop))} | {cell(prop.get('x-unit', ''))} | "
                     f"{cell(default_text(prop, req))} | {cell(constraint(prop))} | {cell(prop.get('description', ''))} |")
    return lines


text = doc_path.read_text()
# the pointer may be empty: <!-- schema-table: --> is the top level
pattern = re.compile(r"(<!-- schema-table: ?(\S*) -->\n)(.*?)(<!-- /schema-table -->)", re.S)
count = 0


def replace(m):
    global count
    count += 1
    return m.group(1) + "\n".join(table(m.group(2))) + "\n" + m.group(4)


new = pattern.sub(replace, text)
if count == 0:
    print(f"scene_schema_docs.py: no <!-- schema-table: ... --> markers in {doc_path}")
    sys.exit(1)
if CHECK:
    if new != text:
        import difflib
        diff = difflib.unified_diff(text.splitlines(), new.splitlines(), "committed", "from the schema", lineterm="", n=0)
        print("\n".join(list(diff)[:40]))
        print(f"scene_schema_docs.py: {doc_path.name} is not what {schema_path.name} makes: run 'make scene-docs'")
        sys.exit(1)
    print(f"scene_schema_docs.py: {count} tables of {doc_path.name} match the schema")
else:
    doc_path.write_text(new)
    print(f"scene_schema_docs.py: wrote {count} tables into {doc_path}")
