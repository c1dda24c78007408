// runtime/lesson/json_parse.cpp — the parse with duplicate-key detection, and
// JSON paths (see json_parse.hpp).
#include "lesson/json_parse.hpp"

#include "lesson/json_guards.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace wb::lesson_load {

std::string key_path(const std::string& base, const std::string& key) {
    const bool plain = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '-';
    });
    if (!plain) return base + "[" + Json(key).dump() + "]";
    return base.empty() ? key : base + "." + key;
}

std::string index_path(const std::string& base, std::size_t i) { return base + "[" + std::to_string(i) + "]"; }

namespace {

// nlohmann keeps the last of two equal keys without a word. The parser
// callback sees every key, so a small stack of open containers tells us the
// JSON path of a duplicate as it is read.
class DuplicateKeyFinder {
public:
    std::vector<std::pair<std::string, std::string>> found;  // (path, key)

    bool on_event(Json::parse_event_t event, const Json& parsed) {
        switch (event) {
        case Json::parse_event_t::object_start: frames_.push_back({false, 0, {}, {}}); break;
        case Json::parse_event_t::array_start: frames_.push_back({true, 0, {}, {}}); break;
        case Json::parse_event_t::key:
            if (!frames_.empty() && parsed.is_string()) {
                Frame& top = frames_.back();
                top.key = parsed.get<std::string>();
                if (!top.keys.insert(top.key).second && found.size() < 20) found.emplace_back(path(), top.key);
            }
            break;
        case Json::parse_event_t::object_end:
        case Json::parse_event_t::array_end:
            if (!frames_.empty()) frames_.pop_back();
            element_done();
            break;
        case Json::parse_event_t::value: element_done(); break;
        }
        return true;
    }

private:
    struct Frame {
        bool is_array;
        std::size_t index;
        std::set<std::string> keys;
        std::string key;
    };
    std::vector<Frame> frames_;

    void element_done() {
        if (!frames_.empty() && frames_.back().is_array) ++frames_.back().index;
    }
    std::string path() const {
        std::string out;
        for (std::size_t i = 0; i + 1 < frames_.size(); ++i)
            out = frames_[i].is_array ? index_path(out, frames_[i].index) : key_path(out, frames_[i].key);
        return out;
    }
};

}  // namespace

ParsedJson parse_json(const std::string& text_in) {
    ParsedJson out;
    DuplicateKeyFinder dups;
    try {
        out.root = Json::parse(text_in, [&](int, Json::parse_event_t ev, Json& parsed) { return dups.on_event(ev, parsed); });
    } catch (const Json::parse_error& e) {
        out.error_at = token_start(text_in, e.byte);
        std::string msg = e.what();
        // Drop "[json.exception.parse_error.101] parse error at line 3, column 5: ": the location is ours.
        if (auto p = msg.find("]"); p != std::string::npos && msg.compare(0, 6, "[json.") == 0) msg = msg.substr(p + 2);
        if (auto p = msg.find(": "); p != std::string::npos && msg.compare(0, 15, "parse error at ") == 0)
            msg = msg.substr(p + 2);
        if (msg.find("while parsing object - unexpected string literal") != std::string::npos ||
            msg.find("while parsing array - unexpected") != std::string::npos)
            msg += " (is a comma missing before it?)";
        out.error = msg;
        return out;
    }
    out.duplicates = std::move(dups.found);
    out.ok = true;
    return out;
}

}  // namespace wb::lesson_load
