#!/usr/bin/env bash
# scripts/device-bundle.sh — pack the built binaries a GPU machine needs into devbundle/.
#
# The lent GPU machine has the CUDA Toolkit and g++ but none of our Debian
# libraries, and the build tree is too large to carry. This copies the CLI and
# the GPU test binary (stripped) plus the shared libraries they need that are
# not part of the base system, so `scripts/gpu-tests.sh devbundle` runs there.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
DEST="$ROOT/devbundle"
rm -rf "$DEST/bin" "$DEST/lib"   # gui.tar.xz (scripts/gui-device-bundle.sh) is kept
mkdir -p "$DEST/bin" "$DEST/lib"
for b in "$BUILD/cli/cuda-workbook-cli" "$BUILD/cli/cuda-workbook-worker" "$BUILD/tests/wb_gpu_tests" "$BUILD/app/cuda-workbook" \
         "$BUILD/bench/wb_bench_edit_loop" "$BUILD/bench/wb_bench_large"; do
  [[ -x "$b" ]] && strip -o "$DEST/bin/$(basename "$b")" "$b"
done
# The Debian libraries the GPU machine lacks: muparser, OpenMP's runtime, Boost.Context (the CPU emulator),
# nettle (SHA-256 for the caches).
for lib in $(ldd "$DEST/bin/cuda-workbook-cli" | awk '$1 ~ /^lib(muparser|gomp|boost_context|nettle)/ {print $1}'); do
  path=$(ldd "$DEST/bin/cuda-workbook-cli" | awk -v l="$lib" '$1==l {print $3}')
  [[ -n "$path" ]] && cp -L "$path" "$DEST/lib/"
done
du -sh "$DEST"
