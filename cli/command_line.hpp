// cli/command_line.hpp — reads cuda-workbook-cli's command line with CLI11.
//
// Each command is a CommandSpec (common.hpp). Here each becomes a CLI11
// subcommand with its options, and --help is generated from them: main's list
// of commands, and each command's usage line, paragraph, options and exit codes.
// Only command_line.cpp includes CLI11.
#pragma once

#include "common.hpp"

#include <string>
#include <vector>

namespace wb::cli {

struct CommandLine {
    const CommandSpec* command = nullptr;  // the command given; null when there is none
    Args args;                             // its operands and options
    std::string help;                      // non-empty: print it to stdout and exit with exit_code
    std::string error;                     // non-empty: a usage mistake in one line (exit 2)
    int exit_code = kOk;
};

// `about` opens main's --help, before the usage line; `footer` ends it.
CommandLine read_command_line(const std::vector<CommandSpec>& commands, int argc, char** argv,
                              const std::string& about, const std::string& footer);

}  // namespace wb::cli
