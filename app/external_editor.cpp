// app/external_editor.cpp — posix_spawn of $VISUAL / $EDITOR / xdg-open
// (external_editor.hpp). The command goes through /bin/sh so "code --wait"
// style values with arguments work; the file name is passed as $1, never
// pasted into the command text, so no file name can inject shell syntax.
#include "external_editor.hpp"

#include <cerrno>
#include <cstring>
#include <spawn.h>
#include <sys/wait.h>

extern char** environ;

namespace wb::app {

int spawn_external_editor(const std::filesystem::path& file, std::string& error) {
    const std::string path = file.string();
    const char* script = "exec ${VISUAL:-${EDITOR:-xdg-open}} \"$1\"";
    char* const argv[] = {const_cast<char*>("sh"), const_cast<char*>("-c"), const_cast<char*>(script),
                          const_cast<char*>("cuda-workbook-editor"), const_cast<char*>(path.c_str()), nullptr};
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, "/bin/sh", nullptr, nullptr, argv, environ);
    if (rc != 0) {
        error = std::string("could not start an external editor: ") + std::strerror(rc);
        return 0;
    }
    return static_cast<int>(pid);
}

bool reap_external_editor(int pid) {
    if (pid <= 0) return true;
    int status = 0;
    const pid_t r = waitpid(static_cast<pid_t>(pid), &status, WNOHANG);
    return r == static_cast<pid_t>(pid) || (r < 0 && errno == ECHILD);
}

}  // namespace wb::app
