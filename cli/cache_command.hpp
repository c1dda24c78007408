// cli/cache_command.hpp — `cuda-workbook-cli cache`: the disk caches' size, and clearing them.
#pragma once

namespace wb::cli {

// argv[1] is "cache". Returns the process's exit code (0, or 2 for a bad command line).
int cmd_cache(int argc, char** argv);

}  // namespace wb::cli
