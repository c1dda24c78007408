#!/usr/bin/env bash
# scripts/workbook.sh — the one entry point for setting up, building, running, testing and packaging.
#
#   scripts/workbook.sh run      check the toolkit, install what is missing, build the app, the CLI
#                                and the worker (nothing else), open the app on the first lesson
#   scripts/workbook.sh test     check and install as `run` does, build everything (tests, benchmarks),
#                                check that the app compiles against ImGui 1.90.1 (scripts/imgui-compat.sh),
#                                and run every test (GUI tests under Xvfb)
#   scripts/workbook.sh build    check, install what is missing, build the app, the CLI and the worker
#   scripts/workbook.sh package  build those three and make build/cuda-workbook_<version>_<arch>.deb
#   scripts/workbook.sh deps     check the toolkit and install what is missing, nothing more
#   scripts/workbook.sh toolkit  only check the CUDA Toolkit and say what each part of it adds
#
# Needs Debian 12 or 13, or Ubuntu 24.04 (natively or under WSL2), with the CUDA Toolkit 13.0 or
# newer (CUDA_HOME, CUDA_PATH or /usr/local/cuda): README.md, "Install", says how to get it. The
# toolkit is checked before anything is installed. Packages come from apt; nothing is downloaded
# from anywhere else. No GPU is needed to build or to run the tests: tests that need one are
# labelled "gpu" and skip with a reason (scripts/gpu-tests.sh runs them on a GPU machine).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${WB_BUILD_DIR:-$ROOT/build}"
JOBS="${WB_JOBS:-$(nproc)}"
# The oldest CUDA Toolkit the workbook is built and tested with (CMakeLists.txt checks the same).
CUDA_MIN_MAJOR=13
CUDA_MIN_MINOR=0
# What `run`, `build` and `package` build: the app and what it starts.
APP_TARGETS=(cuda-workbook cuda-workbook-cli cuda-workbook-worker)

PACKAGES=(
  build-essential cmake ninja-build pkg-config python3 dpkg-dev
  nlohmann-json3-dev libmuparser-dev libstb-dev libmd4c-dev nettle-dev libcli11-dev opencc
  libimgui-dev libglfw3-dev python3-glad libgl-dev libgl1-mesa-dri
  googletest libgtest-dev python3-jsonschema python3-png python3-numpy chromium
  xvfb xauth x11-utils desktop-file-utils librsvg2-bin
  clang
  libboost-context-dev
  bubblewrap
  slurm-wlm munge
  openssh-server openssh-client
  debian-archive-keyring
  fonts-wqy-microhei fonts-jetbrains-mono fonts-dejavu-core
)

say() { printf '\033[1m[workbook]\033[0m %s\n' "$*"; }
took() { local s=$((SECONDS - $1)); printf '%dm%02ds' $((s / 60)) $((s % 60)); }
die() { printf '\033[1;31m[workbook] error:\033[0m %s\n' "$*" >&2; exit 1; }

# The distribution's NVIDIA apt repository folder (ubuntu2404, debian12, wsl-ubuntu...), for messages.
nvidia_repo() {
  local id="" version=""
  if [[ -r /etc/os-release ]]; then
    id="$(. /etc/os-release && echo "${ID:-}")"
    version="$(. /etc/os-release && echo "${VERSION_ID:-}")"
  fi
  if grep -qi microsoft /proc/sys/kernel/osrelease 2>/dev/null; then echo wsl-ubuntu; return; fi
  case "$id" in
    ubuntu) echo "ubuntu${version//./}" ;;
    debian) echo "debian${version%%.*}" ;;
    *) echo "ubuntu2404" ;;
  esac
}

toolkit_help() {
  local repo; repo="$(nvidia_repo)"
  cat >&2 <<EOF

  Install the CUDA Toolkit ${CUDA_MIN_MAJOR}.${CUDA_MIN_MINOR} or newer from NVIDIA's apt repository (README.md, "Install"):

    wget https://developer.download.nvidia.com/compute/cuda/repos/${repo}/x86_64/cuda-keyring_1.1-1_all.deb
    sudo dpkg -i cuda-keyring_1.1-1_all.deb
    sudo apt-get update
    sudo apt-get install cuda-nvrtc-dev-13-0 cuda-cudart-dev-13-0 cuda-nvcc-13-0 \\
                         cuda-nvdisasm-13-0 cuda-sanitizer-13-0 cuda-cupti-dev-13-0 libcublas-dev-13-0

  A computer without an NVIDIA GPU needs it too: NVRTC compiles every kernel, also for the CPU
  emulator. If the toolkit is elsewhere, set CUDA_HOME to its folder and run this again.
EOF
}

# Finds the toolkit and checks its version, before anything is installed.
# CUDA_HOME, else CUDA_PATH, else /usr/local/cuda: a folder named in a variable is the only one
# looked at, so a wrong CUDA_HOME is reported rather than passed over.
find_cuda() {
  local found where
  if [[ -n "${CUDA_HOME:-}" ]]; then found="$CUDA_HOME"; where="CUDA_HOME=$CUDA_HOME"
  elif [[ -n "${CUDA_PATH:-}" ]]; then found="$CUDA_PATH"; where="CUDA_PATH=$CUDA_PATH"
  else found=/usr/local/cuda; where="/usr/local/cuda (CUDA_HOME is not set)"
  fi
  if [[ ! -f "$found/include/nvrtc.h" || ! -f "$found/include/cuda.h" ]]; then
    printf '\033[1;31m[workbook] error:\033[0m %s\n' "the CUDA Toolkit was not found: $where has no include/nvrtc.h and include/cuda.h." >&2
    toolkit_help
    exit 1
  fi
  local v major minor
  v="$(sed -n 's/^#define CUDA_VERSION \([0-9]*\).*/\1/p' "$found/include/cuda.h" | head -n1)"
  [[ -n "$v" ]] || die "$found/include/cuda.h has no CUDA_VERSION: is $found a CUDA Toolkit?"
  major=$((v / 1000)); minor=$(((v % 1000) / 10))
  if ((major < CUDA_MIN_MAJOR || (major == CUDA_MIN_MAJOR && minor < CUDA_MIN_MINOR))); then
    printf '\033[1;31m[workbook] error:\033[0m %s\n' "the CUDA Toolkit in $found is $major.$minor; the workbook needs $CUDA_MIN_MAJOR.$CUDA_MIN_MINOR or newer." >&2
    toolkit_help
    exit 1
  fi
  export CUDA_HOME="$found" CUDAToolkit_ROOT="$found"
  say "CUDA Toolkit $major.$minor: $found"
  local part
  for part in "nvcc:host-code steps (lessons 16-20)" "nvdisasm:the SASS tab" \
              "compute-sanitizer:Check memory and Check races"; do
    if [[ -x "$found/bin/${part%%:*}" ]]; then
      say "  ${part%%:*}: found, for ${part#*:}"
    else
      say "  ${part%%:*}: missing (needed for ${part#*:}; everything else works)"
    fi
  done
  if compgen -G "$found/lib*/libcupti.so*" >/dev/null || compgen -G "$found/extras/CUPTI/lib64/libcupti.so*" >/dev/null; then
    say "  CUPTI: found, for host steps' timelines"
  else
    say "  CUPTI: missing (host steps run, without a timeline)"
  fi
}

# The libFuzzer runtime of the distribution's own clang: libclang-rt-N-dev for clang N.
clang_runtime_package() {
  local major=""
  if command -v clang >/dev/null; then
    major="$(clang -dumpversion 2>/dev/null | cut -d. -f1)"
  else
    major="$(apt-cache depends clang 2>/dev/null | sed -n 's/^ *Depends: clang-\([0-9][0-9]*\)$/\1/p' | head -n1)"
  fi
  [[ -n "$major" ]] && echo "libclang-rt-$major-dev"
}

missing_packages() {
  local p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
  done
}

install_deps() {
  find_cuda
  local sudo=""
  if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
  local missing rt
  mapfile -t missing < <(missing_packages "${PACKAGES[@]}")
  rt="$(clang_runtime_package || true)"
  if [[ -n "$rt" ]]; then mapfile -t -O "${#missing[@]}" missing < <(missing_packages "$rt"); fi
  if ((${#missing[@]})); then
    if [[ -n "$sudo" ]] && ! command -v sudo >/dev/null; then die "not root and no sudo: install ${missing[*]} yourself"; fi
    say "installing: ${missing[*]}"
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    # clang's version is known only once the package lists are: look again now.
    if [[ -z "$rt" ]]; then
      rt="$(clang_runtime_package || true)"
      [[ -n "$rt" ]] && missing+=("$rt")
    fi
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  else
    say "all packages present"
  fi
}

configure() {
  say "configuring in $BUILD"
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE="${WB_BUILD_TYPE:-RelWithDebInfo}" >/dev/null
}

build_app() {
  configure
  say "building the app, the CLI and the worker with $JOBS jobs"
  local t0=$SECONDS
  cmake --build "$BUILD" -j "$JOBS" --target "${APP_TARGETS[@]}"
  say "built the app, the CLI and the worker in $(took $t0)"
}

build_all() {
  configure
  say "building everything (tests, benchmarks) with $JOBS jobs"
  local t0=$SECONDS
  cmake --build "$BUILD" -j "$JOBS"
  say "built everything in $(took $t0)"
}

run_tests() {
  say "running the test suite (GPU tests skip without a GPU and say why)"
  # Tests must not touch the user's caches: point XDG folders at a scratch area.
  local scratch
  scratch="$(mktemp -d)"
  trap 'rm -rf "$scratch"' RETURN
  # ctest's summary stays the last thing printed (its "Total Test time" is the tests' time).
  XDG_CACHE_HOME="$scratch/cache" XDG_CONFIG_HOME="$scratch/config" XDG_DATA_HOME="$scratch/data" \
    ctest --test-dir "$BUILD" --output-on-failure -j "$JOBS"
}

# The app's sources against ImGui 1.90.1 (Debian 13, Ubuntu 24.04), when the host has an older one.
imgui_compat() {
  local host
  host="$(sed -n 's/^#define IMGUI_VERSION_NUM *\([0-9]*\).*/\1/p' /usr/include/imgui/imgui.h 2>/dev/null | head -n1)"
  if [[ -n "$host" && "$host" -ge 19010 ]]; then
    say "ImGui on this machine is already 1.90.1 or newer: the build above was the compile check"
    return
  fi
  WB_JOBS="$JOBS" "$ROOT/scripts/imgui-compat.sh" "$BUILD"
}

package() {
  build_app
  say "making the .deb (CPack)"
  (cd "$BUILD" && cpack -G DEB -C "${WB_BUILD_TYPE:-RelWithDebInfo}" >/dev/null)
  local deb
  deb="$(ls -t "$BUILD"/cuda-workbook_*.deb | head -n1)"
  say "package: $deb"
  say "install it with: sudo apt-get install $deb"
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
  toolkit) find_cuda ;;
  deps) install_deps ;;
  build) install_deps; build_app ;;
  test) install_deps; build_all; imgui_compat; run_tests ;;
  run) install_deps; build_app; open_app "$@" ;;
  package) install_deps; package ;;
  *) echo "usage: scripts/workbook.sh run|test|build|package|deps|toolkit" >&2; exit 2 ;;
esac
