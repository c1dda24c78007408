// runtime/core/fs.hpp — file helpers: capped reads, atomic writes, XDG folders,
// and resolving a lesson's file references without leaving its folder.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace wb {

// Reads a whole ordinary file. Throws wb::Error (Io) naming the file when it
// is missing, unreadable, not an ordinary file (a FIFO, /dev/zero, a socket:
// refused without waiting or reading), or larger than max_bytes; reading
// stops at the cap whatever the file's size said. With follow_final_symlink
// false a symlink as the last component is refused (O_NOFOLLOW), for paths
// already resolved and checked, so a swap after the check is not followed.
std::string read_file(const std::filesystem::path& path, std::size_t max_bytes = 64u << 20,
                      bool follow_final_symlink = true);

// Writes to a temporary file beside `path`, fsyncs it, then renames it into
// place and fsyncs the folder, so a reader (or a restart after a crash or a
// power cut) sees the old file or the new one and never half of one.
// With `sync` false the two fsyncs are left out: still atomic for readers
// and across a crash of the process, but a power cut may leave a torn file,
// so only for files whose reader checks them (the caches' checksummed entries),
// where an fsync would cost the edit loop milliseconds for nothing.
void write_file_atomic(const std::filesystem::path& path, std::string_view bytes, bool sync = true);

// A program of the CUDA Toolkit (nvcc, nvdisasm, compute-sanitizer):
// <home>/bin/<name> when `home` is not empty, else the first on PATH; empty
// when neither has it. compile/nvrtc.hpp has the form that looks in cuda_home().
std::filesystem::path find_toolkit_program(const std::string& name, const std::filesystem::path& home);

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
