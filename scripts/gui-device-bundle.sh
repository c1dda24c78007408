#!/usr/bin/env bash
# scripts/gui-device-bundle.sh — pack what the GUI needs to run under Xvfb on the lent GPU machine.
#
# That machine has the NVIDIA driver and the CUDA Toolkit but no X server, no
# GLFW, no Mesa and no fonts. This packs, from this Debian machine, Xvfb and
# xkbcomp with the XKB data, Mesa's software GL (GLX through glvnd, llvmpipe),
# GLFW and the fonts the app uses, with the shared-library closure of all of
# them and of the app (the C and C++ runtimes excepted: the target's are
# newer). The result is devbundle/gui.tar.xz (slow to make, rarely changes);
# the app itself goes in devbundle/bin by scripts/device-bundle.sh; scripts/gpu-gui-screens.sh
# unpacks and uses it. Rendering is in software; the kernels run on the GPU.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
STAGE="$(mktemp -d)/gui"
LIBDIR=/usr/lib/x86_64-linux-gnu
mkdir -p "$STAGE"/{bin,lib,dri,share/X11,fonts} "$ROOT/devbundle"

cp /usr/bin/Xvfb /usr/bin/xkbcomp "$STAGE/bin/"
cp "$LIBDIR/dri/swrast_dri.so" "$STAGE/dri/"
cp -r /usr/share/X11/xkb "$STAGE/share/X11/"
mkdir -p "$STAGE"/fonts/{dejavu,jetbrains-mono,wqy}
cp /usr/share/fonts/truetype/dejavu/DejaVuSans{,-Bold,Mono}.ttf "$STAGE/fonts/dejavu/"
cp /usr/share/fonts/truetype/jetbrains-mono/JetBrainsMono-Regular.ttf "$STAGE/fonts/jetbrains-mono/"
cp /usr/share/fonts/truetype/wqy/wqy-microhei.ttc "$STAGE/fonts/wqy/"

# glvnd's GLX loader finds Mesa's vendor library by name (__GLX_VENDOR_LIBRARY_NAME=mesa).
extra_libs=("$LIBDIR/libGLX_mesa.so.0" "$LIBDIR/libGL.so.1" "$LIBDIR/libGLX.so.0" "$LIBDIR/libGLdispatch.so.0")
skip='^(linux-vdso|ld-linux|libc\.so|libm\.so|libpthread|libdl\.so|librt\.so|libstdc\+\+|libgcc_s|libcuda|libnvrtc)'
declare -A seen
queue=("$STAGE/bin/Xvfb" "$STAGE/bin/xkbcomp" "$BUILD/app/cuda-workbook" "$STAGE/dri/swrast_dri.so" "${extra_libs[@]}")
for l in "${extra_libs[@]}"; do cp -L "$l" "$STAGE/lib/"; done
while ((${#queue[@]})); do
  f="${queue[0]}"; queue=("${queue[@]:1}")
  while read -r name path; do
    [[ -z "$path" || "$name" =~ $skip || -n "${seen[$name]:-}" ]] && continue
    seen[$name]=1
    cp -L "$path" "$STAGE/lib/$name"
    queue+=("$path")
  done < <(ldd "$f" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}')
done
strip --strip-unneeded "$STAGE"/lib/*.so* "$STAGE"/dri/*.so 2>/dev/null || true
XZ_OPT=-9 tar -C "$(dirname "$STAGE")" -cJf "$ROOT/devbundle/gui.tar.xz" gui
du -sh "$STAGE" "$ROOT/devbundle/gui.tar.xz"
