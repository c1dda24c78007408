// cli/cache_command.hpp — `cuda-workbook-cli cache`: the disk caches' size, and clearing them.
#pragma once

#include "common.hpp"

namespace wb::cli {

// Exits 0, or 2 for a bad command line.
CommandSpec cache_command();

}  // namespace wb::cli
