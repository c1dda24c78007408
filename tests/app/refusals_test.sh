#!/bin/sh
# tests/app/refusals_test.sh — cuda-workbook refuses what it cannot do with a
# clear message and a non-zero status, and never crashes: no display, an
# unknown lesson id, a malformed option.
#
#   refusals_test.sh PATH/TO/cuda-workbook PATH/TO/lessons
set -u

app=$1
lessons=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache" XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data"
failed=0

# expect NAME STATUS PATTERN -- COMMAND...: COMMAND exits with STATUS and its
# stderr matches the extended regular expression PATTERN.
expect() {
    name=$1 want=$2 pattern=$3
    shift 4
    "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    if [ "$got" -ne "$want" ] || ! grep -Eq -e "$pattern" "$tmp/err"; then
        echo "FAIL: $name: exit $got (wanted $want), stderr:"
        cat "$tmp/err"
        failed=1
    else
        echo "ok: $name: $(head -n 1 "$tmp/err")"
    fi
}

expect "no display" 1 "DISPLAY|windowing system" -- \
    env -u DISPLAY -u WAYLAND_DISPLAY "$app" --lessons "$lessons" --frames 1
expect "unknown lesson" 2 "no lesson 'no_such_lesson'.*lessons: " -- \
    "$app" --lessons "$lessons" --lesson no_such_lesson
expect "missing lessons folder" 2 "no such folder" -- \
    "$app" --lessons "$tmp/not_there"
expect "bad frame count" 2 "--frames: wants a positive number, not .many." -- \
    "$app" --frames many
expect "screenshot without frames" 2 "--screenshot needs --frames" -- \
    "$app" --screenshot "$tmp/x.png"
expect "missing script" 2 "--script: .*no_script.txt" -- \
    "$app" --lessons "$lessons" --script "$tmp/no_script.txt"
expect "unknown option" 2 "unknown option '--colour'" -- \
    "$app" --colour

exit $failed
