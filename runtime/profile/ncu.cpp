// runtime/profile/ncu.cpp — see ncu.hpp.
#include "profile/ncu.hpp"

#include "core/error.hpp"
#include "core/fs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>
#include <tuple>

namespace fs = std::filesystem;

namespace wb {
namespace {

bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

// One CSV record on one line: fields in double quotes ("" inside is a quote), or bare.
std::vector<std::string> csv_fields(const std::string& line) {
    std::vector<std::string> out;
    std::string cur;
    bool quoted = false, in_field = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                cur += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                cur += c;
            }
        } else if (c == '"') {
            quoted = in_field = true;
        } else if (c == ',') {
            out.push_back(cur);
            cur.clear();
            in_field = false;
        } else if (c != '\r') {
            cur += c;
            in_field = true;
        }
    }
    if (in_field || !out.empty()) out.push_back(cur);
    return out;
}

// A counter's value: "-" and "" are none; a thousands separator is dropped.
long long count_of(const std::string& s) {
    std::string digits;
    for (char c : s)
        if (c != ',' && c != ' ') digits += c;
    if (digits.empty() || digits == "-") return 0;
    char* end = nullptr;
    const double v = std::strtod(digits.c_str(), &end);
    return end && *end == '\0' && std::isfinite(v) ? static_cast<long long>(std::llround(v)) : 0;
}

// The profile of one launch: its kernel, and per instruction that touched memory the figures.
struct Instr {
    int line = 0;
    std::string op, space;
    long long executed = 0, sectors = 0, least_sectors = 0, wavefronts = 0, ideal = 0;
};
struct Launch {
    std::string file, kernel;
    std::vector<Instr> instrs;
};

std::string op_of(const std::string& access_operation) {
    if (access_operation == "Load") return "load";
    if (access_operation == "Store") return "store";
    if (access_operation == "Atomic" || access_operation == "Reduction") return "atomic";
    return "";
}

std::string space_of(const std::string& address_space) {
    if (address_space == "Global") return "global";
    if (address_space == "Shared") return "shared";
    return "";  // Local, Generic, Constant, ...: not in the table
}

}  // namespace

fs::path find_ncu(const fs::path& cuda_home) { return find_toolkit_program("ncu", cuda_home); }

std::vector<std::string> ncu_wrapper(const fs::path& cuda_home, const std::vector<std::string>& kernels) {
    const fs::path exe = find_ncu(cuda_home);
    if (exe.empty())
        throw Error::said(ErrorKind::NoDevice, {{"profile.no_ncu", {}}}, {},
                          "install the CUDA Toolkit's Nsight Compute (ncu in <cuda>/bin), or put it on PATH");
    // SourceCounters alone: the per-instruction memory figures, without the
    // replays a full set needs. The source page is printed when the worker exits.
    std::vector<std::string> w = {exe.string(), "--section", "SourceCounters", "--page", "source", "--csv",
                                  "--print-source", "cuda,sass"};
    if (!kernels.empty()) {
        std::string re;
        for (const auto& k : kernels) re += (re.empty() ? "" : "|") + k;
        w.push_back("-k");
        w.push_back("regex:^(" + re + ")$");
    }
    return w;
}

AccessSummary parse_ncu_source_page(const std::string& output) {
    AccessSummary a;
    a.source = "ncu";
    std::vector<Launch> launches;
    std::string first_error;
    bool no_permission = false, nothing_profiled = false;
    std::string truncated_at;  // "65536 KiB": the worker kept that much of the page
    std::vector<std::string> header;
    auto col = [&](const char* name) -> int {
        auto it = std::find(header.begin(), header.end(), name);
        return it == header.end() ? -1 : static_cast<int>(it - header.begin());
    };
    int c_line = -1, c_addr = -1, c_exec = -1, c_space = -1, c_op = -1, c_sectors = -1, c_sideal = -1, c_wave = -1, c_ideal = -1;
    int line_now = 0;
    std::istringstream in(output);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find("ERR_NVGPUCTRPERM") != std::string::npos) no_permission = true;
        if (starts_with(line, "==ERROR==") && first_error.empty()) first_error = line.substr(9);
        if (starts_with(line, "==WARNING== No kernels were profiled")) nothing_profiled = true;
        if (starts_with(line, "[output truncated at ")) truncated_at = line.substr(21, line.size() > 22 ? line.size() - 22 : 0);
        if (!starts_with(line, "\"")) continue;
        std::vector<std::string> f = csv_fields(line);
        if (f.size() == 2 && f[0] == "File Path") {
            launches.push_back({fs::path(f[1]).filename().string(), "", {}});
            header.clear();
            continue;
        }
        if (launches.empty()) continue;
        if (f.size() == 2 && f[0] == "Function Name") {
            launches.back().kernel = f[1];
            continue;
        }
        if (!f.empty() && f[0] == "Line No") {
            header = f;
            c_line = col("Line No");
            c_addr = col("Address");
            c_exec = col("Instructions Executed");
            c_space = col("Address Space");
            c_op = col("Access Operation");
            c_sectors = col("L2 Theoretical Sectors Global");
            c_sideal = col("L2 Theoretical Sectors Global Ideal");
            c_wave = col("L1 Wavefronts Shared");
            c_ideal = col("L1 Wavefronts Shared Ideal");
            line_now = 0;
            continue;
        }
        if (header.empty() || f.size() != header.size() || c_line < 0 || c_addr < 0) continue;
        if (!f[c_line].empty()) {  // a source line's row: the instructions below are its own
            line_now = static_cast<int>(count_of(f[c_line]));
            continue;
        }
        if (!starts_with(f[c_addr], "0x") || c_space < 0 || c_op < 0) continue;
        Instr i;
        i.line = line_now;
        i.space = space_of(f[c_space]);
        i.op = op_of(f[c_op]);
        if (i.space.empty() || i.op.empty()) continue;
        auto get = [&](int c) { return c < 0 ? 0 : count_of(f[c]); };
        i.executed = get(c_exec);
        i.sectors = get(c_sectors);
        i.least_sectors = get(c_sideal);
        i.wavefronts = get(c_wave);
        i.ideal = get(c_ideal);
        launches.back().instrs.push_back(i);
    }

    // The pipeline validates a case twice, each run making the same launches:
    // count the first run's.
    std::size_t count = launches.size();
    if (count % 2 == 0 && count > 0) {
        bool twice = true;
        for (std::size_t i = 0; i < count / 2 && twice; ++i) twice = launches[i].kernel == launches[i + count / 2].kernel;
        if (twice) count /= 2;
    }
    using Key = std::tuple<std::string, int, int, int>;  // file, line, op order, space order
    auto op_rank = [](const std::string& op) { return op == "load" ? 0 : op == "store" ? 1 : 2; };
    std::map<Key, AccessLine> rows;
    for (std::size_t n = 0; n < count; ++n) {
        const Launch& l = launches[n];
        a.launches.push_back({static_cast<int>(n), l.kernel, 0, {}});
        for (const Instr& i : l.instrs) {
            AccessLine& row = rows[{l.file, i.line, op_rank(i.op), i.space == "global" ? 0 : 1}];
            row.file = l.file;
            row.line = i.line;
            row.op = i.op;
            row.space = i.space;
            row.requests += i.executed;
            row.sectors += i.sectors;
            row.wavefronts += i.wavefronts;
            row.least_sectors += i.least_sectors;
            row.least_wavefronts += i.ideal;
        }
    }
    for (auto& [key, row] : rows) {
        if (row.space == "global") {
            row.sectors_per_request = row.requests > 0 ? double(row.sectors) / double(row.requests) : 0;
        } else {
            row.bank_conflict_ways = row.least_wavefronts > 0 ? double(row.wavefronts) / double(row.least_wavefronts) : 0;
        }
        a.lines.push_back(row);
    }
    if (no_permission)
        a.not_recorded = {{"profile.no_permission", {}}};
    else if (!truncated_at.empty()) {  // a row per line is there only if its instructions came before the cut
        a.lines.clear();
        a.launches.clear();
        a.not_recorded = {{"profile.too_long", {truncated_at}}};
    }
    else if (launches.empty() && !first_error.empty())
        a.not_recorded = {{"profile.failed", {first_error}}};
    else if (launches.empty() || nothing_profiled)
        a.not_recorded = {{"profile.nothing", {}}};
    return a;
}

}  // namespace wb
