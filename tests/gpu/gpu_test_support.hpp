// tests/gpu/gpu_test_support.hpp — shared helpers for the GPU-labelled tests.
#pragma once

#include "driver/cuda_driver.hpp"
#include "lesson/loader.hpp"
#include "pipeline/run.hpp"

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>

// The source tree and the CLI: compiled-in paths, overridable with
// WB_SOURCE_DIR / WB_CLI when the binaries run from a bundle on another machine.
inline std::string source_dir() {
    const char* e = std::getenv("WB_SOURCE_DIR");
    return e && *e ? e : WB_SOURCE_DIR;
}
inline std::string cli_path() {
    const char* e = std::getenv("WB_CLI");
    return e && *e ? e : WB_CLI_PATH;
}

// Runs the CLI with `args` (stderr joined to stdout): its exit status, -1
// when it did not exit normally (a crash), and everything it printed.
inline std::pair<int, std::string> run_cli(const std::string& args) {
    const std::string cmd = "'" + cli_path() + "' " + args + " 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return {-1, "popen failed"};
    std::string out;
    char buf[4096];
    std::size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    const int status = pclose(p);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

// Skips the current test, saying why, when there is no usable GPU.
#define WB_REQUIRE_GPU()                                                                                    \
    do {                                                                                                    \
        if (!wb::Driver::get()) GTEST_SKIP() << "needs an NVIDIA GPU: " << wb::Driver::unavailable_reason(); \
    } while (0)

inline std::shared_ptr<const wb::Lesson> load_shipped(const std::string& name) {
    auto r = wb::load_lesson(source_dir() + "/lessons/" + name);
    if (!r.ok()) return nullptr;
    return std::make_shared<const wb::Lesson>(std::move(*r.lesson));
}

// A trusted request for the solution of a shipped lesson's step and case, without buffers back.
inline wb::RunRequest solution_request(const std::string& lesson, const std::string& step, const std::string& test_case) {
    wb::RunRequest req;
    req.trusted = true;
    req.lesson = load_shipped(lesson);
    req.step = step;
    req.test_case = test_case;
    req.source = wb::SourceChoice::Solution;
    req.keep_buffers = false;
    return req;
}
