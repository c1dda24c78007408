// cli/cache_command.cpp — `cuda-workbook-cli cache --stats | --clear [--json]`.
//
// Shows each of the workbook's disk caches (compiled kernels, CPU reference
// libraries) with its folder, entry count, size and cap, or removes their
// entries and says how much was freed. The policy (what an entry is, the caps,
// which temporary files are safe to remove) is runtime/core/disk_cache.hpp's;
// this file only prints it.
#include "cache_command.hpp"

#include "core/disk_cache.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>

using nlohmann::json;

namespace wb::cli {

namespace {

std::string bytes_human(std::uint64_t bytes) {
    double b = double(bytes);
    char buf[64];
    if (b >= double(1 << 30)) std::snprintf(buf, sizeof buf, "%.1f GiB", b / double(1 << 30));
    else if (b >= double(1 << 20)) std::snprintf(buf, sizeof buf, "%.1f MiB", b / double(1 << 20));
    else if (b >= double(1 << 10)) std::snprintf(buf, sizeof buf, "%.1f KiB", b / double(1 << 10));
    else std::snprintf(buf, sizeof buf, "%.0f B", b);
    return buf;
}

std::string plural(std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

int stats(bool as_json) {
    json arr = json::array();
    for (const auto& f : cache_folders()) {
        CacheStats s = cache_stats(f);
        if (as_json) {
            arr.push_back({{"name", f.name},
                           {"dir", f.dir.string()},
                           {"entries", s.entries},
                           {"bytes", s.bytes},
                           {"temp_files", s.temp_files},
                           {"temp_bytes", s.temp_bytes},
                           {"max_bytes", f.max_bytes},
                           {"cap_source", f.cap_source}});
            continue;
        }
        std::cout << f.name << ": " << f.dir.string() << "\n"
                  << "  " << plural(s.entries, "entry", "entries") << ", " << bytes_human(s.bytes) << " of a "
                  << bytes_human(f.max_bytes) << " cap (" << f.cap_source << ")\n";
        if (s.temp_files)
            std::cout << "  " << plural(s.temp_files, "temporary file", "temporary files") << ", "
                      << bytes_human(s.temp_bytes) << "\n";
    }
    if (as_json) std::cout << json{{"caches", arr}}.dump(2) << "\n";
    return kOk;
}

int clear(bool as_json) {
    json arr = json::array();
    std::uint64_t freed = 0;
    for (const auto& f : cache_folders()) {
        CacheCleanup c = clear_cache(f);
        freed += c.bytes_freed;
        if (as_json) {
            arr.push_back({{"name", f.name},
                           {"dir", f.dir.string()},
                           {"entries_removed", c.entries_removed},
                           {"temp_removed", c.temp_removed},
                           {"temp_kept", c.temp_kept},
                           {"bytes_freed", c.bytes_freed}});
            continue;
        }
        std::cout << f.name << ": removed " << plural(c.entries_removed, "entry", "entries");
        if (c.temp_removed) std::cout << " and " << plural(c.temp_removed, "stale temporary file", "stale temporary files");
        std::cout << ", freed " << bytes_human(c.bytes_freed) << " (" << f.dir.string() << ")\n";
        if (c.temp_kept)
            std::cout << "  kept " << plural(c.temp_kept, "temporary file", "temporary files")
                      << " younger than " << kStaleTempAge.count() / 60 << " minutes: a compile may be writing them\n";
    }
    if (as_json) std::cout << json{{"cleared", arr}, {"bytes_freed", freed}}.dump(2) << "\n";
    else std::cout << "freed " << bytes_human(freed) << " in all\n";
    return kOk;
}

int run_cache(const Args& a) {
    if (a.flag("--stats") == a.flag("--clear"))
        throw UsageError("give one of --stats or --clear (see: cuda-workbook-cli cache --help)");
    return a.flag("--clear") ? clear(a.flag("--json")) : stats(a.flag("--json"));
}

}  // namespace

CommandSpec cache_command() {
    CommandSpec c;
    c.name = "cache";
    c.operands = "--stats | --clear";
    c.summary = "the disk caches' size and cap, or clear them";
    c.about =
        "The workbook caches compiled kernels (nvrtc) and CPU reference libraries (reference)\n"
        "under $XDG_CACHE_HOME/cuda-workbook. Each folder has a size cap (--stats shows it;\n"
        "$WB_CACHE_MAX_MB sets another, in MiB, for every folder), and after each new entry the\n"
        "least recently used ones are removed until the folder is under its cap.\n";
    c.options = {
        flag_option("--stats", "each folder, its entries, their size and the cap"),
        flag_option("--clear", "remove every entry (only the workbook's own files in its cache folders;\n"
                               "a temporary file may still be being written and stays until it is stale)"),
        flag_option("--json", "machine-readable output"),
    };
    c.footer = "Exit codes: 0 success, 2 bad command line.\n";
    c.run = run_cache;
    return c;
}

}  // namespace wb::cli
