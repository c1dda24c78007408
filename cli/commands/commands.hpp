// cli/commands/commands.hpp — the commands of cuda-workbook-cli, one file each
// in this folder (cache in cli/cache_command.cpp). Each takes main's argc/argv
// (argv[1] is the command's name) and returns the process's exit code; a bad
// command line is thrown as UsageError (cli/common.hpp).
#pragma once

namespace wb::cli {

int cmd_validate(int argc, char** argv);  // validate.cpp
int cmd_compile(int argc, char** argv);   // compile.cpp
int cmd_run(int argc, char** argv);       // run.cpp
int cmd_check(int argc, char** argv);     // check.cpp
int cmd_device(int argc, char** argv);    // device.cpp
int cmd_new(int argc, char** argv);       // new.cpp
int cmd_inspect(int argc, char** argv);   // inspect.cpp
int cmd_sweep(int argc, char** argv);     // sweep.cpp

}  // namespace wb::cli
