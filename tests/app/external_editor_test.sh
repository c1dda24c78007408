#!/bin/sh
# tests/app/external_editor_test.sh — "Open in external editor" writes the
# step's work file, starts $VISUAL on it without blocking the window, and
# reloads the text when the file changes. The "editor" here is a tiny script
# that appends a line, as a student saving in their own editor would.
#
#   external_editor_test.sh PATH/TO/cuda-workbook PATH/TO/lessons
set -eu
. "$(dirname "$0")/script_lib.sh"
make_home
cat >"$home/fake_editor.sh" <<'END'
#!/bin/sh
sleep 0.5
echo "// written by the external editor" >>"$1"
END
chmod +x "$home/fake_editor.sh"
VISUAL="$home/fake_editor.sh" run_script "$1" "$2" <<'END'
open rgb_to_gray
open-external
sleep 3
expect-source-contains // written by the external editor
END
expect_ok "the text changed in the external editor was reloaded"
