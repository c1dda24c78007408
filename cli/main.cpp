// cli/main.cpp — cuda-workbook-cli, the headless front end over wb_runtime.
//
// This file only dispatches. Each command is one file (cli/commands/<name>.cpp,
// cache in cli/cache_command.cpp); what they share (exit codes, the argument
// reader, the trust gate, text helpers) is cli/common.hpp.
//
//   validate <lesson or folder...>            check lesson files
//   compile  <lesson> [--step S] [--arch A]   compile starters and solutions with NVRTC
//   run      <lesson> [options]               compile, run on the GPU, compare with the CPU reference
//   check    <lesson or folder...>            every solution passes every case; every starter compiles
//   device                                    what GPU (if any) this computer has
//   inspect  <lesson> --ptx|--sass|--resources|--occupancy   look inside a step's kernels
//   sweep    <lesson> [--blocks | --range N=SPEC]  a step across block sizes or a param's values
//   new      LESSON_ID [--dir D]              write a lesson to start from
//   cache    --stats | --clear                the disk caches' size, or clear them
//
// Exit codes: common.hpp's Exit, listed by every --help and in docs/cli.md.
#include "cache_command.hpp"
#include "commands/commands.hpp"
#include "common.hpp"
#include "core/error.hpp"

#include <iostream>
#include <string>

namespace {

constexpr const char* kMainHelp =
    "cuda-workbook-cli — check, compile and run CUDA Workbook lessons without the GUI.\n"
    "\n"
    "Usage: cuda-workbook-cli <command> [options]\n"
    "\n"
    "Commands:\n"
    "  validate <lesson.json...>    check lesson files against the format\n"
    "  compile  <lesson.json>       compile a step's starter and solution with NVRTC\n"
    "  run      <lesson.json>       run a step's kernel on the GPU against the CPU reference\n"
    "  check    <lesson or folder>  every solution passes every case, every starter compiles\n"
    "  device                       show the GPU, or why there is none\n"
    "  inspect  <lesson.json>       a step's PTX, SASS, resources or occupancy\n"
    "  sweep    <lesson.json>       a step across block sizes or a param's range, each point checked\n"
    "  new LESSON_ID [--dir D]      write a new lesson that passes, to start from\n"
    "  cache --stats | --clear      the disk caches' size and cap, or clear them\n"
    "\n"
    "Every command takes --help and --json. compile, run, sweep and check need --trust for\n"
    "a lesson outside the shipped lessons folder: its CPU reference is C++ that would be\n"
    "compiled and run on this computer.\n";

}  // namespace

int main(int argc, char** argv) {
    using namespace wb::cli;
    if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h" || std::string(argv[1]) == "help") {
        std::cout << kMainHelp << "\n" << kExitCodes;
        return argc < 2 ? kUsage : kOk;
    }
    std::string cmd = argv[1];
    try {
        if (cmd == "validate") return cmd_validate(argc, argv);
        if (cmd == "compile") return cmd_compile(argc, argv);
        if (cmd == "run") return cmd_run(argc, argv);
        if (cmd == "check") return cmd_check(argc, argv);
        if (cmd == "device") return cmd_device(argc, argv);
        if (cmd == "inspect") return cmd_inspect(argc, argv);
        if (cmd == "sweep") return cmd_sweep(argc, argv);
        if (cmd == "new") return cmd_new(argc, argv);
        if (cmd == "cache") return cmd_cache(argc, argv);
        std::cerr << "cuda-workbook-cli: unknown command '" << cmd << "' (commands: validate, compile, run, check, device, inspect, sweep, new, cache)\n";
        return kUsage;
    } catch (const UsageError& e) {
        std::cerr << "cuda-workbook-cli " << cmd << ": " << e.what() << "\n";
        return kUsage;
    } catch (const wb::Error& e) {
        std::cerr << "cuda-workbook-cli " << cmd << ": " << e.describe() << "\n";
        return e.kind() == wb::ErrorKind::Usage ? kUsage : e.kind() == wb::ErrorKind::NoDevice ? kNoGpu : kInternal;
    } catch (const std::exception& e) {
        std::cerr << "cuda-workbook-cli " << cmd << ": internal error: " << e.what() << "\n";
        return kInternal;
    }
}
