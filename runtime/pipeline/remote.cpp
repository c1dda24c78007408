// runtime/pipeline/remote.cpp — what a worker command is made of, and the
// lesson's files on their way to a remote worker and unpacked there (see
// remote.hpp). The --stdio worker itself is stdio_worker.cpp's; starting the
// command and taking its stream apart is worker_process.cpp's.
#include "pipeline/remote.hpp"

#include "core/error.hpp"
#include "core/fs.hpp"

#include <cstdlib>
#include <unistd.h>

namespace fs = std::filesystem;

namespace wb {

std::vector<std::string> split_worker_command(const std::string& text) {
    std::vector<std::string> words;
    std::string word;
    bool in_word = false;
    char quote = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quote == '\'') {
            if (c == '\'') quote = 0;
            else word += c;
            continue;
        }
        if (quote == '"') {
            if (c == '"') quote = 0;
            else if (c == '\\' && i + 1 < text.size() && (text[i + 1] == '"' || text[i + 1] == '\\')) word += text[++i];
            else word += c;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\n') {
            if (in_word) words.push_back(std::move(word));
            word.clear();
            in_word = false;
            continue;
        }
        in_word = true;
        if (c == '\'' || c == '"') quote = c;
        else if (c == '\\' && i + 1 < text.size()) word += text[++i];
        else word += c;
    }
    if (quote) throw Error::said(ErrorKind::Usage, {{"worker.command_unclosed", {std::string(1, quote), text}}});
    if (in_word) words.push_back(std::move(word));
    if (words.empty()) throw Error::said(ErrorKind::Usage, {{"worker.command_empty", {}}});
    return words;
}

std::vector<std::string> worker_command_from_environment() {
    const char* e = std::getenv("WB_WORKER_COMMAND");
    if (!e || std::string(e).find_first_not_of(" \t\n") == std::string::npos) return {};
    return split_worker_command(e);
}

void attach_lesson_files(Frame& request, const Lesson& lesson, std::map<std::string, FileStamp>& sent) {
    std::error_code ec;
    const std::string lesson_file = request.json.value("lesson_file", std::string());
    if (!lesson_file.empty()) request.json["lesson_file"] = fs::absolute(lesson_file, ec).lexically_normal().string();
    nlohmann::json files = nlohmann::json::array();
    for (const fs::path& f : lesson_files(lesson)) {
        const fs::path abs = fs::absolute(f, ec).lexically_normal();
        FileStamp stamp = stamp_file(abs);
        if (!stamp.exists) continue;
        auto it = sent.find(abs.string());
        if (it != sent.end() && it->second == stamp) continue;
        std::string bytes;
        try {
            bytes = read_file(abs);
        } catch (const Error&) {
            continue;
        }
        files.push_back({{"path", abs.string()}, {"offset", request.blob.size()}, {"bytes", bytes.size()}});
        request.blob += bytes;
        sent[abs.string()] = stamp;
    }
    request.json["files"] = std::move(files);
}

namespace {

// An absolute path with no ".", ".." or empty part: root / it stays under root.
fs::path plain_absolute(const std::string& text) {
    const fs::path p(text);
    bool plain = p.is_absolute() && text.find('\0') == std::string::npos;
    for (const auto& part : p.relative_path()) plain = plain && !part.empty() && part != "." && part != "..";
    if (!plain || p.relative_path().empty())
        throw Error(ErrorKind::Internal, "malformed request to the worker: '" + text + "' is not a plain absolute path");
    return p;
}

}  // namespace

void unpack_lesson_files(Frame& request, const fs::path& root) {
    nlohmann::json& j = request.json;
    try {
        if (j.contains("files")) {
            for (const auto& f : j.at("files")) {
                const fs::path p = plain_absolute(f.at("path").get<std::string>());
                const auto offset = f.at("offset").get<std::uint64_t>(), bytes = f.at("bytes").get<std::uint64_t>();
                if (offset > request.blob.size() || bytes > request.blob.size() - offset)
                    throw Error(ErrorKind::Internal, "malformed request to the worker: a file's contents lie outside the frame");
                const fs::path target = root / p.relative_path();
                fs::create_directories(target.parent_path());
                write_file_atomic(target, std::string_view(request.blob).substr(offset, bytes), false);
            }
            j.erase("files");
        }
        const std::string lesson_file = j.value("lesson_file", std::string());
        if (!lesson_file.empty()) j["lesson_file"] = (root / plain_absolute(lesson_file).relative_path()).string();
    } catch (const nlohmann::json::exception& e) {
        throw Error(ErrorKind::Internal, std::string("malformed request to the worker: ") + e.what());
    } catch (const fs::filesystem_error& e) {
        throw Error(ErrorKind::Io, std::string("the worker could not write the lesson's files: ") + e.what());
    }
    request.blob.clear();
}

std::string this_host_name() {
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) != 0) return "?";
    return name;
}

}  // namespace wb
