// tests/unit/reference_test.cpp — building, caching, loading and running CPU references.
//
// Uses the real host compiler (c++ or $CXX) and dlopen, exactly as a lesson
// check does; each test gets its own XDG_CACHE_HOME so it never touches the
// user's cache and always starts cold.
#include "core/error.hpp"
#include "reference/reference.hpp"

#include "scoped_cache_dir.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <vector>

namespace fs = std::filesystem;
using namespace wb;

namespace {

class ReferenceTest : public ScopedCacheDirTest {};

Arg buffer(std::string name, DType t) {
    Arg a;
    a.kind = Arg::Kind::Buffer;
    a.name = std::move(name);
    a.type = t;
    return a;
}

Arg param(std::string name, DType t) {
    Arg a;
    a.kind = Arg::Kind::Param;
    a.name = std::move(name);
    a.type = t;
    return a;
}

ReferenceSpec spec(std::string text, std::string entry, std::vector<Arg> args,
                   std::string origin = "01_vector_add/reference.cpp") {
    ReferenceSpec s;
    s.source.text = std::move(text);
    s.source.origin = std::move(origin);
    s.entry = std::move(entry);
    s.args = std::move(args);
    return s;
}

std::string all_messages(const ReferenceBuild& b) {
    std::string out;
    for (const auto& d : b.diagnostics) out += d.to_string() + "\n";
    return out;
}

const char* kVectorAddRef = R"(// The CPU reference for vector_add.
void vector_add_ref(const float* a, const float* b, float* c, int n)
{
    for (int i = 0; i < n; ++i) c[i] = a[i] + b[i];
}
)";

ReferenceSpec vector_add_spec() {
    return spec(kVectorAddRef, "vector_add_ref",
                {buffer("a", DType::F32), buffer("b", DType::F32), buffer("c", DType::F32), param("n", DType::I32)});
}

}  // namespace

TEST_F(ReferenceTest, KernelLikeSignatureBuildsLoadsAndComputes) {
    auto build = build_reference(vector_add_spec());
    ASSERT_TRUE(build.ok) << build.log << all_messages(build);
    EXPECT_FALSE(build.from_cache);
    EXPECT_GT(build.seconds, 0.0);
    EXPECT_TRUE(fs::is_regular_file(build.library));
    EXPECT_EQ(build.library.parent_path(), dir_ / "cuda-workbook" / "reference");
    EXPECT_EQ(build.symbol.rfind("wb_reference_entry_", 0), 0u);
    EXPECT_NE(build.wrapper_source.find("vector_add_ref("), std::string::npos);
    ASSERT_FALSE(build.command.empty());
    EXPECT_TRUE(fs::path(build.command[0]).is_absolute());

    LoadedReference ref(build);
    std::vector<float> a = {1, 2, 3, 4, 5}, b = {10, 20, 30, 40, 50}, c(5, -1.0f);
    float* pa = a.data();
    float* pb = b.data();
    float* pc = c.data();
    int32_t n = 4;  // the last element must stay untouched
    void* args[] = {&pa, &pb, &pc, &n};
    double seconds = ref.run(args);
    EXPECT_GT(seconds, 0.0);
    EXPECT_EQ(c, (std::vector<float>{11, 22, 33, 44, -1}));
}

// a * b + c is rounded twice, as written: a fused multiply-add would round
// once and give another float, and a lesson's exact comparison (a Mandelbrot's
// iteration counts) would then depend on what the compiler chose.
TEST_F(ReferenceTest, MultiplyAddIsNotContractedIntoAnFma) {
    auto build = build_reference(spec("void mad(const float* a, float* y, int n) { for (int i = 0; i < n; ++i) y[i] = a[i] * a[i] - 1.0f; }",
                                      "mad", {buffer("a", DType::F32), buffer("y", DType::F32), param("n", DType::I32)}));
    ASSERT_TRUE(build.ok) << build.log << all_messages(build);
    LoadedReference ref(build);
    // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24: rounded to float it is 1 + 2^-11 (a tie, to even).
    std::vector<float> a(16, 1.0f + 0x1.0p-12f), y(16, 0.0f);
    float* pa = a.data();
    float* py = y.data();
    int32_t n = 16;
    void* args[] = {&pa, &py, &n};
    ref.run(args);
    for (float v : y) EXPECT_EQ(v, 0x1.0p-11f) << "an FMA would give 2^-11 + 2^-24";
}

TEST_F(ReferenceTest, ScalarsOfEveryTypePassThrough) {
    const char* src = R"(
void scalars(double* out, int32_t i, uint32_t u, float f, double d, uint8_t b) {
    out[0] = i; out[1] = u; out[2] = f; out[3] = d; out[4] = b;
}
)";
    auto build = build_reference(spec(src, "scalars",
                                      {buffer("out", DType::F64), param("i", DType::I32), param("u", DType::U32),
                                       param("f", DType::F32), param("d", DType::F64), param("b", DType::U8)},
                                      "scalars.cpp"));
    ASSERT_TRUE(build.ok) << build.log;
    LoadedReference ref(build);
    std::vector<double> out(5, 0.0);
    double* po = out.data();
    int32_t i = -7;
    uint32_t u = 4000000000u;
    float f = 0.25f;
    double d = 1e300;
    uint8_t b = 200;
    void* args[] = {&po, &i, &u, &f, &d, &b};
    ref.run(args);
    EXPECT_EQ(out[0], -7.0);
    EXPECT_EQ(out[1], 4000000000.0);
    EXPECT_EQ(out[2], 0.25);
    EXPECT_EQ(out[3], 1e300);
    EXPECT_EQ(out[4], 200.0);
}

TEST_F(ReferenceTest, NamespacedEntryAndStandardHeadersWork) {
    const char* src = R"(namespace lesson {
void norm(const float* x, float* out, int n) {
    float s = 0;
    for (int i = 0; i < n; ++i) s += x[i] * x[i];
    out[0] = std::sqrt(s);
    out[1] = std::max(x[0], x[1]);
}
}
)";
    auto build = build_reference(spec(src, "lesson::norm",
                                      {buffer("x", DType::F32), buffer("out", DType::F32), param("n", DType::I32)}));
    ASSERT_TRUE(build.ok) << build.log;
    LoadedReference ref(build);
    std::vector<float> x = {3, 4}, out(2);
    float* px = x.data();
    float* po = out.data();
    int n = 2;
    void* args[] = {&px, &po, &n};
    ref.run(args);
    EXPECT_FLOAT_EQ(out[0], 5.0f);
    EXPECT_FLOAT_EQ(out[1], 4.0f);
}

TEST_F(ReferenceTest, SyntaxErrorOnLine2IsReportedAtLine2OfTheOrigin) {
    auto build = build_reference(spec("void ref(float* c, int n) {\n"
                                      "    for (int i = 0; i < n; ++i) c[i] = 1.0f\n"
                                      "}\n",
                                      "ref", {buffer("c", DType::F32), param("n", DType::I32)}));
    EXPECT_FALSE(build.ok);
    EXPECT_TRUE(build.library.empty());
    ASSERT_FALSE(build.diagnostics.empty()) << build.log;
    const Diagnostic& d = build.diagnostics.front();
    EXPECT_EQ(d.file, "01_vector_add/reference.cpp");
    EXPECT_EQ(d.line, 2);
    EXPECT_GT(d.column, 0);
    EXPECT_EQ(d.severity, Severity::Error);
    EXPECT_NE(d.message.find("expected ';'"), std::string::npos) << d.message;
    EXPECT_FALSE(build.log.empty());
    EXPECT_THROW(LoadedReference{build}, Error);
}

TEST_F(ReferenceTest, SignatureMismatchSaysWhatTheLaunchPasses) {
    // The lesson passes a float buffer where the reference takes double*.
    auto build = build_reference(spec("void ref(double* c, int n) { c[0] = n; }\n", "ref",
                                      {buffer("c", DType::F32), param("n", DType::I32)}));
    EXPECT_FALSE(build.ok);
    ASSERT_FALSE(build.diagnostics.empty()) << build.log;
    const Diagnostic& d = build.diagnostics.front();
    EXPECT_EQ(d.file, "01_vector_add/reference.cpp");
    EXPECT_EQ(d.line, 1);  // located on the declaration the compiler tried
    EXPECT_NE(d.message.find("the reference 'ref' does not match the launch arguments (buffer c: float*, param n: "
                             "int32_t)"),
              std::string::npos)
        << d.message;
    EXPECT_NE(d.message.find("cannot convert"), std::string::npos) << d.message;
    for (const auto& diag : build.diagnostics) EXPECT_NE(diag.file, "<generated trampoline>");
}

TEST_F(ReferenceTest, TooFewParametersIsAMismatchToo) {
    auto build = build_reference(
        spec("void ref(float* c) { c[0] = 1; }\n", "ref", {buffer("c", DType::F32), param("n", DType::I32)}));
    EXPECT_FALSE(build.ok);
    ASSERT_FALSE(build.diagnostics.empty());
    EXPECT_NE(build.diagnostics.front().message.find("does not match the launch arguments"), std::string::npos)
        << all_messages(build);
}

TEST_F(ReferenceTest, MissingEntryNamesTheFunction) {
    auto build = build_reference(
        spec("void vector_add(float* c, int n) { c[0] = n; }\n", "vector_add_ref",
             {buffer("c", DType::F32), param("n", DType::I32)}));
    EXPECT_FALSE(build.ok);
    ASSERT_FALSE(build.diagnostics.empty());
    EXPECT_NE(build.diagnostics.front().message.find("the reference function 'vector_add_ref' was not found"),
              std::string::npos)
        << all_messages(build);
}

TEST_F(ReferenceTest, UndefinedHelperIsABuildErrorNotALoadFailure) {
    auto build = build_reference(spec("float helper(float);\nvoid ref(float* c) { c[0] = helper(1.0f); }\n", "ref",
                                      {buffer("c", DType::F32)}));
    EXPECT_FALSE(build.ok);
    ASSERT_FALSE(build.diagnostics.empty()) << build.log;
    EXPECT_NE(build.diagnostics.front().message.find("undefined reference to `helper(float)'"), std::string::npos)
        << all_messages(build);
}

TEST_F(ReferenceTest, EntryThatIsNotANameIsRefusedBeforeCompiling) {
    auto build = build_reference(spec("void ref(float* c) {}\n", "ref(0); int x", {buffer("c", DType::F32)}));
    EXPECT_FALSE(build.ok);
    ASSERT_EQ(build.diagnostics.size(), 1u);
    EXPECT_NE(build.diagnostics[0].message.find("is not a C++ function name"), std::string::npos);
    EXPECT_TRUE(build.command.empty()) << "nothing was run";
}

TEST_F(ReferenceTest, SecondBuildIsACacheHitAndAnEditIsNot) {
    auto first = build_reference(vector_add_spec());
    ASSERT_TRUE(first.ok);
    auto second = build_reference(vector_add_spec());
    ASSERT_TRUE(second.ok);
    EXPECT_TRUE(second.from_cache);
    EXPECT_EQ(second.seconds, 0.0);
    EXPECT_EQ(second.library, first.library);
    EXPECT_EQ(second.symbol, first.symbol);

    auto edited = vector_add_spec();
    edited.source.text += "// an edit\n";
    auto third = build_reference(edited);
    ASSERT_TRUE(third.ok);
    EXPECT_FALSE(third.from_cache);
    EXPECT_NE(third.library, first.library);
    // Only finished libraries are in the cache folder: no temporaries left.
    for (const auto& e : fs::directory_iterator(first.library.parent_path()))
        EXPECT_EQ(e.path().extension(), ".so") << e.path();
}

TEST_F(ReferenceTest, LoadedReferenceMovesAndStaysUsable) {
    auto build = build_reference(vector_add_spec());
    ASSERT_TRUE(build.ok);
    LoadedReference a(build);
    LoadedReference b(std::move(a));
    EXPECT_THROW(a.run(nullptr), Error);  // NOLINT(bugprone-use-after-move): the moved-from state is defined
    std::vector<float> x = {1}, y = {2}, z = {0};
    float* px = x.data();
    float* py = y.data();
    float* pz = z.data();
    int n = 1;
    void* args[] = {&px, &py, &pz, &n};
    LoadedReference c(build);
    c = std::move(b);
    c.run(args);
    EXPECT_EQ(z[0], 3.0f);
}

TEST_F(ReferenceTest, MissingCompilerThrowsWithInstallHint) {
    const char* old_cxx = std::getenv("CXX");
    std::string saved = old_cxx ? old_cxx : "";
    setenv("CXX", "/nonexistent/bin/g++", 1);
    try {
        build_reference(vector_add_spec());
        ADD_FAILURE() << "a missing compiler must throw";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Reference);
        EXPECT_NE(e.describe().find("no host C++ compiler found"), std::string::npos) << e.describe();
        EXPECT_NE(e.describe().find("g++"), std::string::npos);
    }
    if (old_cxx)
        setenv("CXX", saved.c_str(), 1);
    else
        unsetenv("CXX");
}

#include "reference/isolated.hpp"

#include <sched.h>

TEST(ReferenceLimits, TheDeadlineIsCpuTimeOnEveryCoreAnOpenMpReferenceMayUse) {
    // RLIMIT_CPU sums the threads: a 2 s deadline must not stop a 16-thread
    // reference after 0.125 s of wall time (grading with --timeout 2 did).
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    ASSERT_EQ(::sched_getaffinity(0, sizeof cpus, &cpus), 0);
    const int cores = CPU_COUNT(&cpus);
    EXPECT_DOUBLE_EQ(reference_limits(2, 0).cpu_seconds, 2.0 * cores);
    EXPECT_DOUBLE_EQ(reference_limits(0, 0).cpu_seconds, 30.0 * cores);  // no deadline given: 30 s
}
