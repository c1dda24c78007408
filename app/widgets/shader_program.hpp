// app/widgets/shader_program.hpp — a GLSL program loaded from the shaders/ folder at run time.
//
// Shaders are files, not strings in the binary, so a student (or we) can edit
// shaders/*.glsl and restart. Failures never throw or crash: load() returns
// the file, compile and link logs as one string for the caller to log, and
// the program stays invalid (the views then fall back to CPU colouring).
#pragma once

#include <filesystem>
#include <string>

namespace wb::app {

class ShaderProgram {
public:
    ShaderProgram() = default;
    ~ShaderProgram();
    ShaderProgram(const ShaderProgram&) = delete;
    ShaderProgram& operator=(const ShaderProgram&) = delete;

    // Reads `dir/vert_file` and `dir/frag_file`, compiles and links them.
    // Returns "" on success, else what went wrong (file names included).
    std::string load(const std::filesystem::path& dir, const std::string& vert_file, const std::string& frag_file);
    // The same from source text; names are used in messages only.
    std::string build(const std::string& vert_source, const std::string& vert_name, const std::string& frag_source,
                      const std::string& frag_name);

    bool valid() const { return id_ != 0; }
    unsigned id() const { return id_; }
    int uniform(const char* name) const;  // -1 when absent or invalid
    void reset();

private:
    unsigned id_ = 0;
};

// Reads a whole text file; on failure returns false and says why in `error`.
bool read_text_file(const std::filesystem::path& path, std::string& out, std::string& error);

}  // namespace wb::app
