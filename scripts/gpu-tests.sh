#!/usr/bin/env bash
# scripts/gpu-tests.sh — every test that needs a GPU, in one go.
#
#   scripts/gpu-tests.sh [BIN_DIR] [--part K/N]
#
# Runs the gpu-labelled GoogleTest binary (every case of every shipped lesson,
# plus the runtime's GPU behaviours), then `cuda-workbook-cli check` on lessons/ and tests/data/lessons_good/
# with timings, and `device`. BIN_DIR holds cuda-workbook-cli and wb_gpu_tests:
# a build tree's binaries (default: build/cli and build/tests), or a bundle made
# by scripts/device-bundle.sh for a GPU machine that cannot build (bin/ + lib/).
# Logs go to $OUT when it is set (the device tool's output folder), else to build/gpu-logs.
#
# --part K/N runs the K-th of N parts, for a machine that limits one command's time (the lent
# GPU machine's is 10 minutes; the whole run is about 11): GoogleTest's own sharding splits the
# tests, lessons/ is dealt out by position, and the small test-lesson folders go to the last part.
# A whole run is every part from 1 to N: each part prints which part it was and what it covered,
# and a run that skips a part is not a whole run.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
BIN=""
PART=1
PARTS=1
while [[ $# -gt 0 ]]; do
  case "$1" in
    --part)
      [[ "${2:-}" =~ ^([0-9]+)/([0-9]+)$ ]] || { echo "gpu-tests: --part takes K/N, as 1/2, not '${2:-}'" >&2; exit 2; }
      PART=${BASH_REMATCH[1]}; PARTS=${BASH_REMATCH[2]}
      (( PART >= 1 && PART <= PARTS )) || { echo "gpu-tests: --part $PART/$PARTS: K must be 1 to N" >&2; exit 2; }
      shift 2 ;;
    *) BIN="$1"; shift ;;
  esac
done
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
GTEST_TOTAL_SHARDS=$PARTS GTEST_SHARD_INDEX=$((PART - 1)) "$GPU_TESTS" --gtest_color=no 2>&1 | tee "$LOGS/gpu-tests.txt" | grep -E "^\[ (figures|device|skipped |  FAILED|  PASSED|  SKIPPED) |^\[==========\]|Failure|error" 
[[ ${PIPESTATUS[0]} -eq 0 ]] || status=1

# This part's lessons: every N-th lesson file, from the K-th.
mapfile -t all_lessons < <(ls lessons/*.json | grep -v "\.schema\.json$")
part_lessons=()
for i in "${!all_lessons[@]}"; do (( i % PARTS == PART - 1 )) && part_lessons+=("${all_lessons[$i]}"); done
echo "== cuda-workbook-cli check lessons/ (${#part_lessons[@]} of ${#all_lessons[@]}: $(printf '%s ' "${part_lessons[@]##*/}"))"
# --trust: a bundle's CLI does not know this checkout's lessons/ as its shipped folder.
if (( ${#part_lessons[@]} > 0 )); then
  "$CLI" check --trust "${part_lessons[@]}" 2>&1 | tee "$LOGS/check.txt" || status=1
fi
# The test lessons go with the last part.
if (( PART == PARTS )); then
  echo "== cuda-workbook-cli check tests/data/lessons_good/"
  # The test lessons of every format feature: format 2, constants, multi-pass, a required memcheck.
  "$CLI" check --trust tests/data/lessons_good 2>&1 | tee "$LOGS/check-test-lessons.txt" || status=1

  echo "== cuda-workbook-cli check tests/data/host/"
  # The host-step test lesson: run() built by nvcc, its timeline and its target.
  "$CLI" check --trust tests/data/host 2>&1 | tee "$LOGS/check-host.txt" || status=1
fi

part_note=""
(( PARTS > 1 )) && part_note=" (part $PART of $PARTS)"
echo "== gpu-tests: $([[ $status -eq 0 ]] && echo PASSED || echo FAILED)$part_note"
exit $status
