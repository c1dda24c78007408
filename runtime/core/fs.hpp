// runtime/core/fs.hpp — file helpers: capped reads, atomic writes, XDG folders,
// and resolving a lesson's file references without leaving its folder.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace wb {

// Reads a whole file. Throws wb::Error (Io) naming the file when it is
// missing, unreadable, or larger than max_bytes.
std::string read_file(const std::filesystem::path& path, std::size_t max_bytes = 64u << 20);

// Writes to a temporary file beside `path`, fsyncs it, then renames it into
// place and fsyncs the folder, so a reader (or a restart after a crash or a
// power cut) sees the old file or the new one and never half of one.
void write_file_atomic(const std::filesystem::path& path, std::string_view bytes);

// $XDG_CACHE_HOME/cuda-workbook (default ~/.cache/cuda-workbook), and so on.
// Created on first use.
std::filesystem::path cache_dir();
std::filesystem::path config_dir();
std::filesystem::path data_dir();

// Resolves `relative` inside `folder`. Refuses absolute paths, any `..`
// component, and symlinks whose target lies outside `folder`. Throws wb::Error
// (Lesson) with a sentence saying which rule was broken; the caller adds the
// JSON path.
std::filesystem::path resolve_inside(const std::filesystem::path& folder, const std::string& relative);

}  // namespace wb
