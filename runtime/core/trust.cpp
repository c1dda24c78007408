// runtime/core/trust.cpp — trusted lesson folders on disk (trust.hpp).
#include "core/trust.hpp"

#include "core/data_dirs.hpp"
#include "core/error.hpp"
#include "core/fs.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <system_error>

namespace fs = std::filesystem;

namespace wb {
namespace {

fs::path resolved(const fs::path& p) {
    std::error_code ec;
    fs::path r = fs::weakly_canonical(fs::absolute(p, ec), ec);
    return ec ? p.lexically_normal() : r;
}

}  // namespace

fs::path trusted_folders_file() { return config_dir() / "trusted_folders.json"; }

std::set<fs::path> load_trusted_folders() {
    std::set<fs::path> out;
    const fs::path file = trusted_folders_file();
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) return out;
    try {
        const nlohmann::json j = nlohmann::json::parse(read_file(file, 1u << 20));
        if (j.is_object() && j.contains("trusted") && j["trusted"].is_array())
            for (const auto& f : j["trusted"])
                if (f.is_string() && !f.get<std::string>().empty()) out.insert(fs::path(f.get<std::string>()));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cuda-workbook: ignoring %s: %s\n", file.string().c_str(), e.what());
        out.clear();
    }
    return out;
}

bool is_trusted_folder(const fs::path& folder) { return load_trusted_folders().count(resolved(folder)) > 0; }

void remember_trusted_folder(const fs::path& folder) {
    std::set<fs::path> all = load_trusted_folders();
    all.insert(resolved(folder));
    nlohmann::json list = nlohmann::json::array();
    for (const fs::path& f : all) list.push_back(f.string());
    write_file_atomic(trusted_folders_file(), nlohmann::json{{"trusted", list}}.dump(2) + "\n");
}

bool lesson_is_trusted(const fs::path& lesson_file) {
    if (is_shipped_lesson(lesson_file)) return true;
    const auto trusted = load_trusted_folders();
    for (const fs::path& folder : lesson_trust_folders(lesson_file))
        if (!trusted.count(folder)) return false;
    return true;
}

void remember_lesson_trusted(const fs::path& lesson_file) {
    for (const fs::path& folder : lesson_trust_folders(lesson_file)) remember_trusted_folder(folder);
}

}  // namespace wb
