// cli/commands/commands.hpp — the commands of cuda-workbook-cli, one file each
// in this folder (cache in cli/cache_command.hpp). Each returns its CommandSpec
// (cli/common.hpp): operands, options and help for CLI11 to read and list, and
// the function that runs it with the Args read and returns the process's exit
// code; a bad command line is thrown as UsageError.
#pragma once

#include "common.hpp"

namespace wb::cli {

CommandSpec validate_command();  // validate.cpp
CommandSpec compile_command();   // compile.cpp
CommandSpec run_command();       // run.cpp
CommandSpec check_command();     // check.cpp
CommandSpec device_command();    // device.cpp
CommandSpec new_command();       // new.cpp
CommandSpec inspect_command();   // inspect.cpp
CommandSpec sweep_command();     // sweep.cpp
CommandSpec grade_command();     // grade.cpp
CommandSpec export_command();    // export.cpp

}  // namespace wb::cli
