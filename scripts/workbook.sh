#!/usr/bin/env bash
# scripts/workbook.sh — the one entry point for setting up, building, running and testing.
#
#   scripts/workbook.sh run    install what is missing, build, open the app on the first lesson
#   scripts/workbook.sh test   install what is missing, build, run every test (GUI tests under Xvfb)
#   scripts/workbook.sh build  install what is missing and build
#   scripts/workbook.sh deps   only install what is missing
#
# Needs a Debian/Ubuntu machine with the CUDA Toolkit (CUDA_HOME, or /usr/local/cuda).
# Packages come from apt; nothing is downloaded from anywhere else. No GPU is needed
# to build or to run the tests: tests that need one are labelled "gpu" and skip
# with a reason (scripts/gpu-tests.sh runs them on a GPU machine).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${WB_BUILD_DIR:-$ROOT/build}"
JOBS="${WB_JOBS:-$(nproc)}"

PACKAGES=(
  build-essential cmake ninja-build pkg-config python3
  nlohmann-json3-dev libmuparser-dev libstb-dev libmd4c-dev
  libimgui-dev libglfw3-dev python3-glad libgl-dev libgl1-mesa-dri
  googletest libgtest-dev python3-jsonschema
  xvfb xauth x11-utils desktop-file-utils librsvg2-bin
  clang libclang-rt-14-dev
  libboost-context-dev
  fonts-wqy-microhei fonts-jetbrains-mono fonts-dejavu-core
)

say() { printf '\033[1m[workbook]\033[0m %s\n' "$*"; }
die() { printf '\033[1;31m[workbook] error:\033[0m %s\n' "$*" >&2; exit 1; }

install_deps() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    say "installing: ${missing[*]}"
    local sudo=""
    if [[ $(id -u) -ne 0 ]]; then
      command -v sudo >/dev/null || die "not root and no sudo: install ${missing[*]} yourself"
      sudo="sudo"
    fi
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  else
    say "all packages present"
  fi
  find_cuda
}

find_cuda() {
  local c
  for c in "${CUDA_HOME:-}" "${CUDA_PATH:-}" /usr/local/cuda; do
    if [[ -n "$c" && -f "$c/include/nvrtc.h" ]]; then
      export CUDA_HOME="$c"
      export CUDAToolkit_ROOT="$c"
      say "CUDA Toolkit: $c"
      return
    fi
  done
  die "the CUDA Toolkit was not found (looked in \$CUDA_HOME, \$CUDA_PATH, /usr/local/cuda). Install it from NVIDIA's packages, then run this again."
}

build() {
  say "configuring in $BUILD"
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE="${WB_BUILD_TYPE:-RelWithDebInfo}" >/dev/null
  say "building with $JOBS jobs"
  cmake --build "$BUILD" -j "$JOBS"
}

run_tests() {
  say "running the test suite (GPU tests skip without a GPU and say why)"
  # Tests must not touch the user's caches: point XDG folders at a scratch area.
  local scratch
  scratch="$(mktemp -d)"
  trap 'rm -rf "$scratch"' RETURN
  XDG_CACHE_HOME="$scratch/cache" XDG_CONFIG_HOME="$scratch/config" XDG_DATA_HOME="$scratch/data" \
    ctest --test-dir "$BUILD" --output-on-failure -j "$JOBS"
}

open_app() {
  local app="$BUILD/app/cuda-workbook"
  [[ -x "$app" ]] || die "the app was not built ($app missing)"
  if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
    die "no display (DISPLAY and WAYLAND_DISPLAY are unset). On a headless machine use: $BUILD/cli/cuda-workbook-cli --help"
  fi
  say "opening CUDA Workbook"
  exec "$app" "$@"
}

cmd="${1:-}"
shift || true
case "$cmd" in
  deps) install_deps ;;
  build) install_deps; build ;;
  test) install_deps; build; run_tests ;;
  run) install_deps; build; open_app "$@" ;;
  *) echo "usage: scripts/workbook.sh run|test|build|deps" >&2; exit 2 ;;
esac
