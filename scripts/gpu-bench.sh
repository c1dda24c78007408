#!/usr/bin/env bash
# scripts/gpu-bench.sh — the benchmarks that need a GPU, in one go, printing figures.
#
#   scripts/gpu-bench.sh [BIN_DIR]
#
# BIN_DIR as for scripts/gpu-tests.sh (default: the build tree; a bundle from
# scripts/device-bundle.sh on the lent GPU machine). Runs, with logs under
# $OUT (the device tool's output folder) or build/gpu-logs:
#   - bench/large_sizes.cpp: time and memory at the lessons' largest cases;
#   - `cuda-workbook-cli run` of vector add at 10^8 under /usr/bin/time, a cold process;
#   - bench/edit_loop.cpp over all 20 lessons (30 edits a kernel step, 10 a
#     host step, whose edit is an nvcc build), with CuPy when python3 has it;
#   - bench/fp16_peak_probe.cu, built here with nvcc, and its SASS opcodes.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
BIN="${1:-}"
if [[ -z "$BIN" ]]; then
  CLI="$ROOT/build/cli/cuda-workbook-cli" BENCH="$ROOT/build/bench"
else
  CLI="$BIN/bin/cuda-workbook-cli" BENCH="$BIN/bin"
  export LD_LIBRARY_PATH="$BIN/lib:${CUDA_HOME:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
LOGS="${OUT:-$ROOT/build/gpu-logs}"
mkdir -p "$LOGS"
export WB_SOURCE_DIR="$ROOT"
export XDG_CACHE_HOME="${XDG_CACHE_HOME:-$(mktemp -d)}"
status=0

echo "== cuda-workbook-cli run, vector add at 10^8, a cold process"
/usr/bin/time -v "$CLI" run --trust lessons/01_vector_add.json --step 2 --solution --param N=100000000 \
  >"$LOGS/cli_1e8.txt" 2>&1 || status=1
grep -E "^(time|check|result)|Elapsed|Maximum resident" "$LOGS/cli_1e8.txt"

echo "== bench/large_sizes.cpp (after ${SECONDS} s)"
"$BENCH/wb_bench_large" >"$LOGS/large.txt" 2>&1 || status=1
grep -E "end_to_end_ms|peak_growth|worker_before|kernel_ms|sent_mb" "$LOGS/large.txt"

echo "== bench/edit_loop.cpp (after ${SECONDS} s)"
cupy=""
python3 -c "import cupy" 2>/dev/null && cupy=--cupy
"$BENCH/wb_bench_edit_loop" $cupy >"$LOGS/edit_loop.txt" 2>&1 || status=1
grep -E "edit_p50|nvrtc_p50|edit_over_nvrtc_p50|edit_over_header_free|header_free_edit|rerun_p50|first_run|cupy" "$LOGS/edit_loop.txt"

echo "== bench/fp16_peak_probe.cu (after ${SECONDS} s)"
probe="$(mktemp -d)/fp16_peak_probe"
if nvcc -O3 -arch=sm_90 bench/fp16_peak_probe.cu -o "$probe"; then
  { "$probe"; cuobjdump -sass "$probe" | grep -oE "H(FMA2|ADD2|MUL2)(\.[A-Z0-9_]+)*|FFMA" | sort | uniq -c; } \
    2>&1 | tee "$LOGS/fp16_probe.txt"
else
  status=1
fi
echo "== gpu-bench: $([[ $status == 0 ]] && echo PASSED || echo FAILED) in ${SECONDS} s"
exit $status
