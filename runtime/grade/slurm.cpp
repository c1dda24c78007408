// runtime/grade/slurm.cpp — the Slurm job-array script, the merge of its
// tasks' folders, and sbatch (slurm.hpp).
//
// How sbatch reads an "#SBATCH --output=..." value (checked against Debian's
// 22.05): inside double quotes spaces, ' and $ are kept and \" is a quote; %%
// is a %; a backslash anywhere turns off the %a replacement, so an out folder
// with one is refused rather than written to a folder named "%a".
#include "grade/slurm.hpp"

#include "core/error.hpp"
#include "core/fs.hpp"
#include "grade/gradebook.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

extern char** environ;

namespace wb {

namespace fs = std::filesystem;

namespace {

Error usage(const std::string& message, const std::string& hint = {}) {
    return Error(ErrorKind::Usage, message, {}, hint);
}

bool has_control(const std::string& s) {
    return std::any_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7F; });
}

void require_absolute(const fs::path& p, const char* what) {
    if (p.empty() || !p.is_absolute())
        throw usage(std::string("the Slurm script needs the ") + what + " as an absolute path, not '" + p.string() + "'",
                    "a job runs on another node in a folder of Slurm's choosing");
}

// A value for an "#SBATCH --opt=VALUE" line, written bare: sbatch ends a value
// at a space and reads quotes and '#', so those are refused.
const std::string& sbatch_word(const std::string& value, const char* option) {
    if (value.empty() || has_control(value) || value.find_first_of(" \t\"'#\\") != std::string::npos)
        throw usage(std::string("--") + option + " '" + value + "' cannot be written into an #SBATCH line",
                    "use a value without spaces, quotes, '#' or backslashes");
    return value;
}

// The --output value for sbatch, in double quotes: see the header comment.
std::string sbatch_output_path(const fs::path& out) {
    const std::string s = out.string();
    if (has_control(s) || s.find('\\') != std::string::npos)
        throw usage("the out folder '" + s + "' has a line break, control character or backslash, which an #SBATCH "
                    "--output line cannot hold",
                    "choose an out folder without them");
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\\\"") : c == '%' ? std::string("%%") : std::string(1, c);
    return q + "/tasks/%a/slurm.log\"";
}

fs::path script_path(const fs::path& dir) { return dir / "grade.sbatch"; }

std::string index_list(const std::vector<int>& indices) {
    std::string s;
    for (int i : indices) s += (s.empty() ? "" : ",") + std::to_string(i);
    return s;
}

// The top element of a JUnit document and its place in the text.
struct JunitTop {
    std::string name;             // "testsuites" or "testsuite"
    std::string start_tag;        // "<testsuites ...>"
    std::size_t begin = 0;        // of '<'
    std::size_t after_start = 0;  // just past the start tag's '>'
    bool self_closing = false;
};

JunitTop junit_top(const std::string& text, const std::string& origin) {
    std::size_t i = 0;
    auto fail = [&](const std::string& what) { return Error(ErrorKind::Io, "not a JUnit document: " + what, {origin}); };
    for (;;) {
        i = text.find('<', i);
        if (i == std::string::npos) throw fail("it has no <testsuites> or <testsuite> element");
        auto skip_to = [&](const char* end) {
            const std::size_t e = text.find(end, i);
            if (e == std::string::npos) throw fail(std::string("a '") + text.substr(i, 4) + "' is not closed");
            i = e + std::strlen(end);
        };
        if (text.compare(i, 2, "<?") == 0) skip_to("?>");
        else if (text.compare(i, 4, "<!--") == 0) skip_to("-->");
        else if (text.compare(i, 2, "<!") == 0) skip_to(">");
        else break;
    }
    JunitTop top;
    top.begin = i;
    std::size_t j = i + 1;
    while (j < text.size() && !std::isspace(static_cast<unsigned char>(text[j])) && text[j] != '>' && text[j] != '/') ++j;
    top.name = text.substr(i + 1, j - i - 1);
    if (top.name != "testsuites" && top.name != "testsuite")
        throw fail("its top element is <" + top.name + ">, not <testsuites> or <testsuite>");
    char quote = 0;
    for (; j < text.size(); ++j) {
        if (quote) quote = text[j] == quote ? 0 : quote;
        else if (text[j] == '"' || text[j] == '\'') quote = text[j];
        else if (text[j] == '>') break;
    }
    if (j >= text.size()) throw fail("the <" + top.name + "> start tag is not closed");
    top.after_start = j + 1;
    top.self_closing = text[j - 1] == '/';
    top.start_tag = text.substr(i, top.after_start - i);
    return top;
}

// The attributes of a start tag, values as written (still escaped).
std::map<std::string, std::string> tag_attributes(const std::string& tag) {
    std::map<std::string, std::string> attrs;
    std::size_t i = tag.find_first_of(" \t\r\n");
    while (i != std::string::npos && i < tag.size()) {
        while (i < tag.size() && std::isspace(static_cast<unsigned char>(tag[i]))) ++i;
        const std::size_t eq = tag.find('=', i);
        if (eq == std::string::npos) break;
        std::string key = tag.substr(i, eq - i);
        while (!key.empty() && std::isspace(static_cast<unsigned char>(key.back()))) key.pop_back();
        std::size_t v = eq + 1;
        while (v < tag.size() && std::isspace(static_cast<unsigned char>(tag[v]))) ++v;
        if (v >= tag.size() || (tag[v] != '"' && tag[v] != '\'')) break;
        const std::size_t close = tag.find(tag[v], v + 1);
        if (close == std::string::npos) break;
        attrs[key] = tag.substr(v + 1, close - v - 1);
        i = close + 1;
    }
    return attrs;
}

std::string trim_lines(std::string s) {
    const std::size_t first = s.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return {};
    const std::size_t line_start = s.rfind('\n', first);
    s.erase(0, line_start == std::string::npos ? 0 : line_start + 1);  // keep the first line's indent
    s.erase(s.find_last_not_of(" \t\r\n") + 1);
    return s + "\n";
}

std::string xml_attr_escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '"': out += "&quot;"; break;
        default: out += c;
        }
    }
    return out;
}

}  // namespace

int slurm_task_count(int submissions, int chunk) {
    if (submissions < 1) throw usage("there are no submissions to grade", "check the SUBMISSIONS folder or manifest");
    if (chunk < 1) throw usage("--chunk must be 1 or more, not " + std::to_string(chunk));
    return (submissions + chunk - 1) / chunk;
}

std::string shell_quote(const std::string& text) {
    if (text.find('\0') != std::string::npos)
        throw usage("a NUL byte cannot be part of a shell word ('" + std::string(text.c_str()) + "...')");
    if (text.empty()) return "''";
    const bool plain = std::all_of(text.begin(), text.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("_@%+=:,./-", c) != nullptr;
    });
    if (plain) return text;
    std::string q = "'";
    for (char c : text) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

std::string slurm_script(const SlurmOptions& o) {
    require_absolute(o.cli, "cuda-workbook-cli");
    require_absolute(o.lesson, "lesson");
    require_absolute(o.submissions, "submissions");
    require_absolute(o.out, "out folder");
    if (o.hidden) require_absolute(*o.hidden, "hidden-cases file");
    const int tasks = slurm_task_count(o.submissions_count, o.chunk);
    if (o.jobs < 1) throw usage("--jobs must be 1 or more, not " + std::to_string(o.jobs));
    if (o.backend != "auto" && o.backend != "gpu" && o.backend != "cpu")
        throw usage("--backend must be auto, gpu or cpu, not '" + o.backend + "'");
    if (o.time_limit && (o.time_limit->empty() || o.time_limit->find_first_not_of("0123456789:-") != std::string::npos))
        throw usage("--time '" + *o.time_limit + "' is not a Slurm time limit",
                    "write minutes (30), hours:minutes:seconds (01:00:00) or days-hours (1-0)");

    const std::string out_word = shell_quote(o.out.string());
    std::string s = "#!/bin/bash\n";
    s += "# cuda-workbook-cli grade on Slurm: " + std::to_string(o.submissions_count) + " submission(s) in " +
         std::to_string(tasks) + " array task(s) of up to " + std::to_string(o.chunk) + ".\n";
    s += "# Task I grades the submissions I*" + std::to_string(o.chunk) + " .. I*" + std::to_string(o.chunk) + "+" +
         std::to_string(o.chunk - 1) + " (sorted by id) into OUT/tasks/I/ and writes OUT/tasks/I/done when it finished.\n";
    s += "# Rerun task I alone:  sbatch --array=I " + shell_quote(script_path(o.out).string()) + "\n";
    s += "# Merge the tasks:     cuda-workbook-cli grade --collect " + out_word + "\n";
    s += "#SBATCH --job-name=" + sbatch_word(o.job_name, "job-name") + "\n";
    s += "#SBATCH --array=0-" + std::to_string(tasks - 1) + "\n";
    s += "#SBATCH --output=" + sbatch_output_path(o.out) + "\n";
    s += "#SBATCH --cpus-per-task=" + std::to_string(o.jobs) + "\n";
    if (o.partition) s += "#SBATCH --partition=" + sbatch_word(*o.partition, "partition") + "\n";
    if (o.gres) s += "#SBATCH --gres=" + sbatch_word(*o.gres, "gres") + "\n";
    if (o.time_limit) s += "#SBATCH --time=" + *o.time_limit + "\n";
    s += "set -euo pipefail\n\n";
    s += "CLI=" + shell_quote(o.cli.string()) + "\n";
    s += "LESSON=" + shell_quote(o.lesson.string()) + "\n";
    s += "SUBS=" + shell_quote(o.submissions.string()) + "\n";
    if (o.hidden) s += "HIDDEN=" + shell_quote(o.hidden->string()) + "\n";
    s += "OUT=" + out_word + "\n";
    s += "task=${SLURM_ARRAY_TASK_ID:?this script is a Slurm job array: submit it with sbatch}\n";
    s += "rm -f \"$OUT/tasks/$task/done\"\n";
    s += "\"$CLI\" grade \"$LESSON\" \"$SUBS\" --out \"$OUT/tasks/$task\" --task \"$task\" --chunk " +
         std::to_string(o.chunk) + " --backend " + o.backend + " --jobs " + std::to_string(o.jobs);
    if (o.seed) s += " --seed " + std::to_string(*o.seed);
    if (o.hidden) s += " --hidden \"$HIDDEN\"";
    for (const std::string& w : o.extra_args) s += " " + shell_quote(w);
    s += " --quiet\n";
    s += ": >\"$OUT/tasks/$task/done\"\n";
    return s;
}

fs::path write_slurm_script(const SlurmOptions& o) {
    const std::string text = slurm_script(o);
    const int tasks = slurm_task_count(o.submissions_count, o.chunk);
    std::error_code ec;
    for (int i = 0; i < tasks; ++i) {
        const fs::path t = o.out / "tasks" / std::to_string(i);
        fs::create_directories(t, ec);
        if (ec) throw Error(ErrorKind::Io, "cannot create the task folder: " + ec.message(), {t.string()});
    }
    const fs::path script = script_path(o.out);
    write_file_atomic(script, text);
    fs::permissions(script, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                fs::perms::others_read | fs::perms::others_exec,
                    ec);
    return script;
}

int slurm_script_task_count(const fs::path& script) {
    const std::string text = read_file(script, 1u << 20);
    const std::string key = "\n#SBATCH --array=0-";
    const std::size_t at = ("\n" + text).find(key);
    if (at != std::string::npos) {
        const char* begin = text.c_str() + at + key.size() - 1;
        char* end = nullptr;
        const long last = std::strtol(begin, &end, 10);
        if (end != begin && (*end == '\n' || *end == '\0') && last >= 0 && last < (1 << 30)) return int(last) + 1;
    }
    throw Error(ErrorKind::Io, "no '#SBATCH --array=0-M' line: this is not a script `grade --slurm` wrote",
                {script.string()});
}

std::string merge_junit_documents(const std::vector<std::string>& documents, const std::vector<std::string>& origins,
                                  const std::string& name) {
    long long tests = 0, failures = 0, errors = 0, skipped = 0;
    double seconds = 0;
    std::string body;
    for (std::size_t d = 0; d < documents.size(); ++d) {
        const std::string& text = documents[d];
        const std::string origin = d < origins.size() ? origins[d] : "document " + std::to_string(d + 1);
        const JunitTop top = junit_top(text, origin);
        const auto attrs = tag_attributes(top.start_tag);
        auto add = [&](const char* key, auto& sum) {
            const auto it = attrs.find(key);
            if (it != attrs.end()) sum += std::strtod(it->second.c_str(), nullptr);
        };
        add("tests", tests), add("failures", failures), add("errors", errors), add("skipped", skipped);
        add("time", seconds);
        const std::string close = "</" + top.name + ">";
        const std::size_t end = top.self_closing ? top.after_start : text.rfind(close);
        if (end == std::string::npos || end < top.after_start)
            throw Error(ErrorKind::Io, "not a JUnit document: its <" + top.name + "> is not closed", {origin});
        if (top.name == "testsuites") {
            if (!top.self_closing) body += trim_lines(text.substr(top.after_start, end - top.after_start));
        } else {
            body += "  " + trim_lines(text.substr(top.begin, end + (top.self_closing ? 0 : close.size()) - top.begin));
        }
    }
    char time_text[32];
    std::snprintf(time_text, sizeof time_text, "%.3f", seconds);
    std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    x += "<testsuites name=\"" + xml_attr_escape(name) + "\" tests=\"" + std::to_string(tests) + "\" failures=\"" +
         std::to_string(failures) + "\" errors=\"" + std::to_string(errors) + "\" skipped=\"" +
         std::to_string(skipped) + "\" time=\"" + time_text + "\">\n";
    x += body;
    x += "</testsuites>\n";
    return x;
}

std::size_t merge_task_folders(const fs::path& dir) {
    const fs::path script = script_path(dir);
    std::error_code ec;
    if (!fs::is_regular_file(script, ec))
        throw Error(ErrorKind::Usage, "there is no grade.sbatch here: this is not the --out folder of a `grade --slurm`",
                    {dir.string()});
    const int tasks = slurm_script_task_count(script);

    // Every task the array lists, finished; and no folder that is not one of them.
    std::vector<int> missing;
    std::string why;
    for (int i = 0; i < tasks; ++i) {
        const fs::path t = dir / "tasks" / std::to_string(i);
        std::string reason;
        if (!fs::is_directory(t, ec)) reason = "no folder " + t.string();
        else if (!fs::exists(t / "done", ec))
            reason = "not finished (no " + (t / "done").string() + "): still running, or it failed; see " +
                     (t / "slurm.log").string();
        else if (!fs::is_regular_file(t / "gradebook.csv", ec))
            reason = "finished without a gradebook.csv";
        if (reason.empty()) continue;
        missing.push_back(i);
        why += "\n  task " + std::to_string(i) + ": " + reason;
    }
    if (!missing.empty())
        throw Error(ErrorKind::Usage,
                    std::to_string(missing.size()) + " of the " + std::to_string(tasks) + " array task(s) of " +
                        script.string() + " did not finish:" + why,
                    {dir.string()},
                    "when no job is still running, resubmit just those: sbatch --array=" + index_list(missing) + " " +
                        shell_quote(script.string()) + "; then collect again");
    for (const auto& entry : fs::directory_iterator(dir / "tasks", ec)) {
        const std::string name = entry.path().filename().string();
        char* end = nullptr;
        const long i = std::strtol(name.c_str(), &end, 10);
        if (name.empty() || *end || i < 0 || i >= tasks || std::to_string(i) != name)
            throw Error(ErrorKind::Usage,
                        "'" + name + "' is not one of the " + std::to_string(tasks) + " tasks (0-" +
                            std::to_string(tasks - 1) + ") that grade.sbatch lists",
                        {(dir / "tasks").string()}, "it is left from another grade: move it out of the way");
    }

    std::vector<GradeRow> rows;
    std::map<std::string, int> task_of;  // student -> task
    std::vector<std::string> junits, junit_origins;
    for (int i = 0; i < tasks; ++i) {
        const fs::path t = dir / "tasks" / std::to_string(i);
        const fs::path csv = t / "gradebook.csv";
        for (GradeRow& r : parse_gradebook_csv(read_file(csv), csv.string())) {
            const auto [it, fresh] = task_of.emplace(r.student, i);
            if (!fresh && it->second != i)
                throw Error(ErrorKind::Usage,
                            "student '" + r.student + "' is in task " + std::to_string(it->second) + " and in task " +
                                std::to_string(i),
                            {csv.string()}, "the tasks come from different grades: grade again into a new folder");
            rows.push_back(std::move(r));
        }
        if (fs::is_regular_file(t / "junit.xml", ec)) {
            junits.push_back(read_file(t / "junit.xml"));
            junit_origins.push_back((t / "junit.xml").string());
        }
    }
    std::stable_sort(rows.begin(), rows.end(), [](const GradeRow& a, const GradeRow& b) {
        return a.student != b.student ? a.student < b.student : a.step < b.step;
    });

    // The students' folders, replacing what an earlier collect copied.
    for (int i = 0; i < tasks; ++i) {
        for (const auto& entry : fs::directory_iterator(dir / "tasks" / std::to_string(i))) {
            if (!entry.is_directory() || entry.is_symlink()) continue;
            const std::string name = entry.path().filename().string();
            if (name == "tasks")
                throw Error(ErrorKind::Usage, "a student named 'tasks' cannot be copied beside the tasks folder",
                            {entry.path().string()}, "rename that submission and grade again");
            const fs::path to = dir / name;
            fs::remove_all(to, ec);
            if (ec) throw Error(ErrorKind::Io, "cannot replace the earlier copy: " + ec.message(), {to.string()});
            fs::copy(entry.path(), to, fs::copy_options::recursive | fs::copy_options::copy_symlinks, ec);
            if (ec) throw Error(ErrorKind::Io, "cannot copy " + entry.path().string() + ": " + ec.message(), {to.string()});
        }
    }
    if (!junits.empty()) write_file_atomic(dir / "junit.xml", merge_junit_documents(junits, junit_origins));
    write_file_atomic(dir / "gradebook.csv", gradebook_csv(rows));
    return rows.size();
}

std::string submit_with_sbatch(const fs::path& script) {
    int out[2], err[2];
    if (::pipe2(out, O_CLOEXEC) != 0) throw Error(ErrorKind::Io, std::string("cannot create a pipe: ") + std::strerror(errno));
    if (::pipe2(err, O_CLOEXEC) != 0) {
        const int e = errno;
        ::close(out[0]), ::close(out[1]);
        throw Error(ErrorKind::Io, std::string("cannot create a pipe: ") + std::strerror(e));
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err[1], 2);
    std::vector<std::string> args = {"sbatch", "--parsable", script.string()};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int rc = ::posix_spawnp(&pid, "sbatch", &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(out[1]), ::close(err[1]);
    if (rc != 0) {
        ::close(out[0]), ::close(err[0]);
        if (rc == ENOENT)
            throw Error(ErrorKind::Usage, "sbatch was not found on PATH, so the job was not submitted", {script.string()},
                        "run this on the cluster's login node, or submit the script yourself: sbatch " +
                            shell_quote(script.string()));
        throw Error(ErrorKind::Usage, std::string("cannot start sbatch: ") + std::strerror(rc), {script.string()});
    }
    std::string stdout_text, stderr_text;
    constexpr std::size_t kCap = 64 << 10;
    pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
    int open = 2;
    while (open > 0) {
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        for (int k = 0; k < 2; ++k) {
            if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            const std::size_t before = k == 0 ? stdout_text.size() : stderr_text.size();
            char probe[4096];
            const ssize_t n = ::read(fds[k].fd, probe, sizeof probe);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                ::close(fds[k].fd);
                fds[k].fd = -1;
                --open;
                continue;
            }
            std::string& into = k == 0 ? stdout_text : stderr_text;
            if (before < kCap) into.append(probe, std::size_t(n));
        }
    }
    for (auto& f : fds)
        if (f.fd >= 0) ::close(f.fd);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    auto trimmed = [](std::string s) {
        s.erase(0, s.find_first_not_of(" \t\r\n"));
        s.erase(s.find_last_not_of(" \t\r\n") + 1);
        return s;
    };
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        const std::string how = WIFEXITED(status) ? "exited with " + std::to_string(WEXITSTATUS(status))
                                                  : "was killed by signal " + std::to_string(WTERMSIG(status));
        const std::string said = trimmed(stderr_text.empty() ? stdout_text : stderr_text);
        throw Error(ErrorKind::Usage, "sbatch " + how + (said.empty() ? std::string(" and said nothing") : ": " + said),
                    {script.string()});
    }
    // --parsable prints "JOBID" or "JOBID;CLUSTER".
    const std::string line = trimmed(stdout_text.substr(0, stdout_text.find('\n')));
    const std::string id = line.substr(0, line.find(';'));
    if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
        throw Error(ErrorKind::Usage, "sbatch printed '" + line + "', not a job id", {script.string()});
    return id;
}

}  // namespace wb
