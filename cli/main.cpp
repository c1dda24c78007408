// cli/main.cpp — cuda-workbook-cli, the headless front end over wb_runtime.
//
// This file only dispatches. Each command is one file (cli/commands/<name>.cpp,
// cache in cli/cache_command.cpp) that declares a CommandSpec: its operands,
// options and help paragraph. command_line.cpp reads the command line with
// CLI11 and generates every --help from those declarations; what the commands
// share (exit codes, the trust gate, text helpers) is cli/common.hpp.
//
// Exit codes: common.hpp's Exit, listed by every --help and in docs/cli.md.
#include "cache_command.hpp"
#include "command_line.hpp"
#include "commands/commands.hpp"
#include "common.hpp"
#include "core/error.hpp"

#include <iostream>
#include <string>

namespace {

constexpr const char* kAbout = "cuda-workbook-cli — check, compile and run CUDA Workbook lessons without the GUI.";

constexpr const char* kFooter =
    "Every command takes --help and --json. compile, run, sweep and check need --trust for\n"
    "a lesson outside the shipped lessons folder: its CPU reference is C++ that would be\n"
    "compiled and run on this computer.\n"
    "\n";

}  // namespace

int main(int argc, char** argv) {
    using namespace wb::cli;
    const std::vector<CommandSpec> commands = {validate_command(), compile_command(), run_command(),
                                               check_command(),    device_command(),  inspect_command(),
                                               sweep_command(),    new_command(),     grade_command(),   export_command(), cache_command()};
    const CommandLine cl = read_command_line(commands, argc, argv, kAbout, std::string(kFooter) + kExitCodes);
    if (!cl.help.empty()) {
        std::cout << cl.help;
        return cl.exit_code;
    }
    const std::string who = "cuda-workbook-cli" + (cl.command ? " " + cl.command->name : std::string());
    if (!cl.error.empty()) {
        std::cerr << who << ": " << cl.error << "\n";
        return kUsage;
    }
    try {
        return cl.command->run(cl.args);
    } catch (const UsageError& e) {
        std::cerr << who << ": " << e.what() << "\n";
        return kUsage;
    } catch (const wb::Error& e) {
        std::cerr << who << ": " << e.describe() << "\n";
        return e.kind() == wb::ErrorKind::Usage ? kUsage : e.kind() == wb::ErrorKind::NoDevice ? kNoGpu : kInternal;
    } catch (const std::exception& e) {
        std::cerr << who << ": internal error: " << e.what() << "\n";
        return kInternal;
    }
}
