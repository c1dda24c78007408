# scripts/lib/debian.sh — Debian suites other than the host's, from Debian's own archive, for the
# scripts that prove the workbook on another distribution (distro-test.sh, imgui-compat.sh).
#
# The mirror is the one this machine's apt already uses for Debian, else debootstrap's default;
# WB_DEBIAN_MIRROR overrides both. Packages are checked with the host's debian-archive-keyring.
# Source this file; it defines functions and changes nothing until one is called.

# The Debian mirror to use (a URL ending in /debian).
debian_mirror() {
  if [[ -n "${WB_DEBIAN_MIRROR:-}" ]]; then echo "$WB_DEBIAN_MIRROR"; return; fi
  local uri
  uri="$(grep -hoE '(https?|file)://[^ ]*/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
           /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n1 | tr -d ' ')"
  if [[ -z "$uri" && -r /usr/sbin/debootstrap ]]; then
    uri="$(sed -n 's/^DEF_MIRROR="\(.*\)"$/\1/p' /usr/sbin/debootstrap | head -n1)"
  fi
  [[ -n "$uri" ]] || { echo "no Debian mirror: set WB_DEBIAN_MIRROR" >&2; return 1; }
  echo "${uri%/}"
}

# debian_download SUITE DEST PACKAGE... — downloads the packages' .deb files from SUITE (such as
# trixie) into DEST, with apt's state kept in DEST/.apt so the host's apt is never touched.
debian_download() {
  local suite="$1" dest="$2"; shift 2
  local keyring=/usr/share/keyrings/debian-archive-keyring.gpg
  [[ -r "$keyring" ]] || { echo "missing $keyring: apt-get install debian-archive-keyring" >&2; return 1; }
  local mirror state="$dest/.apt"
  mirror="$(debian_mirror)" || return 1
  mkdir -p "$state/lists/partial" "$state/cache/archives/partial"
  echo "deb [signed-by=$keyring] $mirror $suite main" >"$state/sources.list"
  local o=(-o "Dir::Etc::SourceList=$state/sources.list" -o Dir::Etc::SourceParts=/dev/null
           -o "Dir::State::Lists=$state/lists" -o "Dir::Cache=$state/cache"
           -o APT::Architecture=amd64 -o APT::Sandbox::User=root -qq)
  apt-get "${o[@]}" update >/dev/null || { echo "apt-get update for $suite failed ($mirror)" >&2; return 1; }
  (cd "$dest" && apt-get "${o[@]}" download "$@") || { echo "could not download $* from $suite" >&2; return 1; }
}
