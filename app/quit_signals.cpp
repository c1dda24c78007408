// app/quit_signals.cpp — the SIGTERM and SIGINT handlers (quit_signals.hpp).
#include "quit_signals.hpp"

#include <csignal>

namespace wb::app {
namespace {

volatile std::sig_atomic_t g_quit_signal = 0;

extern "C" void record_quit_signal(int signal) { g_quit_signal = signal; }

void install(int signal) {
    struct sigaction old {};
    if (sigaction(signal, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) return;
    struct sigaction action {};
    action.sa_handler = record_quit_signal;
    sigemptyset(&action.sa_mask);
    // Neither interrupts the other's handler; after the first, this signal's
    // default action (termination) is back for the next one.
    sigaddset(&action.sa_mask, SIGTERM);
    sigaddset(&action.sa_mask, SIGINT);
    action.sa_flags = SA_RESETHAND;
    sigaction(signal, &action, nullptr);
}

}  // namespace

void install_quit_signals() {
    install(SIGTERM);
    install(SIGINT);
}

int quit_signal() { return g_quit_signal; }

int quit_signal_status(int signal) { return 128 + signal; }

}  // namespace wb::app
