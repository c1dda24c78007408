#!/bin/sh
# tests/app/diagnostics_cap_test.sh — a compile with more diagnostics than the
# runtime lists (200, kMaxDiagnostics) shows the first 200 and says how many
# more there are, at the top of the list where it is seen without
# scrolling: "200 listed, and 50 more not shown", in English and Chinese.
#
#   diagnostics_cap_test.sh PATH/TO/cuda-workbook PATH/TO/lessons
set -eu
. "$(dirname "$0")/script_lib.sh"
make_home
# A correct kernel with 250 unused variables: 250 warnings, no error.
kernel="$home/many_warnings.cu"
{
    echo 'extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)'
    echo '{'
    echo '    int i = blockIdx.x * blockDim.x + threadIdx.x;'
    echo '    if (i < n) c[i] = a[i] + b[i];'
    i=1
    while [ $i -le 250 ]; do
        echo "    int unused_$i;"
        i=$((i + 1))
    done
    echo '}'
} >"$kernel"

run_script "$1" "$2" <<END
open vector_add one_thread_per_element
set-source $kernel
compile
wait
expect-compiled
expect-drawn-text 200 listed, and 50 more not shown
expect-drawn-text unused_1"
END
expect_ok "250 warnings: 200 listed, and 50 more"

run_script "$1" "$2" --lang zh <<END
open vector_add one_thread_per_element
set-source $kernel
compile
wait
expect-drawn-text 列出 200 条，另有 50 条未显示
END
expect_ok "the same in Chinese"

# The step's own starter again (the work saved above would come back on open).
run_script "$1" "$2" <<END
open vector_add one_thread_per_element
set-source $2/01_vector_add/starter_step1.cu
compile
wait
expect-no-drawn-text more not shown
END
expect_ok "a compile under the cap says nothing about more"
