// app/app_run.hpp — runs the desktop app: finds and loads the lessons, opens
// the window, and draws frames until it is closed (or --frames runs out).
#pragma once

#include "app_options.hpp"

namespace wb::app {

// Returns the process exit status: 0 on a normal close, 1 when the window or
// GL context cannot be made, 2 for a usage mistake (unknown lesson id, ...).
// Messages go to stderr; one "opened lesson <id> step <id>" line to stdout.
int run_app(const AppOptions& options);

}  // namespace wb::app
