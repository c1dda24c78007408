#!/usr/bin/env python3
"""tests/schema/check_bad_lessons.py — broken lessons the loader refuses for a schema-level reason are refused by the schema too.

check_schema.py shows that the schema accepts every good lesson; this is the
other direction. tests/data/lessons_bad/expected.json gives, for each broken
lesson, where the C++ loader refuses it (json_path) and "schema": true or
false. true means the mistake is one a JSON Schema can state: a wrong JSON
type, a missing required key, an unknown key, a value outside an enum or a
pattern, a count or a number out of range. false means the JSON Schema cannot
see it: invalid JSON, a duplicate key, a limit of the loader (nesting depth),
uniqueness, cross-references (names used in expressions, args, views,
cases), comparisons between values (default vs min), shapes that do not fit
an init, paths that escape the lesson folder, and files that do not exist.

For every "schema": true entry, python3-jsonschema must report an error at
the loader's json_path or at one of its ancestors (for an unknown key or a
failed oneOf the schema reports the object that holds it), so the schema
refuses the lesson for the same mistake, not for an unrelated one. Every
entry must say true or false, so a new broken lesson gets a decision.

Usage: check_bad_lessons.py <lesson.schema.json> <lessons_bad dir>
Prints one line per entry and "N refused, M not"; exits 1 when a
schema-level mistake is not refused or an entry is unmarked (2 on bad usage).
"""
import json
import pathlib
import sys

try:
    import jsonschema
except ImportError:  # pragma: no cover - the Debian package python3-jsonschema provides it
    print("check_bad_lessons.py: python3-jsonschema is not installed (apt install python3-jsonschema)")
    sys.exit(2)


def loader_path(parts) -> str:
    """A jsonschema error path in the loader's spelling: steps[1].buffers[0].shape ("" for the root)."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def is_at_or_above(schema_path: str, path: str) -> bool:
    """True when schema_path is path itself or an ancestor of it ("a" of "a.b" and "a[0]", not of "ab")."""
    if schema_path == path:
        return True
    if schema_path == "":
        return False  # the root only counts for a root-level mistake
    return path.startswith(schema_path) and path[len(schema_path)] in ".["


def main(argv) -> int:
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[0])
        print("usage: check_bad_lessons.py <lesson.schema.json> <lessons_bad dir>")
        return 2
    schema_path, folder = pathlib.Path(argv[1]), pathlib.Path(argv[2])
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema)
    expected = json.loads((folder / "expected.json").read_text(encoding="utf-8"))

    refused = not_refused = failed = 0
    for name, want in expected.items():
        if not isinstance(want.get("schema"), bool):
            print(f'FAIL {name}: no "schema": true/false in expected.json')
            failed += 1
            continue
        if not want["schema"]:
            print(f"-    {name}: not schema-level ({want['message']})")
            continue
        try:
            data = json.loads((folder / name).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            print(f"FAIL {name}: marked schema-level but is not readable JSON: {e}")
            failed += 1
            continue
        errors = [(loader_path(e.absolute_path), e.message) for e in validator.iter_errors(data)]
        at_the_mistake = [e for e in errors if is_at_or_above(e[0], want["json_path"])]
        if at_the_mistake:
            refused += 1
            where, message = at_the_mistake[0]
            print(f"ok   {name}: refused at {where or '<root>'}: {message[:100]}")
        else:
            not_refused += 1
            failed += 1
            print(f"FAIL {name}: the loader refuses {want['json_path'] or '<root>'} ({want['message']}), "
                  f"the schema does not")
            for where, message in errors[:5]:
                print(f"     (the schema reports only {where or '<root>'}: {message[:100]})")
    print(f"{refused} refused, {not_refused} not")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
