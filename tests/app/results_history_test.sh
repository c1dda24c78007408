#!/bin/sh
# tests/app/results_history_test.sh — every run of a step is kept in this
# session's history of that step (the results panel plots it), and leaving
# the step and coming back does not lose it; another step has its own.
#
#   results_history_test.sh PATH/TO/cuda-workbook PATH/TO/lessons
set -eu
. "$(dirname "$0")/script_lib.sh"
make_home
run_script "$1" "$2" <<END
open vector_add one_thread_per_element
set-source $2/01_vector_add/solution_step1.cu
expect-history 0
run-anyway
wait
expect-history 1
case small
run-anyway
wait
expect-history 2
open matmul naive
expect-history 0
open vector_add one_thread_per_element
expect-history 2
END
expect_ok "two runs of a step are two entries of its history, kept across a change of lesson"
