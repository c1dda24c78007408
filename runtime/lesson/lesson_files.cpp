// runtime/lesson/lesson_files.cpp — a lesson's files and their stamps (lesson_files.hpp).
#include "lesson/lesson_files.hpp"

#include <algorithm>

namespace fs = std::filesystem;

namespace wb {

FileStamp stamp_file(const fs::path& file) {
    FileStamp stamp;
    stamp.file = file;
    std::error_code ec;
    const fs::file_status status = fs::status(file, ec);
    if (ec || !fs::exists(status)) return stamp;
    stamp.exists = true;
    stamp.size = fs::is_regular_file(status) ? fs::file_size(file, ec) : 0;
    stamp.mtime = fs::last_write_time(file, ec);
    return stamp;
}

std::vector<fs::path> lesson_files(const Lesson& lesson) {
    std::vector<fs::path> files{lesson.file};
    auto add = [&](const fs::path& f) {
        if (!f.empty() && std::find(files.begin(), files.end(), f) == files.end()) files.push_back(f);
    };
    // A file reference's origin is the path as written, relative to the lesson's folder.
    auto add_source = [&](const SourceText& src) {
        if (!src.origin.empty() && src.origin != "<inline>") add((lesson.dir / src.origin).lexically_normal());
    };
    for (const Step& step : lesson.steps) {
        add_source(step.starter);
        add_source(step.solution);
        add_source(step.reference.source);
        for (const Buffer& buffer : step.buffers)
            if (buffer.init.kind == InitKind::Image) add(buffer.init.image);
    }
    return files;
}

}  // namespace wb
