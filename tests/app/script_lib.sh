# tests/app/script_lib.sh — shared by the scripted GUI tests: runs
# cuda-workbook under Xvfb with a script read from stdin, in a private set of
# XDG folders, so no test touches the user's cache, config or saved work.
#
#   . script_lib.sh; make_home; run_script APP LESSONS [EXTRA ARGS] <<'END' ... END
# After run_script: $status is the exit status; $home/stdout, $home/stderr.

# Xvfb through tests/xvfb-run.sh: the status is always the command's.
wb_xvfb_run="$(cd "$(dirname "$0")/.." && pwd)/xvfb-run.sh"

make_home() {
    home=$(mktemp -d)
    trap 'rm -rf "$home"' EXIT
    export XDG_CACHE_HOME="$home/cache" XDG_CONFIG_HOME="$home/config" XDG_DATA_HOME="$home/data"
}

run_script() {
    app=$1 lessons=$2
    shift 2
    cat >"$home/script.txt"
    status=0
    # Run from the temporary folder so nothing the app might write lands in the tree.
    (cd "$home" && "$wb_xvfb_run" -s "-screen 0 1280x800x24" \
        "$app" --lessons "$lessons" --size 1280x800 --script "$home/script.txt" "$@" \
        >"$home/stdout" 2>"$home/stderr") || status=$?
    echo "--- stdout"; cat "$home/stdout"
    echo "--- stderr"; cat "$home/stderr"
}

# expect_ok: the script ran to its end (status 0).
expect_ok() {
    if [ "$status" -ne 0 ]; then
        echo "FAIL: $1 (cuda-workbook exited with status $status)"
        exit 1
    fi
    echo "ok: $1"
}
