#!/usr/bin/env python3
"""scripts/zh-hant-table.py: the Traditional Chinese (zh-Hant) table, made at build time.

    zh-hant-table.py --catalogue runtime/core/phrase.cpp --lessons lessons \
                     --terms runtime/core/zh_hant_terms.tsv --out zh_hant_table.cpp

Every Simplified Chinese string the workbook ships (the catalogue's "zh" column and every "zh"
text of the lessons in --lessons) goes through OpenCC's Taiwan conversion with phrases
(`opencc -c s2twp.json`, Debian's opencc), then through the workbook's own Traditional terms
(--terms, in order: where OpenCC keeps a mainland word or picks a wrong character, such as 字首和
for 前缀和). The output is a C++ file of sorted pairs that
runtime/core/zh_hant.cpp looks a string up in. Only the standard library and the opencc program
are used.
"""
import argparse
import json
import os
import pathlib
import re
import subprocess
import sys


def die(msg):
    print(f"zh-hant-table: {msg}", file=sys.stderr)
    sys.exit(1)


ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "'": "'", "r": "\r", "0": "\0"}


def c_string_tokens(text, where):
    """The catalogue's tokens: '{', '}', ',' and each string literal's value, comments skipped."""
    tokens = []
    i = 0
    while i < len(text):
        c = text[i]
        if c.isspace():
            i += 1
        elif text.startswith("//", i):
            i = text.index("\n", i) if "\n" in text[i:] else len(text)
        elif c in "{},":
            tokens.append(c)
            i += 1
        elif c == '"':
            i += 1
            out = []
            while text[i] != '"':
                if text[i] == "\\":
                    e = text[i + 1]
                    if e not in ESCAPES:
                        die(f"{where}: the escape \\{e} is not one this script reads")
                    out.append(ESCAPES[e])
                    i += 2
                else:
                    out.append(text[i])
                    i += 1
            i += 1
            # Adjacent literals are one string, as in C++.
            if tokens and isinstance(tokens[-1], list):
                tokens[-1].append("".join(out))
            else:
                tokens.append(["".join(out)])
        else:
            die(f"{where}: unexpected '{c}' at offset {i} of the catalogue")
    return ["".join(t) if isinstance(t, list) else t for t in tokens]


def catalogue_strings(path):
    src = pathlib.Path(path).read_text(encoding="utf-8")
    m = re.search(r"constexpr Entry kCatalogue\[\] = \{\n(.*?)\n\};", src, re.S)
    if not m:
        die(f"{path}: no 'constexpr Entry kCatalogue[] = {{ ... }};' found")
    tokens = c_string_tokens(m.group(1), path)
    out = []
    i = 0
    while i < len(tokens):
        # { key , en , zh } ,
        entry = tokens[i:i + 7]
        if len(entry) < 7 or entry[0] != "{" or entry[2] != "," or entry[4] != "," or entry[6] != "}":
            die(f"{path}: catalogue entry {len(out) + 1} is not {{\"key\", \"en\", \"zh\"}}: {entry}")
        out.append(entry[5])
        i += 7
        if i < len(tokens) and tokens[i] == ",":
            i += 1
    return out


def lesson_strings(folder):
    out = []

    def text_of(value):
        if isinstance(value, str):
            return value
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return "\n".join(value)  # as the loader joins lines (runtime/lesson/load_values.cpp)
        return None

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "zh" or key.startswith("zh-Hans") or key == "zh-CN":
                    t = text_of(value)
                    if t is not None:
                        out.append(t)
                        continue
                walk(value)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    for path in sorted(pathlib.Path(folder).glob("*.json")):
        if path.name.endswith(".schema.json"):
            continue
        try:
            walk(json.loads(path.read_text(encoding="utf-8")))
        except json.JSONDecodeError as e:
            die(f"{path}: line {e.lineno}: {e.msg}")
    return out


def read_terms(path):
    """OpenCC's word -> the workbook's word, one pair per line, tab-separated; '#' starts a comment."""
    terms = []
    for n, line in enumerate(pathlib.Path(path).read_text(encoding="utf-8").splitlines(), 1):
        line = line.split("#", 1)[0].rstrip()
        if not line:
            continue
        parts = line.split("\t")
        if len(parts) != 2 or not parts[0] or not parts[1]:
            die(f"{path}:{n}: expected 'OpenCC's word<TAB>the workbook's word', got {line!r}")
        terms.append((parts[0], parts[1]))
    return terms  # in the file's order: a line may rely on an earlier line's result


def convert(strings, opencc, config):
    # One JSON string a line: a newline inside a string stays "\n", which OpenCC leaves alone.
    lines = "\n".join(json.dumps(s, ensure_ascii=False) for s in strings) + "\n"
    try:
        done = subprocess.run([opencc, "-c", config], input=lines.encode("utf-8"), capture_output=True, check=True)
    except FileNotFoundError:
        die(f"'{opencc}' was not found: install Debian's opencc (scripts/workbook.sh deps does)")
    except subprocess.CalledProcessError as e:
        die(f"{opencc} -c {config} failed: {e.stderr.decode(errors='replace').strip()}")
    out = done.stdout.decode("utf-8").split("\n")
    if out and out[-1] == "":
        out.pop()
    if len(out) != len(strings):
        die(f"{opencc} gave {len(out)} lines for {len(strings)} strings")
    return [json.loads(line) for line in out]


def c_literal(s):
    out = ['"']
    for ch in s:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\0":
            out.append('\\0""')  # the "" ends the escape before a following digit
        elif ch == "?":
            out.append("\\?")  # never a trigraph
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--catalogue", required=True)
    ap.add_argument("--lessons", required=True)
    ap.add_argument("--terms", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--opencc", default="opencc")
    ap.add_argument("--config", default="s2twp.json")
    args = ap.parse_args()

    strings = sorted(set(catalogue_strings(args.catalogue) + lesson_strings(args.lessons)))
    converted = convert(strings, args.opencc, args.config)
    terms = read_terms(args.terms)
    pairs = []
    for simplified, traditional in zip(strings, converted):
        for opencc_word, ours in terms:
            traditional = traditional.replace(opencc_word, ours)
        pairs.append((simplified, traditional))
    # Sorted by the Simplified string's UTF-8 bytes, as std::string_view compares them.
    pairs.sort(key=lambda p: p[0].encode("utf-8"))

    body = [
        "// Generated by scripts/zh-hant-table.py from the catalogue and the lessons: do not edit.",
        "#include \"core/zh_hant_table.hpp\"",
        "",
        "namespace wb {",
        "",
        "const ZhHantPair kZhHantPairs[] = {",
    ]
    for s, t in pairs:
        body.append(f"    {{{c_literal(s)}, {c_literal(t)}}},")
    body += [
        "};",
        "",
        f"const std::size_t kZhHantPairCount = {len(pairs)};",
        "",
        "}  // namespace wb",
        "",
    ]
    out = pathlib.Path(args.out)
    text = "\n".join(body)
    # Unchanged output keeps its timestamp, so nothing recompiles for nothing.
    if not out.exists() or out.read_text(encoding="utf-8") != text:
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_suffix(".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, out)
    print(f"zh-hant-table: {len(pairs)} strings, {len(terms)} terms of our own")


if __name__ == "__main__":
    main()
