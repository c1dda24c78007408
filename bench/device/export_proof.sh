#!/bin/bash
# Run on the GPU machine from the repository root, with devbundle/ carried (scripts/device-bundle.sh):
#   bash bench/device/export_proof.sh   (what it finds goes to $OUT)
# Issue 27's proof: the CuPy and PyTorch exports of every kernel step (the solution, the first case)
# run there and pass. HOMES="cupy torch" by default; numba and cuda-core run too where installed.
export LD_LIBRARY_PATH=$PWD/devbundle/lib:/usr/local/cuda/lib64 XDG_CACHE_HOME=$(mktemp -d)
cli=$PWD/devbundle/bin/cuda-workbook-cli
dir=$(mktemp -d)
python3 -c "import cupy, torch, numpy; print('cupy', cupy.__version__, 'torch', torch.__version__, 'numpy', numpy.__version__)"
pass=0; fail=0; failed=""
for lesson in lessons/[0-9]*.json; do
  steps=$(python3 -c "import json,sys; l=json.load(open(sys.argv[1])); print(' '.join(s['id'] for s in l['steps'] if 'host' not in s))" "$lesson")
  for step in $steps; do
    for home in ${HOMES:-cupy torch}; do
      f=$dir/$(basename $lesson .json)_${step}_$home.py
      if ! $cli export $lesson --step $step --to $home --solution -o $f > /dev/null 2> $f.err; then
        echo "refused $lesson $step $home: $(cat $f.err)"; continue
      fi
      if timeout 300 python3 $f > $f.out 2>&1; then pass=$((pass + 1)); echo "pass $lesson $step $home: $(tail -1 $f.out)"
      else fail=$((fail + 1)); failed="$failed $lesson:$step:$home"; echo "FAIL $lesson $step $home:"; tail -5 $f.out | sed 's/^/    /'; fi
    done
  done
done
echo "exports: $pass passed, $fail failed${failed:+:$failed}"
tar czf $OUT/exports.tgz -C $dir .
