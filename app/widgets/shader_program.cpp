// app/widgets/shader_program.cpp — compile, link and report GLSL programs without ever failing hard.
#include "widgets/shader_program.hpp"

#include "widgets/gl_texture.hpp"

#include <glad/gl.h>

#include <fstream>
#include <sstream>

namespace wb::app {

bool read_text_file(const std::filesystem::path& path, std::string& out, std::string& error) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = path.string() + ": cannot open the file";
        return false;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    out = ss.str();
    return true;
}

namespace {

std::string shader_log(GLuint shader) {
    GLint len = 0;
    glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &len);
    std::string log(static_cast<std::size_t>(len > 0 ? len : 0), '\0');
    if (len > 0) glGetShaderInfoLog(shader, len, nullptr, log.data());
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
    return log;
}

// Returns 0 and fills `error` when the stage does not compile.
GLuint compile(GLenum stage, const std::string& source, const std::string& name, std::string& error) {
    GLuint shader = glCreateShader(stage);
    const char* src = source.c_str();
    glShaderSource(shader, 1, &src, nullptr);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        error += name + ": compile failed:\n" + shader_log(shader) + "\n";
        glDeleteShader(shader);
        return 0;
    }
    return shader;
}

}  // namespace

ShaderProgram::~ShaderProgram() { reset(); }

void ShaderProgram::reset() {
    if (id_ != 0 && gl_available()) glDeleteProgram(id_);
    id_ = 0;
}

std::string ShaderProgram::load(const std::filesystem::path& dir, const std::string& vert_file,
                                const std::string& frag_file) {
    std::string vs, fs, error;
    if (!read_text_file(dir / vert_file, vs, error) || !read_text_file(dir / frag_file, fs, error)) {
        reset();
        return error;
    }
    return build(vs, (dir / vert_file).string(), fs, (dir / frag_file).string());
}

std::string ShaderProgram::build(const std::string& vert_source, const std::string& vert_name,
                                 const std::string& frag_source, const std::string& frag_name) {
    reset();
    if (!gl_available()) return "no OpenGL context: shaders " + vert_name + ", " + frag_name + " not built";
    std::string error;
    const GLuint vs = compile(GL_VERTEX_SHADER, vert_source, vert_name, error);
    const GLuint fs = compile(GL_FRAGMENT_SHADER, frag_source, frag_name, error);
    if (vs == 0 || fs == 0) {
        if (vs) glDeleteShader(vs);
        if (fs) glDeleteShader(fs);
        return error;
    }
    const GLuint program = glCreateProgram();
    glAttachShader(program, vs);
    glAttachShader(program, fs);
    glLinkProgram(program);
    glDeleteShader(vs);  // the program keeps them alive while linked
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
        GLint len = 0;
        glGetProgramiv(program, GL_INFO_LOG_LENGTH, &len);
        std::string log(static_cast<std::size_t>(len > 0 ? len : 0), '\0');
        if (len > 0) glGetProgramInfoLog(program, len, nullptr, log.data());
        while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
        glDeleteProgram(program);
        return vert_name + " + " + frag_name + ": link failed:\n" + log;
    }
    id_ = program;
    return {};
}

int ShaderProgram::uniform(const char* name) const {
    if (id_ == 0 || !gl_available()) return -1;
    return glGetUniformLocation(id_, name);
}

}  // namespace wb::app
