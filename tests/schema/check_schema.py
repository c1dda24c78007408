#!/usr/bin/env python3
"""tests/schema/check_schema.py — validates lesson files against lessons/lesson.schema.json.

An independent check (python3-jsonschema, not our C++ loader) that the schema
and the lessons agree, so an editor using the schema never flags a lesson the
loader accepts, and the other way round for everything the schema can express.

Usage: check_schema.py <lessons dir> [<more lessons dir> ...]
The schema is always <first dir>/lesson.schema.json. Every *.json directly in
each folder, except *.schema.json, is checked; each must also set
"$schema": "./lesson.schema.json" so editors find the schema. Prints one line
per file and "N passed, M failed"; exits 1 when any failed (2 on bad usage).
"""
import json
import pathlib
import sys

try:
    import jsonschema
except ImportError:  # pragma: no cover - the Debian package python3-jsonschema provides it
    print("check_schema.py: python3-jsonschema is not installed (apt install python3-jsonschema)")
    sys.exit(2)

EXPECTED_SCHEMA_REF = "./lesson.schema.json"


def lesson_files(folder: pathlib.Path):
    return sorted(p for p in folder.glob("*.json") if p.is_file() and not p.name.endswith(".schema.json"))


def error_path(error) -> str:
    """The JSON path of a validation error in the loader's spelling: steps[1].buffers[0].shape."""
    out = ""
    for part in error.absolute_path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "<root>"


def check_file(path: pathlib.Path, validator) -> list:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        return [f"cannot read: {e}"]
    problems = []
    # best_match-style ordering: the deepest errors say the most.
    for err in sorted(validator.iter_errors(data), key=lambda e: (-len(e.absolute_path), str(e.message))):
        problems.append(f"{error_path(err)}: {err.message}")
    if isinstance(data, dict) and data.get("$schema") != EXPECTED_SCHEMA_REF:
        problems.append(f'$schema: expected "{EXPECTED_SCHEMA_REF}", got {json.dumps(data.get("$schema"))}')
    return problems


def main(argv) -> int:
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[0])
        print("usage: check_schema.py <lessons dir> [<more lessons dir> ...]")
        return 2
    folders = [pathlib.Path(a) for a in argv[1:]]
    schema_path = folders[0] / "lesson.schema.json"
    try:
        schema = json.loads(schema_path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        print(f"FAIL {schema_path}: cannot read the schema: {e}")
        return 1
    cls = jsonschema.validators.validator_for(schema)
    try:
        cls.check_schema(schema)
    except jsonschema.exceptions.SchemaError as e:
        print(f"FAIL {schema_path}: not a valid JSON Schema: {e.message}")
        return 1
    validator = cls(schema)

    passed = failed = 0
    for folder in folders:
        if not folder.is_dir():
            print(f"FAIL {folder}: not a folder")
            failed += 1
            continue
        for path in lesson_files(folder):
            problems = check_file(path, validator)
            if problems:
                failed += 1
                print(f"FAIL {path}")
                for p in problems[:20]:
                    print(f"     {p}")
            else:
                passed += 1
                print(f"ok   {path}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
