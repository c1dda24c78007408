#!/bin/sh
# tests/app/shaders_used_test.sh — the results views colour heat maps with the
# shaders in shaders/ (colormap.frag, difference.frag), and when a shader does
# not compile the app says why in its log, once, and still shows the picture
# coloured on the CPU. matmul's C is a heat map: compile-only (no GPU) shows
# the CPU reference's; with a GPU, GPU and CPU side by side.
#
#   shaders_used_test.sh PATH/TO/cuda-workbook PATH/TO/lessons [SHOTS_DIR]
# SHOTS_DIR (optional) keeps the screenshots.
set -eu
. "$(dirname "$0")/script_lib.sh"
make_home
app=$1 lessons=$2 keep=${3:-}
shaders=$(cd "$lessons/../shaders" && pwd)
unset WB_SHADERS_DIR
matmul_run() {
    cat <<END
open matmul naive
set-source $lessons/06_matmul/solution_step1.cu
case small
run-anyway
wait
expect-view matrix C
frames 5
END
}

# Not piped: run_script must run in this shell to set $status.
{ matmul_run; echo "expect-shaders loaded"; echo "screenshot $home/matmul_shaders.png"; } >"$home/loaded.txt"
run_script "$app" "$lessons" <"$home/loaded.txt"
expect_ok "matmul's heat map was coloured by the shaders in $shaders"
grep -q "^script: line [0-9]*: shaders: loaded" "$home/stdout" || { echo "FAIL: no 'shaders: loaded' line"; exit 1; }

# A colormap.frag that does not compile: the app logs the compiler's words
# once (two runs, one line) and falls back to CPU colours.
broken="$home/broken_shaders"
mkdir -p "$broken"
cp "$shaders"/*.vert "$shaders"/*.frag "$broken/"
sed -i 's/float v = texture(u_values, uv).r;/float v = wb_no_such_variable;/' "$broken/colormap.frag"
grep -q wb_no_such_variable "$broken/colormap.frag" || { echo "FAIL: could not break colormap.frag"; exit 1; }
export WB_SHADERS_DIR="$broken"
{ matmul_run; matmul_run; echo "expect-shaders fallback"; echo "screenshot $home/matmul_fallback.png"; } \
    >"$home/fallback.txt"
run_script "$app" "$lessons" <"$home/fallback.txt"
unset WB_SHADERS_DIR
expect_ok "a broken colormap.frag falls back to CPU colours"
grep -q "^shaders folder: $broken (\$WB_SHADERS_DIR)" "$home/stdout" ||
    { echo "FAIL: WB_SHADERS_DIR was not the shaders folder"; exit 1; }
# The log line names the file and carries the GLSL compiler's own message,
# which names the undeclared identifier (Mesa: "'wb_no_such_variable' undeclared").
if ! grep -q "colormap.frag: compile failed" "$home/stdout" || ! grep -q "wb_no_such_variable" "$home/stdout"; then
    echo "FAIL: the log does not hold the compiler's error for colormap.frag"
    exit 1
fi
if [ -n "$keep" ]; then cp "$home"/*.png "$keep/"; fi
echo "ok: shaders used when they build, logged once and replaced by CPU colours when they do not"
