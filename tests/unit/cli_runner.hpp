// tests/unit/cli_runner.hpp — runs cuda-workbook-cli as a user would, for the CLI tests.
// The driver is switched off (WB_DISABLE_CUDA_DRIVER=1) so the tests behave the
// same on a GPU machine as in CI.
#pragma once

#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

struct CliResult {
    int code = -1;
    std::string out;  // stdout and stderr together
};

// `env` is prepended to the command, e.g. "XDG_CACHE_HOME=/tmp/x".
inline CliResult run_cli(const std::string& args, const std::string& env = "") {
    std::string cmd = "cd '" WB_SOURCE_DIR "' && " + env + " WB_DISABLE_CUDA_DRIVER=1 '" WB_CLI_PATH "' " + args + " 2>&1";
    CliResult r;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return r;
    std::array<char, 4096> buf;
    std::size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
    int status = pclose(p);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

inline bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }
