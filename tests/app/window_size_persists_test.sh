#!/bin/sh
# tests/app/window_size_persists_test.sh — the window reopens at the size it was
# closed at: a first run at 900x650 is closed, a second run without --size
# opens at 900x650 (not the 1280x800 default), state.json holds the size and
# imgui.ini lands in the config folder (not the current one); --size still
# overrides the remembered size.
#
#   window_size_persists_test.sh PATH/TO/cuda-workbook PATH/TO/lessons
set -eu
. "$(dirname "$0")/script_lib.sh"
make_home
app=$1
lessons=$2

# Like run_script, but with the size given (or not) by the caller.
run_sized() {
    cat >"$home/script.txt"
    status=0
    (cd "$home" && "$wb_xvfb_run" -s "-screen 0 1600x1000x24" \
        "$app" --lessons "$lessons" --script "$home/script.txt" "$@" \
        >"$home/stdout" 2>"$home/stderr") || status=$?
    echo "--- stdout"; cat "$home/stdout"
    echo "--- stderr"; cat "$home/stderr"
}

run_sized --size 900x650 <<'END'
frames 2
expect-window-size 900 650
quit
END
expect_ok "the first run opened at 900x650"
state="$XDG_CONFIG_HOME/cuda-workbook/state.json"
python3 - "$state" <<'PY'
import json, sys
w = json.load(open(sys.argv[1]))["window"]
assert (w["width"], w["height"]) == (900, 650), f"state.json remembers {w}"
print("ok: state.json remembers", w)
PY
if [ ! -f "$XDG_CONFIG_HOME/cuda-workbook/imgui.ini" ]; then
    echo "FAIL: no imgui.ini in $XDG_CONFIG_HOME/cuda-workbook"
    exit 1
fi
if [ -e "$home/imgui.ini" ]; then
    echo "FAIL: imgui.ini was written to the current folder"
    exit 1
fi

run_sized <<'END'
frames 2
expect-window-size 900 650
quit
END
expect_ok "the second run, without --size, reopened at 900x650"

run_sized --size 1000x700 <<'END'
frames 2
expect-window-size 1000 700
quit
END
expect_ok "--size overrides the remembered size"
