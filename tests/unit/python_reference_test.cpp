// tests/unit/python_reference_test.cpp — each lesson step's NumPy reference
// (lesson.hpp's PythonSpec, the check of the Python files `export` writes)
// agrees with the step's C++ reference on the same inputs, for every case that
// is not a timing case, within the lesson's tolerance. The inputs and the C++
// outputs are written as .npy files and tests/tools/check_python_reference.py
// runs the NumPy code on them (Debian's python3 with python3-numpy).
#include "core/error.hpp"
#include "lesson/loader.hpp"
#include "lesson/resolve.hpp"
#include "pipeline/run.hpp"
#include "scoped_cache_dir.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <sys/wait.h>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const char* npy_descr(wb::DType t) {
    switch (t) {
    case wb::DType::U8: return "|u1";
    case wb::DType::I32: return "<i4";
    case wb::DType::U32: return "<u4";
    case wb::DType::F32: return "<f4";
    case wb::DType::F64: return "<f8";
    case wb::DType::F16: return "<f2";
    }
    return "|u1";
}

// NumPy's .npy format, version 1.0.
void write_npy(const fs::path& p, const wb::HostBuffer& b) {
    std::string shape = "(";
    for (std::size_t d : b.full_shape()) shape += std::to_string(d) + ", ";
    if (b.full_shape().empty()) shape += ")";
    else shape = shape.substr(0, shape.size() - 2) + (b.full_shape().size() == 1 ? ",)" : ")");
    std::string header = "{'descr': '" + std::string(npy_descr(b.type)) + "', 'fortran_order': False, 'shape': " + shape + ", }";
    while ((10 + header.size() + 1) % 64) header += ' ';
    header += '\n';
    std::ofstream out(p, std::ios::binary);
    out.write("\x93NUMPY\x01\x00", 8);
    const unsigned short len = static_cast<unsigned short>(header.size());
    out.put(char(len & 0xff)).put(char(len >> 8));
    out << header;
    out.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size_bytes()));
}

std::vector<fs::path> lesson_files() { return wb::list_lessons(WB_SOURCE_DIR "/lessons"); }

std::shared_ptr<const wb::Lesson> load(const fs::path& p) {
    wb::LoadResult lr = wb::load_lesson(p);
    if (!lr.ok()) return nullptr;
    return std::make_shared<const wb::Lesson>(std::move(*lr.lesson));
}

struct Outcome {
    int code = -1;
    std::string out;
};

Outcome run(const std::string& cmd) {
    Outcome o;
    FILE* p = popen((cmd + " 2>&1").c_str(), "r");
    if (!p) return o;
    char buf[4096];
    std::size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) o.out.append(buf, n);
    const int st = pclose(p);
    o.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return o;
}

}  // namespace

TEST(PythonReference, EveryKernelStepOfTheShippedLessonsHasOne) {
    for (const fs::path& f : lesson_files()) {
        const auto lesson = load(f);
        ASSERT_TRUE(lesson) << f;
        for (const wb::Step& s : lesson->steps)
            if (!s.is_host())
                EXPECT_TRUE(s.python.present()) << f.filename().string() << " step " << s.id
                                                << ": no \"python\": {\"reference\": ...}, so its exports cannot check";
    }
}

using PythonReferenceAgrees = DriverOffTest;

TEST_F(PythonReferenceAgrees, WithTheCppReferenceOnEveryUntimedCase) {
    if (!fs::exists("/usr/bin/python3") || run("/usr/bin/python3 -c 'import numpy'").code != 0)
        GTEST_SKIP() << "Debian's python3-numpy is missing (scripts/workbook.sh deps installs it)";
    const auto backend = wb::make_local_backend();
    int checked = 0;
    for (const fs::path& f : lesson_files()) {
        const auto lesson = load(f);
        ASSERT_TRUE(lesson) << f;
        for (const wb::Step& s : lesson->steps) {
            if (s.is_host() || !s.python.present()) continue;
            for (const wb::TestCase& tc : s.checks.cases) {
                if (tc.timing || !tc.emulate) continue;
                const std::string where = f.filename().string() + " step " + s.id + " case " + tc.name;
                wb::RunRequest req;
                req.lesson = lesson;
                req.step = s.id;
                req.test_case = tc.name;
                req.reference_only = true;
                req.executor = wb::Executor::Cpu;
                req.keep_buffers = true;
                req.trusted = true;
                const wb::RunResult r = backend->run(req);
                ASSERT_EQ(r.status, wb::RunStatus::CompileOnly) << where << ": " << r.message;
                const fs::path dir = dir_ / "cases" / (lesson->id + "-" + s.id + "-" + tc.name);
                fs::create_directories(dir / "outputs");
                json meta = {{"where", where}, {"code", s.python.reference.text}, {"inputs", json::array()},
                             {"outputs", json::array()}, {"params", json::object()}};
                for (const auto& [name, value] : r.params) {
                    const wb::Param* p = nullptr;
                    for (const auto& q : s.params)
                        if (q.name == name) p = &q;
                    if (p && (p->type == wb::DType::F32 || p->type == wb::DType::F64 || p->type == wb::DType::F16))
                        meta["params"][name] = value;
                    else
                        meta["params"][name] = static_cast<long long>(value);
                }
                for (const auto& h : r.inputs) {
                    write_npy(dir / (h.name + ".npy"), h);
                    meta["inputs"].push_back(h.name);
                }
                for (const auto& c : wb::resolve_compare(s, r.params)) {
                    for (const auto& h : r.cpu_outputs)
                        if (h.name == c.buffer) write_npy(dir / "outputs" / (h.name + ".npy"), h);
                    meta["outputs"].push_back({{"name", c.buffer}, {"atol", c.atol}, {"rtol", c.rtol}});
                }
                std::ofstream(dir / "meta.json") << meta.dump(1);
                const Outcome o = run("/usr/bin/python3 '" WB_SOURCE_DIR "/tests/tools/check_python_reference.py' '" +
                                      dir.string() + "'");
                EXPECT_EQ(o.code, 0) << o.out;
                ++checked;
            }
        }
    }
    EXPECT_GT(checked, 0) << "no step has a python reference";
    std::printf("[ figures  ] %d cases: NumPy reference vs C++ reference\n", checked);
}
