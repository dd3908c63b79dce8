#!/usr/bin/env python3
"""The scene schema checked by a JSON Schema validator, as an editor would use it.

Run by ctest (suction_scene_schema) with Debian's python3-jsonschema:
  validate_schema.py SCHEMA SCENES_DIR [MORE_SCENE_DIRS...]
- the schema is valid JSON Schema 2020-12 (against the meta-schema);
- every shipped scene and every coverage scene validates;
- a mistyped key, at the top, in settings, in a body, in a mesh generator and in a probe, is
  rejected with the pointer of the object that holds it; so is a wrong type and a number out
  of bounds, and an expression string "=..." is accepted where a number is.
The other direction (the schema names exactly the keys, kinds, bounds and defaults the C++
reader uses) is tests/scene/test_schema.cpp.
"""
import copy
import json
import pathlib
import sys

try:
    import jsonschema
except ImportError:
    print("validate_schema.py: python3-jsonschema is missing (scripts/install-deps.sh installs it)")
    sys.exit(1)

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def pointer(error):
    return "".join("/" + str(p) for p in error.absolute_path)


def errors(validator, doc):
    return list(validator.iter_errors(doc))


def nested(errs):
    """every error with those of the "oneOf" branches it stands for (what an editor lists)"""
    for e in errs:
        yield e
        yield from nested(e.context or [])


def main():
    schema_path = pathlib.Path(sys.argv[1])
    schema = json.loads(schema_path.read_text())
    cls = jsonschema.Draft202012Validator
    try:
        cls.check_schema(schema)
        check(True, "the schema is valid JSON Schema 2020-12")
    except jsonschema.exceptions.SchemaError as e:
        check(False, f"the schema is valid JSON Schema 2020-12: {e.message} at {list(e.absolute_schema_path)}")
        return
    v = cls(schema)

    scenes = {}
    for d in sys.argv[2:]:
        for f in sorted(pathlib.Path(d).glob("*.json")):
            scenes[f] = json.loads(f.read_text())
    check(len(scenes) > 20, f"{len(scenes)} scenes to validate")
    for f, doc in scenes.items():
        errs = errors(v, doc)
        detail = "; ".join(f"{pointer(e)}: {e.message[:160]}" for e in errs[:3])
        check(not errs, f"{f.name} validates" + (f" ({detail})" if errs else ""))

    ground = json.loads((pathlib.Path(sys.argv[2]) / "ground.json").read_text())

    def rejected(mutate, where, what):
        doc = copy.deepcopy(ground)
        mutate(doc)
        errs = errors(v, doc)
        at = sorted({pointer(e) for e in nested(errs)})
        check(any(p == where for p in at), f"{what}: rejected at {where} (errors at {at or 'none'})")

    rejected(lambda d: d.__setitem__("setings", {}), "", "a mistyped top-level key 'setings'")
    rejected(lambda d: d["settings"].setdefault("cavity", {}).__setitem__("leak_rat", 1),
             "/settings/cavity", "a mistyped key 'leak_rat' in settings.cavity")
    body = next(i for i, b in enumerate(ground["bodies"]) if b.get("type") == "fem")
    rejected(lambda d: d["bodies"][body].__setitem__("matrial", "x"), f"/bodies/{body}", "a mistyped body key 'matrial'")
    rejected(lambda d: d["bodies"][body]["mesh"].__setitem__("radios", 0.01), f"/bodies/{body}/mesh",
             "a mistyped mesh key 'radios'")
    rejected(lambda d: d["settings"].__setitem__("dt", "ten"), "/settings/dt", "a string that is not an expression for dt")
    rejected(lambda d: d["settings"].__setitem__("dt", -0.01), "/settings/dt", "a negative dt")
    rejected(lambda d: d["settings"].__setitem__("gravity", [0, 0]), "/settings/gravity", "a gravity of two numbers")
    rejected(lambda d: d["bodies"][body].__setitem__("type", "jelly"), f"/bodies/{body}", "an unknown body type")
    rejected(lambda d: d.setdefault("probes", []).append({"name": "p", "type": "cavity_pressure", "bodi": "cup"}),
             f"/probes/{len(ground.get('probes', []))}", "a mistyped probe key 'bodi'")
    doc = copy.deepcopy(ground)
    doc["settings"]["dt"] = "=0.005*2"
    check(not errors(v, doc), "an expression string is accepted where a number is")


main()
if failures:
    print(f"validate_schema.py: {len(failures)} failed")
    sys.exit(1)
print("validate_schema.py: all passed")
