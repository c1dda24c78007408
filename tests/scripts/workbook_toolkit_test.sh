#!/bin/sh
# tests/scripts/workbook_toolkit_test.sh — scripts/workbook.sh checks the CUDA Toolkit before it
# installs anything: a missing or too old toolkit stops it with the commands to run, and a good
# one is reported with the parts it has. Fake toolkits (two headers) stand in for old ones.
#
#   workbook_toolkit_test.sh SOURCE_DIR
set -u
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
wb() { env -u CUDA_PATH "$@" "$src/scripts/workbook.sh" deps >"$tmp/out" 2>&1; echo $? >"$tmp/rc"; }

# No toolkit where CUDA_HOME points: exit 1 before any package is looked at, with the commands.
wb CUDA_HOME="$tmp/nothing"
[ "$(cat "$tmp/rc")" = 1 ] || { cat "$tmp/out"; fail "a missing toolkit did not stop workbook.sh deps"; }
grep -q "CUDA_HOME=$tmp/nothing has no include/nvrtc.h" "$tmp/out" || { cat "$tmp/out"; fail "the error does not say where it looked"; }
grep -q "sudo apt-get install cuda-nvrtc-dev-13-0" "$tmp/out" || { cat "$tmp/out"; fail "the error does not say what to install"; }
grep -q "cuda-keyring" "$tmp/out" || { cat "$tmp/out"; fail "the error does not give NVIDIA's repository"; }
grep -q "installing\|all packages present" "$tmp/out" && fail "packages were looked at before the toolkit was checked"
echo "ok: a missing toolkit stops deps first, with the commands to run"

# CUDA 12.4: too old, named with its version.
mkdir -p "$tmp/cuda-12.4/include"
: >"$tmp/cuda-12.4/include/nvrtc.h"
echo "#define CUDA_VERSION 12040" >"$tmp/cuda-12.4/include/cuda.h"
wb CUDA_HOME="$tmp/cuda-12.4"
[ "$(cat "$tmp/rc")" = 1 ] || { cat "$tmp/out"; fail "CUDA 12.4 was accepted"; }
grep -q "is 12.4; the workbook needs 13.0 or newer" "$tmp/out" || { cat "$tmp/out"; fail "the error does not name 12.4 and 13.0"; }
grep -q "installing\|all packages present" "$tmp/out" && fail "packages were looked at before the toolkit was checked"
echo "ok: CUDA 12.4 is refused with its version"

# The real toolkit: accepted, with each optional part found or missing.
real="${CUDA_HOME:-/usr/local/cuda}"
env -u CUDA_PATH CUDA_HOME="$real" "$src/scripts/workbook.sh" toolkit >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "workbook.sh toolkit rejects $real"; }
grep -q "CUDA Toolkit 1[3-9]\.[0-9]*: $real" "$tmp/out" || { cat "$tmp/out"; fail "the toolkit's version is not reported"; }
for part in nvcc nvdisasm compute-sanitizer CUPTI; do
    grep -q "  $part: \(found\|missing\)" "$tmp/out" || { cat "$tmp/out"; fail "$part is not reported"; }
done
echo "ok: $(head -n1 "$tmp/out" | sed "s/\x1b\[[0-9;]*m//g")"
