#!/usr/bin/env bash
# scripts/capture-sanitizer-fixtures.sh — real compute-sanitizer reports, for the parser's CPU tests.
#
#   scripts/capture-sanitizer-fixtures.sh BIN_DIR OUT_DIR
#
# On a GPU machine with the CUDA Toolkit: runs the off-by-one vector_add under
# memcheck, the racy tiled matmul under racecheck (both report forms), and the
# lessons' solutions under both, through cuda-workbook-cli (the way the product
# runs them: a worker under compute-sanitizer) and directly under the tool.
# Copy OUT_DIR/*.txt that the tests name into tests/data/sanitizer/.
# BIN_DIR is a build tree's cli/ parent or a devbundle (bin/ + lib/).
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
BIN="$1"; OUTD="$2"
mkdir -p "$OUTD"
CLI="$BIN/bin/cuda-workbook-cli"; [[ -x "$CLI" ]] || CLI="$BIN/cli/cuda-workbook-cli"
export LD_LIBRARY_PATH="$BIN/lib:${CUDA_HOME:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export XDG_CACHE_HOME="${XDG_CACHE_HOME:-$(mktemp -d)}"
CS="${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer"
D=tests/data/sanitizer
VA=lessons/01_vector_add.json; MM=lessons/06_matmul.json
t() { local name=$1; shift; local s=$(date +%s%N); "$@" >"$OUTD/$name.txt" 2>&1; local rc=$?
      echo "$name rc=$rc $(( ($(date +%s%N) - s) / 1000000 )) ms" | tee -a "$OUTD/summary.txt"; }
"$CS" --version > "$OUTD/version.txt" 2>&1
# Does the tool pass fds 3 and 4 through to its target (the worker's pipes)?
"$CS" bash -c 'ls -l /proc/self/fd' 3</dev/null 4>/dev/null > "$OUTD/fds.txt" 2>&1
# Through the CLI, as shipped.
t cli_normal_offbyone   "$CLI" run $VA --case ragged --source $D/off_by_one.cu --no-timing
t cli_memcheck_offbyone "$CLI" run $VA --case ragged --source $D/off_by_one.cu --memcheck
t cli_memcheck_offbyone_json "$CLI" run $VA --case ragged --source $D/off_by_one.cu --memcheck --json
t cli_racecheck_racy    "$CLI" run $MM --step shared_memory_tiles --case ragged --source $D/racy_matmul.cu --racecheck
t cli_racecheck_racy_json "$CLI" run $MM --step shared_memory_tiles --case ragged --source $D/racy_matmul.cu --racecheck --json
t cli_memcheck_clean    "$CLI" run $VA --case ragged --solution --memcheck
t cli_racecheck_clean   "$CLI" run $MM --step shared_memory_tiles --case ragged --solution --racecheck
t cli_normal_large      "$CLI" run $VA --case large --solution --no-timing
t cli_memcheck_large    "$CLI" run $VA --case large --solution --memcheck
# Directly under the tool (default options: host backtraces and all), in-process.
t raw_memcheck_offbyone  "$CS" --tool memcheck "$CLI" run $VA --case ragged --source $D/off_by_one.cu --no-timing --in-process
t raw_racecheck_analysis "$CS" --tool racecheck --racecheck-report analysis "$CLI" run $MM --step shared_memory_tiles --case ragged --source $D/racy_matmul.cu --no-timing --in-process
t raw_racecheck_hazard   "$CS" --tool racecheck --racecheck-report hazard --print-limit 50 "$CLI" run $MM --step shared_memory_tiles --case ragged --source $D/racy_matmul.cu --no-timing --in-process
t raw_memcheck_clean     "$CS" --tool memcheck "$CLI" run $VA --case ragged --solution --no-timing --in-process
t raw_racecheck_clean    "$CS" --tool racecheck "$CLI" run $MM --step shared_memory_tiles --case ragged --solution --no-timing --in-process
