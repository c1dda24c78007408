// cli/commands/export.cpp — `cuda-workbook-cli export <lesson.json> --to cupy|torch|numba|cuda-core`:
// a kernel step as a runnable Python file for the student's own home
// (runtime/export/python_export.hpp; docs/export.md).
#include "commands.hpp"

#include "common.hpp"
#include "core/error.hpp"
#include "core/fs.hpp"
#include "export/python_export.hpp"

#include <iostream>

namespace fs = std::filesystem;

namespace wb::cli {

namespace {

int export_main(const Args& a) {
    int refused = kOk;
    auto lesson = open_one_lesson(a, "export", refused);
    if (!lesson) return refused;
    const auto to = a.value("--to");
    if (!to) throw UsageError("export needs --to cupy, torch, numba or cuda-core");
    PythonExportRequest q;
    q.lesson = lesson.get();
    try {
        q.home = python_home_from_name(*to);
    } catch (const Error& e) {
        throw UsageError("--to: " + e.message());
    }
    q.step = a.value("--step") ? &step_or_usage_error(*lesson, *a.value("--step")) : &lesson->steps.front();
    if (auto c = a.value("--case")) {
        for (const TestCase& tc : q.step->checks.cases)
            if (tc.name == *c) q.test_case = &tc;
        if (!q.test_case) {
            std::string names;
            for (const TestCase& tc : q.step->checks.cases) names += (names.empty() ? "" : ", ") + tc.name;
            throw UsageError("step '" + q.step->id + "' has no case '" + *c + "'; its cases are: " + names);
        }
    } else if (!q.step->checks.cases.empty()) {
        q.test_case = &q.step->checks.cases.front();
    }
    q.params = param_overrides(a);
    if (a.flag("--solution") && a.value("--source")) throw UsageError("--solution and --source cannot be used together");
    q.source = a.flag("--solution") ? q.step->solution : q.step->starter;
    if (auto f = a.value("--source")) {
        try {
            q.source = {read_file(*f, 4u << 20), fs::path(*f).filename().string(), ""};
        } catch (const Error& e) {
            throw UsageError("--source: " + e.describe());
        }
    }
    PythonExport out;
    try {
        out = export_python(q);
    } catch (const Error& e) {
        std::cerr << "export: " << e.describe() << "\n";
        return e.kind() == ErrorKind::Usage ? kUsage : kFailed;
    }
    const std::string target = a.value("-o").value_or(out.file_name);
    if (target == "-") {
        std::cout << out.text;
        return kOk;
    }
    try {
        write_file_atomic(target, out.text);
    } catch (const Error& e) {
        std::cerr << "export: " << e.describe() << "\n";
        return kFailed;
    }
    std::cout << "wrote " << target << " (" << python_home_name(q.home) << ", step " << q.step->id << ", case "
              << (q.test_case ? q.test_case->name : "defaults") << ", kernel from " << q.source.origin << ")\n"
              << "run it with: python3 " << target << "\n";
    return kOk;
}

}  // namespace

CommandSpec export_command() {
    CommandSpec c;
    c.name = "export";
    c.operands = "<lesson.json>";
    c.summary = "write a kernel step as a Python file for CuPy, PyTorch, Numba or cuda.core";
    c.about =
        "Writes step S's kernel (the starter, --solution, or --source FILE) as a runnable Python file\n"
        "for CuPy (RawModule, NVRTC), PyTorch (load_inline, nvcc), Numba (numba-cuda's link= of CUDA\n"
        "C++) or NVIDIA's cuda.core: the case's params, inputs made as the lesson makes them, the\n"
        "step's launches computed from the params by the lesson's own expressions, and a check\n"
        "against the step's NumPy reference under the lesson's tolerance. Runs nothing itself.\n";
    c.options = {
        value_option("--to", "HOME", "cupy, torch, numba or cuda-core"),
        value_option("--step", "S", "a step id or number, from 1 as in the app (default: the first)"),
        value_option("--case", "C", "the case whose params and inputs the file uses (default: the first)"),
        repeated_option("--param", "N=V", "set a param (repeatable)"),
        flag_option("--solution", "export the lesson's solution (default: the starter)"),
        value_option("--source", "FILE", "export the kernel in FILE (your own)"),
        value_option("-o", "FILE", "where to write it (default: <lesson>_<step>_<home>.py here; - prints it)"),
        flag_option("--trust", "the lesson is outside the shipped lessons folder and you trust its author\n"
                               "(the file it writes runs the lesson's kernel and NumPy code)"),
    };
    c.run = export_main;
    return c;
}

}  // namespace wb::cli
