#!/bin/sh
# xvfb-run -a, with the X authority file in a directory this script owns.
#
#   tests/xvfb-run.sh [xvfb-run options] COMMAND...
#
# Left to itself xvfb-run makes a temporary directory for the authority file
# and, when removing it fails (seen under parallel ctest), exits 5 in place of
# the command's status. Given -f it makes no directory, so the status returned
# here is always the command's.
dir=$(mktemp -d "${TMPDIR:-/tmp}/wb-xvfb.XXXXXX") || exit 1
: >"$dir/Xauthority"
xvfb-run -a -f "$dir/Xauthority" "$@"
status=$?
rm -rf "$dir"
exit $status
