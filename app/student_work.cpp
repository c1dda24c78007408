// app/student_work.cpp — saved work and session state on disk (student_work.hpp).
#include "student_work.hpp"

#include "core/error.hpp"
#include "core/fs.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <ctime>
#include <system_error>

namespace wb::app {

std::filesystem::path work_file(const std::string& lesson_id, const std::string& step_id) {
    return data_dir() / "work" / lesson_id / (step_id + ".cu");
}

std::optional<std::string> load_work(const std::string& lesson_id, const std::string& step_id) {
    const std::filesystem::path file = work_file(lesson_id, step_id);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) return std::nullopt;
    try {
        return read_file(file);
    } catch (const Error& e) {
        std::fprintf(stderr, "cuda-workbook: %s\n", e.describe().c_str());
        return std::nullopt;
    }
}

void save_work(const std::string& lesson_id, const std::string& step_id, const std::string& text) {
    const std::filesystem::path file = work_file(lesson_id, step_id);
    std::error_code ec;
    std::filesystem::create_directories(file.parent_path(), ec);
    write_file_atomic(file, text);
}

std::filesystem::path save_work_history(const std::string& lesson_id, const std::string& step_id,
                                        const std::string& text) {
    const std::filesystem::path dir = data_dir() / "work" / lesson_id / "history";
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    char stamp[32];
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &utc);
    std::filesystem::path file = dir / (step_id + "." + stamp + ".cu");
    for (int n = 2; std::filesystem::exists(file, ec); ++n)  // two replacements within a second
        file = dir / (step_id + "." + stamp + "-" + std::to_string(n) + ".cu");
    write_file_atomic(file, text);
    return file;
}

void remove_work(const std::string& lesson_id, const std::string& step_id) {
    std::error_code ec;
    std::filesystem::remove(work_file(lesson_id, step_id), ec);
}

SessionState load_session() {
    SessionState s;
    const std::filesystem::path file = config_dir() / "state.json";
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) return s;
    try {
        const nlohmann::json j = nlohmann::json::parse(read_file(file, 1u << 20));
        s.lesson = j.value("lesson", "");
        s.step = j.value("step", "");
        s.dark_theme = j.value("theme", "dark") != "light";
        if (j.contains("worker_command") && j["worker_command"].is_string()) s.worker_command = j["worker_command"];
        if (j.contains("text_zoom") && j["text_zoom"].is_number()) s.text_zoom = clamp_text_zoom(j["text_zoom"].get<float>());
        if (j.contains("done") && j["done"].is_array())
            for (const auto& d : j["done"])
                if (d.is_string()) s.done.insert(d.get<std::string>());
        // Each step's passed cases, so the lesson list's "k/N cases" survives a restart.
        if (j.contains("cases") && j["cases"].is_object())
            for (const auto& [key, c] : j["cases"].items()) {
                if (!c.is_object() || !c.contains("passed") || !c["passed"].is_array()) continue;
                CaseTally t;
                t.source_digest = c.value("source", std::string());
                t.emulated = c.value("emulated", false);
                for (const auto& p : c["passed"])
                    if (p.is_string()) t.passed.insert(p.get<std::string>());
                s.cases[key] = std::move(t);
            }
        if (j.contains("window") && j["window"].is_object()) {
            const nlohmann::json& w = j["window"];
            // A size outside what --size accepts is a broken file, not a window.
            const int width = w.value("width", 0), height = w.value("height", 0);
            if (width >= 200 && height >= 150 && width <= 16384 && height <= 16384) {
                s.window.width = width;
                s.window.height = height;
                s.window.maximized = w.value("maximized", false);
                if (w.contains("x") && w.contains("y") && w["x"].is_number_integer() && w["y"].is_number_integer()) {
                    s.window.has_position = true;
                    s.window.x = w["x"].get<int>();
                    s.window.y = w["y"].get<int>();
                }
            }
        }
        if (j.contains("layout") && j["layout"].is_object()) {
            const nlohmann::json& l = j["layout"];
            auto number = [&](const char* key, float& out) {
                if (l.contains(key) && l[key].is_number()) out = l[key].get<float>();
            };
            number("lessons_width", s.layout.lessons_width);
            number("top", s.layout.top_fraction);
            number("right", s.layout.right_fraction);
            number("instructions", s.layout.instructions_fraction);
            number("diagnostics", s.layout.diagnostics_fraction);
            number("lessons", s.layout.lessons_fraction);
            s.layout.lessons_collapsed = l.value("lessons_collapsed", false);
            // Popped-out instructions come back docked unless the student pinned them there.
            s.layout.instructions_pinned = l.value("instructions_pinned", false);
            s.layout.instructions_popped = s.layout.instructions_pinned && l.value("instructions_popped", false);
            s.layout = sanitized(s.layout);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cuda-workbook: ignoring %s: %s\n", file.string().c_str(), e.what());
        return SessionState{};
    }
    return s;
}

void save_session(const SessionState& s) {
    nlohmann::json j;
    j["lesson"] = s.lesson;
    j["step"] = s.step;
    j["theme"] = s.dark_theme ? "dark" : "light";
    j["text_zoom"] = s.text_zoom;
    if (!s.worker_command.empty()) j["worker_command"] = s.worker_command;
    j["done"] = s.done;
    nlohmann::json cases = nlohmann::json::object();
    for (const auto& [key, t] : s.cases)
        if (!t.passed.empty()) cases[key] = {{"source", t.source_digest}, {"emulated", t.emulated}, {"passed", t.passed}};
    j["cases"] = cases;
    if (s.window.width > 0) {
        nlohmann::json w = {{"width", s.window.width}, {"height", s.window.height}, {"maximized", s.window.maximized}};
        if (s.window.has_position) {
            w["x"] = s.window.x;
            w["y"] = s.window.y;
        }
        j["window"] = w;
    }
    j["layout"] = {{"lessons_width", s.layout.lessons_width}, {"top", s.layout.top_fraction},
                   {"right", s.layout.right_fraction},        {"instructions", s.layout.instructions_fraction},
                   {"diagnostics", s.layout.diagnostics_fraction}, {"lessons", s.layout.lessons_fraction},
                   {"lessons_collapsed", s.layout.lessons_collapsed},
                   {"instructions_popped", s.layout.instructions_popped},
                   {"instructions_pinned", s.layout.instructions_pinned}};
    write_file_atomic(config_dir() / "state.json", j.dump(2) + "\n");
}

}  // namespace wb::app
