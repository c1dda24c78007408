#!/bin/sh
# tests/app/inside_views_test.sh — the results panel's Resources, PTX and SASS
# tabs, through the real window under Xvfb with no GPU.
#
# Opening Resources asks the worker to look inside the editor's text (a second
# compile with ptxas's report): the tiled matmul's kernel is listed with its
# registers and the occupancy at the launch panel's 16x16 block. Changing the
# block in the launch panel changes the occupancy line without a new compile.
# PTX lists instructions under the student's lines: with the caret on the
# line that accumulates the dot product, that line has instructions. SASS
# needs the toolkit's nvdisasm, which this machine may not have: then the tab
# says so and names the package (the GPU screenshots show it working).
#
#   inside_views_test.sh PATH/TO/cuda-workbook PATH/TO/lessons [SHOTS_DIR]
set -eu
app=$1 lessons=$2 keep=${3:-}
. "$(dirname "$0")/script_lib.sh"
make_home

# The solution's line with "sum +=" (the dot product over the tile).
line=$(grep -n "sum +=" "$lessons/06_matmul/solution_step3.cu" | head -n 1 | cut -d: -f1)
[ -n "$line" ] || { echo "FAIL: no 'sum +=' line in the tiled matmul solution"; exit 1; }

# With nvdisasm the SASS tab lists instructions; without, it says which package has it.
if command -v nvdisasm >/dev/null 2>&1 || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvdisasm" ]; then
    sass_check="expect-drawn-text sass:"
else
    sass_check="expect-drawn-text cuda-nvdisasm"
fi

run_script "$app" "$lessons" <<END
open matmul shared_memory_tiles
set-source $lessons/06_matmul/solution_step3.cu
wait
results-tab resources
frames 3
wait
frames 3
expect-drawn-text resources matmul_tiled
expect-drawn-text occupancy matmul_tiled 256 threads
set-block 32 32 1
frames 3
expect-drawn-text occupancy matmul_tiled 1024 threads
screenshot $home/inside-resources.png
results-tab ptx
set-caret $line
frames 3
wait
frames 3
expect-drawn-text ptx:
expect-drawn-text for line $line
screenshot $home/inside-ptx.png
results-tab sass
frames 3
wait
frames 3
$sass_check
END
expect_ok "the Resources, PTX and SASS tabs"
grep "drawn: " "$home/stdout" | grep -E "resources|occupancy|ptx|sass" || true
if grep -q "drawn: ptx: [0-9]* lines, 0 for line $line" "$home/stdout"; then
    echo "FAIL: the PTX listing has no instructions under line $line (sum +=)"
    exit 1
fi
[ -z "$keep" ] || cp "$home"/inside-*.png "$keep/"
echo "ok: resources, occupancy at two block sizes, PTX under the caret's line, SASS or why not"
