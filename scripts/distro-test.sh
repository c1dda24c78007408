#!/usr/bin/env bash
# scripts/distro-test.sh — the README's test command on another Debian release, from Debian's own
# packages: proof that a fresh machine of that release builds and passes everything.
#
#   sudo scripts/distro-test.sh SUITE [COMMAND...]
#
#   SUITE    a Debian release debootstrap knows: trixie (Debian 13, with ImGui 1.90.1 and GLFW 3.4,
#            as Ubuntu 24.04 has), bookworm (Debian 12)
#   COMMAND  what to run in the copy of the checkout (default: scripts/workbook.sh test)
#
# It makes a minimal root of SUITE with debootstrap (cached as a tarball, unpacked anew each run,
# so every run starts from a machine with nothing installed), binds this machine's CUDA Toolkit in
# read-only, copies the checkout's files (tracked, and untracked but not ignored; no build folder),
# and runs COMMAND there as root with CI=true. The log goes to WB_DISTRO_DIR/SUITE.log, and the
# last lines printed are a summary: the release, its compiler, ImGui and GLFW, the test count and
# the time of each phase. Mounts are undone on exit, whatever happens.
#
# Needs root, debootstrap and about 6 GB in WB_DISTRO_DIR (default /var/tmp/cuda-workbook-distro).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=lib/debian.sh
source "$ROOT/scripts/lib/debian.sh"

say() { printf '\033[1m[distro-test]\033[0m %s\n' "$*"; }
die() { printf '\033[1;31m[distro-test] error:\033[0m %s\n' "$*" >&2; exit 1; }

(($# >= 1)) || die "usage: scripts/distro-test.sh SUITE [COMMAND...]"
SUITE="$1"; shift
COMMAND=("$@")
((${#COMMAND[@]})) || COMMAND=(scripts/workbook.sh test)
[[ "$SUITE" =~ ^[a-z]+$ ]] || die "SUITE is a Debian release name such as trixie, not '$SUITE'"
[[ $(id -u) -eq 0 ]] || die "debootstrap and chroot need root"
command -v debootstrap >/dev/null || die "debootstrap is missing: apt-get install debootstrap"

CUDA="$(readlink -f "${CUDA_HOME:-/usr/local/cuda}")"
[[ -f "$CUDA/include/nvrtc.h" ]] || die "no CUDA Toolkit at ${CUDA_HOME:-/usr/local/cuda} to bind in (set CUDA_HOME)"

WORK="${WB_DISTRO_DIR:-/var/tmp/cuda-workbook-distro}"
BASE="$WORK/$SUITE-minbase.tar"
RFS="$WORK/$SUITE"
LOG="$WORK/$SUITE.log"
mkdir -p "$WORK"

phase_names=(); phase_secs=()
phase() { phase_names+=("$1"); phase_secs+=("$2"); }

# 1. The base system, made once and kept as a tarball.
t0=$SECONDS
if [[ ! -f "$BASE" ]]; then
  mirror="$(debian_mirror)"
  say "debootstrap $SUITE from $mirror (kept as $BASE)"
  rm -rf "$RFS.bootstrap"
  debootstrap --variant=minbase --include=ca-certificates,git "$SUITE" "$RFS.bootstrap" "$mirror" \
    >"$WORK/$SUITE-debootstrap.log" 2>&1 || die "debootstrap failed: see $WORK/$SUITE-debootstrap.log"
  tar -C "$RFS.bootstrap" -cf "$BASE.part" . && mv "$BASE.part" "$BASE"
  rm -rf "$RFS.bootstrap"
fi
phase "base system" $((SECONDS - t0))

# 2. A fresh root from it, with the toolkit and this checkout.
t0=$SECONDS
mounts=()
cleanup() {
  local i
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    umount -R "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" 2>/dev/null || true
  done
}
trap cleanup EXIT
if [[ -d "$RFS" ]]; then
  findmnt -R -n -o TARGET "$RFS" >/dev/null 2>&1 && die "$RFS still has mounts from an earlier run: umount -R them first"
  rm -rf "$RFS"
fi
mkdir -p "$RFS"
tar -C "$RFS" -xf "$BASE"
cp /etc/resolv.conf "$RFS/etc/resolv.conf"
bind() {  # bind SOURCE TARGET [ro]
  mkdir -p "$2"
  mount --rbind "$1" "$2"; mounts+=("$2")
  [[ "${3:-}" == ro ]] && mount -o remount,bind,ro "$2"
  return 0
}
mount -t proc proc "$RFS/proc"; mounts+=("$RFS/proc")
mount -t sysfs sys "$RFS/sys"; mounts+=("$RFS/sys")
bind /dev "$RFS/dev"
mount -t tmpfs -o mode=1777 shm "$RFS/dev/shm"; mounts+=("$RFS/dev/shm")
bind "$CUDA" "$RFS/usr/local/cuda" ro

SRC=/root/cuda-workbook
mkdir -p "$RFS$SRC"
(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf -) | tar -C "$RFS$SRC" -xf -
phase "fresh root and checkout" $((SECONDS - t0))

# 3. The command, as on a new machine.
say "running '${COMMAND[*]}' in Debian $SUITE (log: $LOG)"
t0=$SECONDS
set +e
chroot "$RFS" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  LANG=C.UTF-8 CI=true TERM=dumb bash -c 'cd "$1" && shift && exec "$@"' _ "$SRC" "${COMMAND[@]}" 2>&1 | tee "$LOG"
rc=${PIPESTATUS[0]}
set -e
phase "${COMMAND[*]}" $((SECONDS - t0))

# 4. The summary.
in_root() { chroot "$RFS" /usr/bin/env -i PATH=/usr/bin:/bin bash -c "$1" 2>/dev/null || true; }
release="$(in_root '. /etc/os-release && echo "$PRETTY_NAME"')"
gxx="$(in_root 'g++ --version | head -n1')"
imgui="$(in_root "sed -n 's/^#define IMGUI_VERSION  *\"\\(.*\\)\"/\\1/p' /usr/include/imgui/imgui.h")"
glfw="$(in_root "dpkg-query -W -f='\${Version}' libglfw3-dev")"
clang="$(in_root 'clang --version | head -n1')"
echo
echo "== distro-test summary: Debian $SUITE =="
echo "release:   ${release:-?}"
echo "compiler:  ${gxx:-?}"
echo "clang:     ${clang:-not installed}"
echo "ImGui:     ${imgui:-not installed}"
echo "GLFW:      ${glfw:-not installed}"
echo "toolkit:   $CUDA (bound read-only)"
grep -E '^[0-9]+% tests passed|^Total Test time|passed, [0-9]+ failed|^The following tests' "$LOG" | sed 's/^/ctest:     /' || true
for i in "${!phase_names[@]}"; do
  printf 'time:      %-40s %dm%02ds\n' "${phase_names[i]}" $((phase_secs[i] / 60)) $((phase_secs[i] % 60))
done
echo "exit:      $rc"
exit "$rc"
