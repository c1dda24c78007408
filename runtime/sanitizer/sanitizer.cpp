// runtime/sanitizer/sanitizer.cpp — finding compute-sanitizer and reading its report (see sanitizer.hpp).
//
// The report is line-based: every line compute-sanitizer writes starts with
// "=========". A finding opens with an unindented headline ("Invalid __global__
// write of size 4 bytes", "Error: Race reported between ...", "Error: Potential
// WAR hazard detected ...") and continues with indented details ("at kernel+0x80
// in student.cu:5", "by thread (232,0,0) in block (3,0,0)", "Address ...").
// Older toolkits wrote locations as "at 0x80 in student.cu:5:kernel"; both
// forms are read. A blank "=========" line or the next headline closes a finding.
#include "sanitizer/sanitizer.hpp"

#include "core/error.hpp"
#include "core/fs.hpp"

#include <cstdlib>
#include <map>
#include <sstream>
#include <tuple>

namespace fs = std::filesystem;

namespace wb {

namespace {

constexpr const char* kPrefix = "=========";

bool starts_with(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }

std::string trim(const std::string& s) {
    std::size_t a = s.find_first_not_of(" \t\r");
    if (a == std::string::npos) return {};
    std::size_t b = s.find_last_not_of(" \t\r");
    return s.substr(a, b - a + 1);
}

bool all_digits(const std::string& s) {
    if (s.empty()) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}

// A count or line number as the tool prints it: leading digits, at most 9 of
// them so the value fits an int (a #line in student code can ask for any
// number). -1 when there is none.
int small_number(const char* p) {
    while (*p == ' ') ++p;
    int v = 0, n = 0;
    for (; *p >= '0' && *p <= '9'; ++p, ++n) {
        if (n == 9) return -1;
        v = v * 10 + (*p - '0');
    }
    return n ? v : -1;
}

// "(232,0,0)" at `pos` or later → true and the three numbers.
bool parse_triple(const std::string& s, std::size_t pos, std::array<int, 3>& out) {
    std::size_t open = s.find('(', pos);
    if (open == std::string::npos) return false;
    int x, y, z;
    if (std::sscanf(s.c_str() + open, "(%d,%d,%d)", &x, &y, &z) != 3) return false;
    out = {x, y, z};
    return true;
}

// "... at FUNC+0x80 in FILE:LINE[:FUNC] [...]" → file, line, function.
bool parse_location(const std::string& s, std::string& file, int& line, std::string& function) {
    std::size_t at = s.find(" at ");
    std::size_t in = s.rfind(" in ");
    if (in == std::string::npos || (at != std::string::npos && in < at)) return false;
    std::string where = s.substr(in + 4);
    if (std::size_t sp = where.find(' '); sp != std::string::npos) where.resize(sp);
    std::vector<std::string> parts;
    std::stringstream ss(where);
    for (std::string p; std::getline(ss, p, ':');) parts.push_back(p);
    for (std::size_t k = parts.size(); k-- > 1;) {
        if (!all_digits(parts[k]) || small_number(parts[k].c_str()) < 0) continue;
        file.clear();
        for (std::size_t i = 0; i < k; ++i) file += (i ? ":" : "") + parts[i];
        line = small_number(parts[k].c_str());
        if (k + 1 < parts.size()) function = parts[k + 1];
        break;
    }
    if (at != std::string::npos && function.empty()) {
        std::string f = s.substr(at + 4, in - at - 4);
        if (std::size_t plus = f.rfind("+0x"); plus != std::string::npos) f.resize(plus);
        if (!starts_with(f, "0x")) function = f;
    }
    return line > 0;
}

// Headlines that are not findings.
bool is_banner(const std::string& h) {
    return starts_with(h, "COMPUTE-SANITIZER") || starts_with(h, "ERROR SUMMARY") || starts_with(h, "RACECHECK SUMMARY") ||
           starts_with(h, "LEAK SUMMARY") || starts_with(h, "Target application returned") ||
           starts_with(h, "No ") || starts_with(h, "This tool") || starts_with(h, "Note:");
}

}  // namespace

const char* sanitizer_tool_name(SanitizerTool t) {
    switch (t) {
    case SanitizerTool::Memcheck: return "memcheck";
    case SanitizerTool::Racecheck: return "racecheck";
    case SanitizerTool::None: break;
    }
    return "";
}

std::string SanitizerFinding::to_string() const {
    if (!file.empty() && line > 0) return file + ":" + std::to_string(line) + ": " + description();
    return description();
}

std::string SanitizerFinding::description() const {
    std::string s = kind;
    auto triple = [](const std::array<int, 3>& t) {
        return "(" + std::to_string(t[0]) + "," + std::to_string(t[1]) + "," + std::to_string(t[2]) + ")";
    };
    if (has_thread) s += " by thread " + triple(thread) + " in block " + triple(block);
    if (other_line > 0) s += " (and line " + std::to_string(other_line) + ")";
    if (count > 1) s += " [" + std::to_string(count) + " times]";
    return s;
}

fs::path find_compute_sanitizer(const fs::path& cuda_home) { return find_toolkit_program("compute-sanitizer", cuda_home); }

std::vector<std::string> sanitizer_wrapper(SanitizerTool tool, const fs::path& cuda_home) {
    if (tool == SanitizerTool::None) throw Error(ErrorKind::Usage, "no sanitizer tool was asked for");
    fs::path exe = find_compute_sanitizer(cuda_home);
    if (exe.empty())
        throw Error(ErrorKind::NoDevice, "compute-sanitizer not found: it comes with the CUDA Toolkit", {},
                    "install the CUDA Toolkit (or put its bin/ folder on PATH, or set CUDA_HOME)");
    // --print-limit keeps a kernel that faults in every thread from flooding the
    // report; host backtraces say nothing a student can act on.
    std::vector<std::string> w = {exe.string(), "--tool", sanitizer_tool_name(tool), "--print-limit", "50",
                                  "--show-backtrace", "no"};
    // Racecheck keeps its default "analysis" report: one entry per racing pair
    // of lines. The per-thread "hazard" form fills the print limit with warp-level
    // warnings about single bytes (seen on an H200, CUDA 13.0) and hides the errors.
    return w;
}

SanitizerReport parse_sanitizer_report(const std::string& text) {
    SanitizerReport rep;
    std::vector<SanitizerFinding> raw;
    bool open = false;
    SanitizerFinding cur;
    bool in_backtrace = false;
    int racecheck_errors = -1;
    auto close = [&] {
        if (open) raw.push_back(std::move(cur));
        cur = SanitizerFinding{};
        open = false;
        in_backtrace = false;
    };

    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        // A line of the kernel's own output may run into one of ours: start at the prefix.
        std::size_t p = line.find(kPrefix);
        if (p == std::string::npos) continue;
        std::string body = line.substr(p + std::string(kPrefix).size());
        if (!body.empty() && body.back() == '\r') body.pop_back();
        std::size_t indent = body.find_first_not_of(' ');
        if (indent == std::string::npos) {  // "=========" alone ends a finding
            close();
            continue;
        }
        std::string t = trim(body);
        if (indent <= 1) {  // a headline
            close();
            if (starts_with(t, "ERROR SUMMARY:")) {
                rep.errors = small_number(t.c_str() + 14);
                continue;
            }
            if (starts_with(t, "RACECHECK SUMMARY:")) {
                // "RACECHECK SUMMARY: 4 hazards displayed (2 errors, 2 warnings)": racecheck writes no ERROR SUMMARY.
                if (std::size_t o = t.find('('); o != std::string::npos) {
                    int e = 0, w = 0;
                    if (std::sscanf(t.c_str() + o, "(%9d error%*[^,], %9d warning", &e, &w) == 2 && e >= 0 && w >= 0) {
                        racecheck_errors = e;
                        rep.warnings = w;
                    }
                }
                continue;
            }
            // A CUDA call that failed because the kernel was stopped: a consequence
            // of the findings before it, counted in the summary but not marked.
            if (starts_with(t, "Program hit ")) continue;
            if (is_banner(t)) continue;
            open = true;
            if (starts_with(t, "Error: ") || starts_with(t, "ERROR: ")) t = t.substr(7);
            else if (starts_with(t, "Warning: ") || starts_with(t, "WARNING: ")) { t = t.substr(9); cur.is_error = false; }
            cur.message = t;
            if (std::size_t b = t.find(" in block "); b != std::string::npos && parse_triple(t, b, cur.block)) {
                cur.has_thread = true;  // the thread comes on a detail line
                t = trim(t.substr(0, b));
            }
            if (starts_with(t, "Race reported between ")) {
                parse_location(t, cur.file, cur.line, cur.function);
                std::string access = t.substr(22);
                if (std::size_t at = access.find(" at "); at != std::string::npos) access.resize(at);
                t = "Race reported between " + access;
            }
            cur.kind = t;
            continue;
        }
        if (!open) continue;
        // Details.
        if (starts_with(t, "Saved host backtrace") || starts_with(t, "Host Frame") || starts_with(t, "Device Frame")) {
            in_backtrace = true;
            continue;
        }
        if (in_backtrace) continue;
        cur.message += "\n" + t;
        if (starts_with(t, "at ") && cur.line == 0) {
            parse_location(" " + t, cur.file, cur.line, cur.function);
        } else if (starts_with(t, "by thread ")) {
            cur.has_thread = parse_triple(t, 0, cur.thread) && parse_triple(t, t.find(" in block "), cur.block);
        } else if (starts_with(t, "Address ")) {
            cur.address = t.substr(8);
        } else if (starts_with(t, "Access to ")) {
            cur.address = t.substr(10);
        } else if (starts_with(t, "and ") && t.find(" access at ") != std::string::npos) {
            // "and Read access at kernel+0x390 in student.cu:18 [768 hazards]", once per instruction.
            std::string f, fn;
            int l = 0;
            parse_location(t, f, l, fn);
            if (cur.other_line == 0) {
                cur.other_line = l;
                cur.kind += " and " + t.substr(4, t.find(" at ") - 4);
            }
        } else if (t.find(" Thread (") != std::string::npos) {
            // Racecheck hazard: "Read Thread (0,1,0) at kernel+0x370 in student.cu:29".
            std::string f, fn;
            int l = 0;
            parse_location(" " + t, f, l, fn);
            if (cur.line == 0) {
                cur.file = f;
                cur.line = l;
                cur.function = fn;
                parse_triple(t, t.find(" Thread ("), cur.thread);
            } else if (l != cur.line && cur.other_line == 0) {
                cur.other_line = l;
            }
        }
    }
    close();
    if (rep.errors < 0) rep.errors = racecheck_errors;

    // The pipeline runs each kernel twice (two poison patterns): merge repeats.
    std::map<std::tuple<std::string, std::string, int, int, std::array<int, 3>, std::array<int, 3>>, std::size_t> seen;
    for (auto& f : raw) {
        auto key = std::make_tuple(f.kind, f.file, f.line, f.other_line, f.block, f.thread);
        auto it = seen.find(key);
        if (it != seen.end()) {
            ++rep.findings[it->second].count;
            continue;
        }
        seen[key] = rep.findings.size();
        rep.findings.push_back(std::move(f));
    }
    return rep;
}

}  // namespace wb
