// tests/gpu/gpu_test_support.hpp — shared helpers for the GPU-labelled tests.
#pragma once

#include "driver/cuda_driver.hpp"
#include "lesson/loader.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>

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
