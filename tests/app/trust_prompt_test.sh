#!/bin/sh
# tests/app/trust_prompt_test.sh — lessons from a folder that is not the
# shipped one are neither compiled nor run until the student trusts the
# folder: the app asks ("Trust lessons in <folder>?"); "Don't trust" leaves
# Run off with the reason and is not remembered (the next start asks again);
# "Trust" lets the lesson compile and run and is remembered, so the start
# after that does not ask.
#
#   trust_prompt_test.sh PATH/TO/cuda-workbook PATH/TO/lessons
set -eu
. "$(dirname "$0")/script_lib.sh"
make_home
theirs="$home/theirs"
mkdir -p "$theirs"
cp "$(dirname "$0")/../data/lessons_good/minimal.json" "$theirs/"
trusted="$XDG_CONFIG_HOME/cuda-workbook/trusted_folders.json"

run_script "$1" "$theirs" <<'END'
emulator off
expect-trust-prompt
answer-trust no
expect-run-disabled are not trusted
expect-run-disabled CPU reference is C++ that would be compiled and run on this computer
expect-drawn-run-button disabled
run
expect-run-not-started are not trusted
run-anyway
frames 5
wait
expect-history 0
expect-log Run is unavailable: lessons in
END
expect_ok "the prompt showed; after 'Don't trust' Run is drawn disabled with the reason, and nothing runs"
if grep -q "script: line [0-9]*: trust prompt for .*theirs" "$home/stdout"; then :; else
    echo "FAIL: the prompt did not name the folder"
    exit 1
fi
if [ -e "$trusted" ]; then
    echo "FAIL: 'Don't trust' was written to $trusted"
    exit 1
fi

run_script "$1" "$theirs" <<'END'
emulator off
expect-trust-prompt
answer-trust yes
run-anyway
wait
expect-status compile-only
END
expect_ok "after a restart the prompt showed again; after 'Trust' the lesson compiled and ran (compile-only)"
if ! grep -q "theirs" "$trusted"; then
    echo "FAIL: the trusted folder is not in $trusted"
    exit 1
fi

run_script "$1" "$theirs" <<'END'
emulator off
run-anyway
wait
expect-status compile-only
expect-trust-prompt
END
if [ "$status" -ne 3 ] || ! grep -q "no trust prompt: the open lesson is trusted" "$home/stderr"; then
    echo "FAIL: the third start asked again or did not run (status $status)"
    exit 1
fi
echo "ok: the third start remembered the answer: no prompt, and the lesson ran"
