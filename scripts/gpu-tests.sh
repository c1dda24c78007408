#!/usr/bin/env bash
# scripts/gpu-tests.sh — every test that needs a GPU, in one go.
#
#   scripts/gpu-tests.sh [BIN_DIR]
#
# Runs the gpu-labelled GoogleTest binary (every case of every shipped lesson,
# plus the runtime's GPU behaviours), then `cuda-workbook-cli check` on lessons/ and tests/data/lessons_good/
# with timings, and `device`. BIN_DIR holds cuda-workbook-cli and wb_gpu_tests:
# a build tree's binaries (default: build/cli and build/tests), or a bundle made
# by scripts/device-bundle.sh for a GPU machine that cannot build (bin/ + lib/).
# Logs go to $OUT when it is set (the device tool's output folder), else to build/gpu-logs.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
BIN="${1:-}"
if [[ -z "$BIN" ]]; then
  CLI="$ROOT/build/cli/cuda-workbook-cli"
  GPU_TESTS="$ROOT/build/tests/wb_gpu_tests"
else
  CLI="$BIN/bin/cuda-workbook-cli"
  GPU_TESTS="$BIN/bin/wb_gpu_tests"
  export LD_LIBRARY_PATH="$BIN/lib:${CUDA_HOME:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
LOGS="${OUT:-$ROOT/build/gpu-logs}"
mkdir -p "$LOGS"
export WB_SOURCE_DIR="$ROOT" WB_CLI="$CLI"
export XDG_CACHE_HOME="${XDG_CACHE_HOME:-$(mktemp -d)}"

status=0
echo "== device"
"$CLI" device 2>&1 | tee "$LOGS/device.txt" || status=1
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv | tee -a "$LOGS/device.txt"

echo "== gpu-labelled tests"
"$GPU_TESTS" --gtest_color=no 2>&1 | tee "$LOGS/gpu-tests.txt" | grep -E "^\[ (figures|device|skipped |  FAILED|  PASSED|  SKIPPED) |^\[==========\]|Failure|error" 
[[ ${PIPESTATUS[0]} -eq 0 ]] || status=1

echo "== cuda-workbook-cli check lessons/"
# --trust: a bundle's CLI does not know this checkout's lessons/ as its shipped folder.
"$CLI" check --trust lessons 2>&1 | tee "$LOGS/check.txt" || status=1

echo "== cuda-workbook-cli check tests/data/lessons_good/"
# The test lessons of every format feature: format 2, constants, multi-pass, a required memcheck.
"$CLI" check --trust tests/data/lessons_good 2>&1 | tee "$LOGS/check-test-lessons.txt" || status=1

echo "== cuda-workbook-cli check tests/data/host/"
# The host-step test lesson: run() built by nvcc, its timeline and its target.
"$CLI" check --trust tests/data/host 2>&1 | tee "$LOGS/check-host.txt" || status=1

echo "== gpu-tests: $([[ $status -eq 0 ]] && echo PASSED || echo FAILED)"
exit $status
