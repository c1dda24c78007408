#!/bin/sh
# tests/app/check_memory_test.sh — "Check memory" runs the step under compute-sanitizer.
# With a GPU the off-by-one kernel's access past the end is found on its line;
# without one nothing runs under the tool and the run says compile-only.
#
#   check_memory_test.sh PATH/TO/cuda-workbook PATH/TO/lessons
set -eu
. "$(dirname "$0")/script_lib.sh"
make_home
kernel=$(dirname "$0")/../data/sanitizer/off_by_one.cu
if [ -e /dev/nvidiactl ]; then
    run_script "$1" "$2" <<END
emulator off
open vector_add one_thread_per_element
set-source $kernel
case ragged
check-memory
wait 300
expect-status sanitizer-errors
expect-sanitizer-finding 5
END
    expect_ok "memcheck finds the access past the end on line 5"
else
    run_script "$1" "$2" <<END
emulator off
open vector_add one_thread_per_element
set-source $kernel
case ragged
check-memory
wait 60
expect-status compile-only
END
    expect_ok "without a GPU, Check memory compiles and checks, and says nothing ran"
fi
