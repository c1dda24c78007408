// app/quit_signals.hpp — SIGTERM and SIGINT end the app the orderly way.
//
// The handlers only record which signal came (async-signal-safe: one
// sig_atomic_t store). The frame loop checks quit_signal() every frame and
// leaves as if the window had been closed, so the unsaved edit, the session
// and the window's place are saved as on any exit. The loop never sleeps
// long: glfwWaitEventsTimeout returns early when the signal lands on the UI
// thread (EINTR), and after at most its timeout (0.5 s idle) when it lands on
// another thread. The same signal a second time ends the app at once
// (SA_RESETHAND): an exit that hangs can still be interrupted. A signal that was ignored when the app started (a background
// job of a script) stays ignored, the convention for interactive programs.
#pragma once

namespace wb::app {

// Installs both handlers. Call once, before any thread starts.
void install_quit_signals();
// The signal that asked the app to quit (SIGTERM or SIGINT), or 0.
int quit_signal();
// The exit status for a quit asked by `signal`: 128 + its number (143 for
// SIGTERM, 130 for SIGINT), the shells' convention, so a caller can tell the
// app was stopped by a signal though it saved and exited normally.
int quit_signal_status(int signal);

}  // namespace wb::app
