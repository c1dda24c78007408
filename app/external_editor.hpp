// app/external_editor.hpp — opens a file in the student's own editor
// ($VISUAL, else $EDITOR, else xdg-open) without blocking the window.
// The frame loop polls the file's modification time and reloads it.
#pragma once

#include <filesystem>
#include <string>

namespace wb::app {

// Starts the editor on `file` with posix_spawn. Returns its pid, or 0 with
// `error` set. A terminal editor ($EDITOR=vim) needs a terminal; setting
// $VISUAL to a windowed editor ("code --wait", "gedit") is the usual answer.
int spawn_external_editor(const std::filesystem::path& file, std::string& error);

// Collects the editor's exit status when it has ended; never blocks. True
// once the process is gone.
bool reap_external_editor(int pid);

}  // namespace wb::app
