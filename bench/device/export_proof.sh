#!/bin/bash
# Run on the GPU machine from the repository root, with devbundle/ carried (scripts/device-bundle.sh):
#   bash bench/device/export_proof.sh   (what it finds goes to $OUT)
# Issue 27's proof: the CuPy and PyTorch exports of every kernel step (the solution, its first
# untimed case) run there and pass. HOMES="cupy torch" by default (numba, cuda-core where
# installed); JOBS files run at once (default 8: PyTorch's load_inline builds each file's
# extension with nvcc, about a minute each). LESSONS="0* 1*" exports only the lessons whose file
# names match those patterns, to split the PyTorch run over two of the device's 10-minute commands.
export LD_LIBRARY_PATH=$PWD/devbundle/lib:/usr/local/cuda/lib64 XDG_CACHE_HOME=$(mktemp -d)
cli=$PWD/devbundle/bin/cuda-workbook-cli
dir=$(mktemp -d)
python3 -c "import cupy, torch, numpy; print('cupy', cupy.__version__, 'torch', torch.__version__, 'numpy', numpy.__version__)"
python3 -c "import torch.utils.cpp_extension as c; c.verify_ninja_availability(); print('ninja: available')" 2>&1 | tail -1
for lesson in lessons/[0-9]*.json; do
  if [ -n "${LESSONS:-}" ]; then
    keep=""; set -f; for pat in $LESSONS; do case $(basename $lesson) in $pat) keep=1 ;; esac; done; set +f
    [ -n "$keep" ] || continue
  fi
  python3 - "$lesson" <<'PY' > $dir/steps.txt
import json, sys
l = json.load(open(sys.argv[1]))
for s in l["steps"]:  # host steps too: export refuses them, and the refusal is listed
    cases = s.get("checks", {}).get("cases") or l.get("checks", {}).get("cases", [])
    first = next((c["name"] for c in cases if not c.get("timing") and c.get("emulate", True)), cases[0]["name"] if cases else "")
    print(s["id"], first)
PY
  while read -r step case; do
    for home in ${HOMES:-cupy torch}; do
      f=$dir/$(basename $lesson .json)__${step}__$home.py
      $cli export $lesson --step $step --case "$case" --to $home --solution -o $f > /dev/null 2> $f.refused || rm -f $f
    done
  done < $dir/steps.txt
done
ls $dir/*.py | xargs -P ${JOBS:-8} -I{} sh -c 'timeout 420 python3 {} > {}.out 2>&1; echo $? > {}.rc'
pass=0; fail=0
for f in $dir/*.py; do
  rc=$(cat $f.rc); name=$(basename $f .py)
  if [ "$rc" = 0 ]; then pass=$((pass + 1)); echo "pass $name: $(grep -E 'passed' $f.out | tail -1)"
  else fail=$((fail + 1)); echo "FAIL $name (exit $rc):"; tail -4 $f.out | sed 's/^/    /'; fi
done
refused=0
for r in $dir/*.refused; do [ -s "$r" ] && refused=$((refused + 1)) && echo "refused $(basename $r .py.refused): $(cat $r)"; done
echo "exports: $pass passed, $fail failed, $refused refused (host steps; __constant__ for numba and cuda-core)"
tar czf $OUT/exports.tgz -C $dir .
