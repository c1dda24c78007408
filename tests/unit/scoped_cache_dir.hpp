// tests/unit/scoped_cache_dir.hpp — test fixtures whose XDG_CACHE_HOME is a fresh
// folder, so compile and reference caches start empty and never touch the user's.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>

class ScopedCacheDirTest : public ::testing::Test {
protected:
    void SetUp() override {
        std::random_device rd;
        dir_ = std::filesystem::temp_directory_path() /
               ("wb-cache-test-" + std::to_string(rd()) + std::to_string(rd()));
        std::filesystem::create_directories(dir_);
        const char* old = std::getenv("XDG_CACHE_HOME");
        had_old_ = old != nullptr;
        if (old) old_ = old;
        setenv("XDG_CACHE_HOME", dir_.c_str(), 1);
    }
    void TearDown() override {
        if (had_old_)
            setenv("XDG_CACHE_HOME", old_.c_str(), 1);
        else
            unsetenv("XDG_CACHE_HOME");
        std::error_code ec;
        std::filesystem::remove_all(dir_, ec);
    }
    std::filesystem::path dir_;
    std::string old_;
    bool had_old_ = false;
};

// The same, with the CUDA driver switched off (WB_DISABLE_CUDA_DRIVER=1): runs
// end compile-only here and on a GPU machine alike.
class DriverOffTest : public ScopedCacheDirTest {
protected:
    void SetUp() override {
        ScopedCacheDirTest::SetUp();
        setenv("WB_DISABLE_CUDA_DRIVER", "1", 1);
    }
    void TearDown() override {
        unsetenv("WB_DISABLE_CUDA_DRIVER");
        ScopedCacheDirTest::TearDown();
    }
};
