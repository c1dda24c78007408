// runtime/grade/submissions.cpp — finding a class's files (submissions.hpp).
#include "grade/submissions.hpp"

#include "core/error.hpp"
#include "core/fs.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <sstream>

namespace fs = std::filesystem;

namespace wb {

namespace {

constexpr std::size_t kMaxManifestBytes = 16u << 20;

// The step a file or a manifest names: "step<N>", "<N>" or a step id; nullptr when none.
const Step* step_named(const Lesson& lesson, const std::string& name) {
    std::string n = name;
    if (n.rfind("step", 0) == 0 && n.size() > 4 && std::all_of(n.begin() + 4, n.end(), ::isdigit)) n = n.substr(4);
    if (!n.empty() && std::all_of(n.begin(), n.end(), ::isdigit)) {
        const long i = std::stol(n);
        if (i >= 1 && std::size_t(i) <= lesson.steps.size()) return &lesson.steps[std::size_t(i - 1)];
        return nullptr;
    }
    for (const Step& s : lesson.steps)
        if (s.id == name) return &s;
    return nullptr;
}

void check_id(const std::string& id, const Location& at) {
    std::string why;
    if (!valid_student_id(id, why)) throw Error(ErrorKind::Usage, "student id '" + id + "' " + why, at);
}

void add_file(Submission& s, const Lesson& lesson, const std::string& step_name, const fs::path& file, const Location& at) {
    const Step* step = step_named(lesson, step_name);
    if (!step) {
        s.notes.push_back(file.filename().string() + ": names no step of the lesson (step<N>.cu or <step-id>.cu)");
        return;
    }
    if (s.files.count(step->id))
        throw Error(ErrorKind::Usage,
                    "two files for student '" + s.student + "', step '" + step->id + "': " + s.files[step->id].string() +
                        " and " + file.string(),
                    at);
    s.files[step->id] = file;
}

std::vector<Submission> from_folder(const fs::path& folder, const Lesson& lesson) {
    std::vector<Submission> out;
    for (const auto& d : fs::directory_iterator(folder)) {
        if (!d.is_directory()) continue;
        Submission s;
        s.student = d.path().filename().string();
        if (s.student.rfind('.', 0) == 0) continue;  // .git and the like
        check_id(s.student, {d.path().string()});
        std::vector<fs::path> files;
        for (const auto& f : fs::directory_iterator(d.path()))
            if (f.is_regular_file() && f.path().extension() == ".cu") files.push_back(f.path());
        std::sort(files.begin(), files.end());
        for (const auto& f : files) add_file(s, lesson, f.stem().string(), f, {f.string()});
        out.push_back(std::move(s));
    }
    return out;
}

std::vector<Submission> from_csv(const fs::path& manifest, const Lesson& lesson) {
    const std::string text = read_file(manifest, kMaxManifestBytes);
    std::map<std::string, Submission> by_id;
    std::istringstream in(text);
    std::string line;
    int n = 0;
    bool header = false;
    while (std::getline(in, line)) {
        ++n;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        std::vector<std::string> f;
        std::string field;
        bool quoted = false;
        for (char c : line) {
            if (c == '"') quoted = !quoted;
            else if (c == ',' && !quoted) f.push_back(field), field.clear();
            else field += c;
        }
        f.push_back(field);
        const Location at{manifest.string(), "", n};
        if (!header) {
            if (f != std::vector<std::string>{"student", "step", "file"})
                throw Error(ErrorKind::Usage, "a manifest's first line must be the header student,step,file", at);
            header = true;
            continue;
        }
        if (f.size() != 3) throw Error(ErrorKind::Usage, "expected 3 fields (student,step,file), got " + std::to_string(f.size()), at);
        check_id(f[0], at);
        Submission& s = by_id[f[0]];
        s.student = f[0];
        if (f[2].empty()) continue;  // listed, nothing handed in
        add_file(s, lesson, f[1], manifest.parent_path() / f[2], at);
    }
    if (!header) throw Error(ErrorKind::Usage, "the manifest is empty: its first line must be the header student,step,file", {manifest.string()});
    std::vector<Submission> out;
    for (auto& [id, s] : by_id) out.push_back(std::move(s));
    return out;
}

std::vector<Submission> from_json(const fs::path& manifest, const Lesson& lesson) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(read_file(manifest, kMaxManifestBytes));
    } catch (const nlohmann::json::parse_error& e) {
        throw Error(ErrorKind::Usage, std::string("not JSON: ") + e.what(), {manifest.string()});
    }
    if (!j.is_object())
        throw Error(ErrorKind::Usage, "a manifest is an object {\"<student>\": {\"<step>\": \"<file>\"}}", {manifest.string(), "$"});
    std::vector<Submission> out;
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string path = "$." + it.key();
        check_id(it.key(), {manifest.string(), path});
        if (!it.value().is_object())
            throw Error(ErrorKind::Usage, "expected an object of step -> file", {manifest.string(), path});
        Submission s;
        s.student = it.key();
        for (auto f = it.value().begin(); f != it.value().end(); ++f) {
            if (!f.value().is_string())
                throw Error(ErrorKind::Usage, "expected a file name", {manifest.string(), path + "." + f.key()});
            add_file(s, lesson, f.key(), manifest.parent_path() / f.value().get<std::string>(), {manifest.string(), path + "." + f.key()});
        }
        out.push_back(std::move(s));
    }
    return out;
}

}  // namespace

bool valid_student_id(const std::string& id, std::string& why) {
    if (id.empty()) return why = "is empty", false;
    if (id == "." || id == "..") return why = "cannot name a folder", false;
    if (id.size() > 128) return why = "is longer than 128 bytes", false;
    for (unsigned char c : id)
        if (!(std::isalnum(c) || c == '.' || c == '_' || c == '-' || c == '@' || c >= 0x80))
            return why = std::string("has the character '") + char(c) + "': use letters, digits, '.', '_', '-' or '@'", false;
    return true;
}

std::vector<Submission> find_submissions(const fs::path& where, const Lesson& lesson) {
    std::error_code ec;
    if (fs::is_directory(where, ec)) {
        auto out = from_folder(where, lesson);
        std::sort(out.begin(), out.end(), [](const Submission& a, const Submission& b) { return a.student < b.student; });
        return out;
    }
    if (!fs::exists(where, ec)) throw Error(ErrorKind::Usage, "no such folder or manifest", {where.string()});
    auto out = where.extension() == ".json" ? from_json(where, lesson) : from_csv(where, lesson);
    std::sort(out.begin(), out.end(), [](const Submission& a, const Submission& b) { return a.student < b.student; });
    return out;
}

}  // namespace wb
