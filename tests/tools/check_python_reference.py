#!/usr/bin/python3
"""tests/tools/check_python_reference.py DIR — a lesson step's NumPy reference
(its "python": {"reference": ...}) run on the inputs the C++ side made, and
its outputs compared with the C++ reference's, within the lesson's tolerance.

DIR holds meta.json ({"where", "params", "inputs", "outputs": [{"name",
"atol", "rtol"}], "code"}) and one <name>.npy per input and per C++ output
(in outputs/). A buffer or param whose name is a Python keyword (lesson 09's
`in`) is named with a trailing underscore (`in_`), as in the exported files. Exit 0 when every output agrees; 1 with the first
disagreement, named by output and index; 2 when the code fails or sets
nothing. Debian's python3 with python3-numpy (scripts/workbook.sh)."""
import json
import keyword
import os
import sys
import traceback

import numpy as np


def py_name(name):
    return name + "_" if keyword.iskeyword(name) else name


def main(folder):
    meta = json.load(open(os.path.join(folder, "meta.json")))
    where = meta["where"]
    scope = {"np": np}
    scope.update({py_name(k): v for k, v in meta["params"].items()})
    for name in meta["inputs"]:
        scope[py_name(name)] = np.load(os.path.join(folder, name + ".npy"))
    try:
        exec(compile(meta["code"], where, "exec"), scope)
    except Exception:
        print(f"{where}: the NumPy reference failed:\n{traceback.format_exc()}")
        return 2
    for out in meta["outputs"]:
        name = out["name"]
        want = np.load(os.path.join(folder, "outputs", name + ".npy"))
        if py_name(name) not in scope:
            print(f"{where}: the NumPy reference does not set '{py_name(name)}'")
            return 2
        got = np.asarray(scope[py_name(name)])
        if got.size != want.size:
            print(f"{where}: '{name}' has {got.size} elements in NumPy, {want.size} in the C++ reference "
                  f"(shape {tuple(got.shape)} vs {tuple(want.shape)})")
            return 1
        g = got.reshape(-1).astype(np.float64)
        w = want.reshape(-1).astype(np.float64)
        bad = ~(np.abs(g - w) <= out["atol"] + out["rtol"] * np.abs(w))
        bad |= np.isnan(g) != np.isnan(w)
        if bad.any():
            i = int(np.argmax(bad))
            print(f"{where}: '{name}' differs at flat index {i} ({int(bad.sum())} of {w.size} elements): "
                  f"NumPy {g[i]!r}, C++ {w[i]!r}, atol {out['atol']}, rtol {out['rtol']}")
            return 1
    print(f"{where}: agrees with the C++ reference on {len(meta['outputs'])} output(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
