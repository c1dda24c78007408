// tests/unit/lesson_loader_test.cpp — the lesson loader against good and broken lessons.
//
// Good lessons (tests/data/lessons_good) must load into a complete model with
// step overrides merged and files read. Every broken lesson in the catalogue
// tests/data/lessons_bad must fail with the JSON path and message listed for
// it in lessons_bad/expected.json; the cases that need the file system
// (symlinks, huge files, bad bytes) are made at run time in a temporary folder.
// Throughout, the loader must never throw, whatever the input.
#include "core/error.hpp"
#include "core/fs.hpp"
#include "lesson/loader.hpp"
#include "lesson/resolve.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace wb;

namespace {

const fs::path kData = fs::path(WB_SOURCE_DIR) / "tests" / "data";
const fs::path kGood = kData / "lessons_good";
const fs::path kBad = kData / "lessons_bad";

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void spit(const fs::path& p, const std::string& bytes) {
    fs::create_directories(p.parent_path());
    std::ofstream out(p, std::ios::binary);
    out << bytes;
}

std::string all_issues(const LoadResult& r) {
    std::string out;
    for (const auto& i : r.issues) out += "  " + i.to_string() + "\n";
    return out;
}

bool has_issue(const LoadResult& r, const std::string& path, const std::string& message_part) {
    return std::any_of(r.issues.begin(), r.issues.end(), [&](const LessonIssue& i) {
        return i.json_path == path && i.message.find(message_part) != std::string::npos;
    });
}

// A fresh folder under the system temp dir, removed at the end of the test.
class TempDir {
public:
    TempDir() {
        path_ = fs::temp_directory_path() /
                ("wb_loader_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++));
        fs::remove_all(path_);
        fs::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
    static inline int counter_ = 0;
};

// The minimal good lesson with its starter replaced by `starter_json`.
std::string minimal_with_starter(const std::string& starter_json) {
    auto j = nlohmann::ordered_json::parse(slurp(kGood / "minimal.json"));
    j["steps"][0]["starter"] = nlohmann::ordered_json::parse(starter_json);
    return j.dump(2);
}

}  // namespace

// ---------------------------------------------------------------------------
// Good lessons
// ---------------------------------------------------------------------------

TEST(LessonLoader, MinimalLessonLoadsWithDefaultsFilledIn) {
    LoadResult r = load_lesson(kGood / "minimal.json");
    ASSERT_TRUE(r.ok()) << all_issues(r);
    const Lesson& l = *r.lesson;
    EXPECT_EQ(l.id, "minimal");
    EXPECT_EQ(l.schema, "./lesson.schema.json");
    EXPECT_EQ(l.title.get(), "The smallest complete lesson");
    ASSERT_EQ(l.steps.size(), 1u);
    const Step& s = l.steps[0];
    EXPECT_EQ(s.json_path, "steps[0]");
    ASSERT_EQ(s.params.size(), 1u);
    EXPECT_EQ(s.params[0].name, "N");
    EXPECT_EQ(s.params[0].default_value, 16);
    EXPECT_EQ(s.params[0].json_path, "params.N");

    ASSERT_EQ(s.buffers.size(), 2u);
    EXPECT_EQ(s.buffers[0].init.kind, InitKind::Ramp);
    EXPECT_EQ(s.buffers[1].init.kind, InitKind::Zero);  // outputs default to zero
    EXPECT_EQ(s.buffers[1].json_path, "buffers[1]");

    ASSERT_EQ(s.launches.size(), 1u);
    const LaunchSpec& launch = s.launches[0];
    EXPECT_EQ(launch.block, (std::array<std::string, 3>{"64", "1", "1"}));
    EXPECT_EQ(launch.grid[0], "ceil_div(N, block.x)");
    EXPECT_EQ(launch.grid[1], "1");
    EXPECT_EQ(launch.shared_bytes, "0");
    ASSERT_EQ(launch.args.size(), 3u);
    EXPECT_EQ(launch.args[0].kind, Arg::Kind::Buffer);
    EXPECT_EQ(launch.args[2].kind, Arg::Kind::Param);
    EXPECT_EQ(launch.args[2].type, DType::I32);

    // Reference: entry defaults to "reference", args to the first launch's.
    EXPECT_EQ(s.reference.entry, "reference");
    ASSERT_EQ(s.reference.args.size(), 3u);
    EXPECT_EQ(s.reference.args[1].name, "y");
    EXPECT_EQ(s.reference.source.origin, "<inline>");

    // No "compare": every output is compared at its type's default tolerance.
    ASSERT_EQ(s.checks.compare.size(), 1u);
    EXPECT_EQ(s.checks.compare[0].buffer, "y");
    EXPECT_DOUBLE_EQ(s.checks.compare[0].atol, 1e-5);
    EXPECT_DOUBLE_EQ(s.checks.compare[0].rtol, 1e-5);
    EXPECT_EQ(s.checks.warmup, 2);
    EXPECT_EQ(s.checks.repeat, 10);
    ASSERT_EQ(s.checks.cases.size(), 1u);
    EXPECT_TRUE(s.checks.cases[0].params.empty());
    EXPECT_EQ(s.compile.std, "c++17");

    // An array of source lines is joined with newlines and ends with one.
    EXPECT_EQ(s.solution.json_path, "steps[0].solution");
    EXPECT_EQ(s.solution.text.substr(0, 13), "extern \"C\" __");
    EXPECT_EQ(s.solution.text.back(), '\n');
    EXPECT_NE(s.solution.text.find("{\n    int i"), std::string::npos);
}

TEST(LessonLoader, FullLessonMergesStepOverridesAndReadsFiles) {
    LoadResult r = load_lesson(kGood / "full.json");
    ASSERT_TRUE(r.ok()) << all_issues(r);
    const Lesson& l = *r.lesson;
    EXPECT_EQ(l.title.get("en"), "Every feature of format 1");
    EXPECT_EQ(l.title.get("zh"), "格式 1 的\n全部功能");
    EXPECT_EQ(l.summary.get(), "A test lesson that uses every key,\nevery Text and Source form, and step overrides.");
    ASSERT_EQ(l.steps.size(), 2u);

    // Step 0 runs on the lesson-level defaults; its paths point at them.
    const Step& s0 = l.steps[0];
    ASSERT_EQ(s0.params.size(), 3u);
    EXPECT_EQ(s0.params[0].name, "H");  // file order is kept
    EXPECT_EQ(s0.params[2].name, "gain");
    EXPECT_EQ(s0.params[2].type, DType::F32);
    EXPECT_EQ(s0.params[0].description.get("zh"), "图像高度");  // "zh" finds "zh-Hans"
    EXPECT_EQ(s0.params[2].description.get(), "Brightness\nmultiplier");
    EXPECT_EQ(*s0.params[0].min, 1);
    EXPECT_EQ(*s0.params[0].max, 4096);
    EXPECT_EQ(s0.buffers[0].json_path, "buffers[0]");
    EXPECT_EQ(s0.buffers[0].shape, (std::vector<std::string>{"H", "W", "3"}));

    const BufferInit& img = s0.buffers[0].init;
    EXPECT_EQ(img.kind, InitKind::Image);
    EXPECT_EQ(img.image_name, "test_pattern.png");
    EXPECT_TRUE(img.image.is_absolute());
    EXPECT_TRUE(fs::exists(img.image));
    EXPECT_EQ(img.layout, ImageLayout::HWC);
    EXPECT_EQ(img.channels, ImageChannels::RGB);

    EXPECT_EQ(s0.launches[0].block[1], "16");
    EXPECT_EQ(s0.launches[0].grid[1], "ceil_div(H, block.y)");
    EXPECT_EQ(s0.launches[0].args[4].type, DType::F32);
    EXPECT_EQ(s0.reference.entry, "brighten_ref");
    EXPECT_EQ(s0.reference.source.origin, "full/reference.cpp");
    EXPECT_EQ(s0.reference.source.json_path, "reference.source");
    EXPECT_NE(s0.reference.source.text.find("void brighten_ref("), std::string::npos);
    EXPECT_EQ(s0.reference.args.size(), 5u);
    EXPECT_EQ(s0.starter.origin, "full/starter.cu");
    EXPECT_NE(s0.starter.text.find("TODO"), std::string::npos);
    EXPECT_NE(s0.solution.text.find("out[i] = gain * in[i];"), std::string::npos);

    ASSERT_EQ(s0.checks.compare.size(), 1u);
    EXPECT_DOUBLE_EQ(s0.checks.compare[0].atol, 1e-4);
    EXPECT_DOUBLE_EQ(s0.checks.compare[0].rtol, 1e-5);  // not given: the f32 default
    EXPECT_EQ(s0.checks.warmup, 1);
    EXPECT_EQ(s0.checks.repeat, 5);
    ASSERT_EQ(s0.checks.cases.size(), 3u);
    EXPECT_TRUE(s0.checks.cases[2].timing);
    EXPECT_EQ(s0.checks.cases[2].params.at("gain"), 0.5);
    EXPECT_EQ(s0.checks.cases[2].json_path, "checks.cases[2]");
    ASSERT_NE(s0.find_case("tiny"), nullptr);
    EXPECT_EQ(s0.find_case("tiny")->params.at("W"), 1);
    EXPECT_EQ(s0.metrics.bytes, "H*W*3*(1+4)");
    ASSERT_EQ(s0.views.size(), 2u);
    EXPECT_EQ(s0.views[0].title.get("zh"), "输入");
    EXPECT_EQ(s0.compile.options, (std::vector<std::string>{"--use_fast_math"}));
    EXPECT_EQ(s0.instructions.get("en"), "# Brighten\n\nMultiply every channel by `gain`.");
    ASSERT_EQ(s0.hints.size(), 3u);
    EXPECT_EQ(s0.hints[0].get("zh"), "使用二维网格。");
    EXPECT_EQ(s0.hints[1].get("zh"), "Check x < w and y < h.");  // plain text serves every language
    EXPECT_EQ(s0.hints[2].get(), "Two\nlines");

    // Step 1 replaces every default; its paths point into the step.
    const Step& s1 = l.steps[1];
    EXPECT_EQ(s1.params.size(), 3u);
    EXPECT_EQ(s1.find_param("H"), nullptr);
    ASSERT_NE(s1.find_param("n"), nullptr);
    EXPECT_EQ(s1.find_param("n")->type, DType::U32);
    EXPECT_EQ(s1.find_param("n")->json_path, "steps[1].params.n");
    EXPECT_EQ(s1.find_param("flag")->type, DType::U8);
    EXPECT_EQ(s1.buffers.size(), 5u);
    EXPECT_EQ(s1.find_buffer("x")->init.kind, InitKind::Normal);
    EXPECT_EQ(s1.find_buffer("x")->init.seed, 7u);
    EXPECT_EQ(s1.find_buffer("x")->init.stddev, 2);
    EXPECT_EQ(s1.find_buffer("y")->role, BufferRole::InOut);
    EXPECT_EQ(s1.find_buffer("y")->init.kind, InitKind::Uniform);
    EXPECT_EQ(s1.find_buffer("eye")->init.kind, InitKind::Identity);
    EXPECT_EQ(s1.find_buffer("k")->shape.size(), 0u);
    EXPECT_EQ(s1.find_buffer("k")->init.value, 3);
    EXPECT_EQ(s1.find_buffer("y")->json_path, "steps[1].buffers[1]");
    const Arg& computed = s1.launches[0].args[4];
    EXPECT_EQ(computed.kind, Arg::Kind::Expr);
    EXPECT_EQ(computed.name, "n*flag");
    EXPECT_EQ(computed.type, DType::I32);
    EXPECT_EQ(s1.launches[0].json_path, "steps[1].launches[0]");
    EXPECT_EQ(s1.reference.args.size(), 5u);
    EXPECT_EQ(s1.reference.args[4].name, "n");
    EXPECT_EQ(s1.reference.source.origin, "full/saxpy_reference.cpp");
    ASSERT_EQ(s1.checks.compare.size(), 1u);
    EXPECT_DOUBLE_EQ(s1.checks.compare[0].atol, 1e-12);  // f64 defaults
    EXPECT_DOUBLE_EQ(s1.checks.compare[0].rtol, 1e-12);
    EXPECT_EQ(s1.checks.warmup, 2);  // the step's checks replaced the lesson's wholesale
    EXPECT_EQ(s1.metrics.flops, "2*n");
    EXPECT_EQ(s1.views.size(), 3u);
    EXPECT_EQ(s1.views[2].kind, ViewKind::Scalar);
    EXPECT_EQ(s1.compile.std, "c++20");
    EXPECT_TRUE(s1.compile.options.empty());
    EXPECT_EQ(s1.starter.origin, "<inline>");

    EXPECT_EQ(l.find_step("saxpy"), &l.steps[1]);
    EXPECT_EQ(l.find_step("1"), &l.steps[0]);  // numbers are 1-based, as the GUI shows them
    EXPECT_EQ(l.find_step("2"), &l.steps[1]);
    EXPECT_EQ(l.find_step("0"), nullptr);
    EXPECT_EQ(l.find_step("3"), nullptr);
    EXPECT_EQ(l.find_step("nope"), nullptr);
}

TEST(LessonLoader, EveryShippedLessonLoadsWithoutIssues) {
    // The lessons in lessons/ are written by hand alongside the loader; this
    // keeps the two in agreement (the schema check does the same for the schema).
    for (const auto& file : list_lessons(fs::path(WB_SOURCE_DIR) / "lessons")) {
        LoadResult r = load_lesson(file);
        EXPECT_TRUE(r.ok()) << all_issues(r);
    }
}

TEST(LessonLoader, AssetsDirOptionOverridesTheFolderBesideTheLessons) {
    TempDir empty;
    LoadOptions opt;
    opt.assets_dir = empty.path();
    LoadResult r = load_lesson(kGood / "full.json", opt);
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(has_issue(r, "buffers[0].init.file", "does not exist")) << all_issues(r);
    EXPECT_NE(all_issues(r).find(empty.path().string()), std::string::npos) << "the message names where it looked";

    fs::copy_file(kData / "assets" / "test_pattern.png", empty.path() / "test_pattern.png");
    r = load_lesson(kGood / "full.json", opt);
    ASSERT_TRUE(r.ok()) << all_issues(r);
    EXPECT_EQ(r.lesson->steps[0].buffers[0].init.image, fs::canonical(empty.path() / "test_pattern.png"));
}

TEST(LessonLoader, GoodLessonsAreListedSortedWithoutTheSchema) {
    TempDir dir;
    for (const char* name : {"b.json", "a.json", "lesson.schema.json", "notes.txt", "sub/c.json"})
        spit(dir.path() / name, "{}");
    auto files = list_lessons(dir.path());
    ASSERT_EQ(files.size(), 2u);
    EXPECT_EQ(files[0].filename(), "a.json");
    EXPECT_EQ(files[1].filename(), "b.json");
    EXPECT_TRUE(list_lessons(dir.path() / "missing").empty());

    auto good = list_lessons(kGood);
    ASSERT_EQ(good.size(), 8u);
    EXPECT_EQ(good[0].filename(), "access_limits.json");
    EXPECT_EQ(good[1].filename(), "constant_mask.json");
    EXPECT_EQ(good[2].filename(), "format2.json");
    EXPECT_EQ(good[3].filename(), "full.json");
    EXPECT_EQ(good[4].filename(), "half_scale.json");
    EXPECT_EQ(good[5].filename(), "malloc_heap.json");
    EXPECT_EQ(good[6].filename(), "minimal.json");
    EXPECT_EQ(good[7].filename(), "multipass_scan.json");
}

// ---------------------------------------------------------------------------
// The catalogue of broken lessons
// ---------------------------------------------------------------------------

TEST(LessonLoader, EveryBrokenLessonInTheCatalogueReportsItsPathAndMessage) {
    const auto expected = nlohmann::json::parse(slurp(kBad / "expected.json"));
    ASSERT_GE(expected.size(), 20u);
    for (const auto& [name, want] : expected.items()) {
        SCOPED_TRACE(name);
        const fs::path file = kBad / name;
        ASSERT_TRUE(fs::exists(file));
        LoadResult r = load_lesson(file);
        EXPECT_FALSE(r.ok());
        EXPECT_FALSE(r.lesson.has_value());
        const std::string path = want.at("json_path");
        const std::string message = want.at("message");
        auto it = std::find_if(r.issues.begin(), r.issues.end(), [&](const LessonIssue& i) {
            return i.json_path == path && i.message.find(message) != std::string::npos;
        });
        ASSERT_NE(it, r.issues.end()) << "wanted '" << path << "': ..." << message << "...\ngot:\n" << all_issues(r);
        EXPECT_EQ(it->file, file.string());
        if (want.contains("line")) {
            EXPECT_EQ(it->line, want["line"].get<int>());
        }
        if (want.contains("column")) {
            EXPECT_EQ(it->column, want["column"].get<int>());
        }
    }
}

TEST(LessonLoader, EveryFileInTheCatalogueHasAnExpectation) {
    const auto expected = nlohmann::json::parse(slurp(kBad / "expected.json"));
    for (const auto& entry : fs::directory_iterator(kBad)) {
        const std::string name = entry.path().filename().string();
        if (name == "expected.json" || entry.path().extension() != ".json") continue;
        EXPECT_TRUE(expected.contains(name)) << name << " has no entry in lessons_bad/expected.json";
    }
}

TEST(LessonLoader, IssueReadsFilePathAndMessageAsTheUserNamedTheFile) {
    const std::string text = slurp(kBad / "unknown_param_in_step_shape.json");
    LoadResult r = load_lesson_text(text, "lessons/06_matmul.json");
    ASSERT_FALSE(r.ok());
    std::vector<std::string> lines;
    for (const auto& i : r.issues) lines.push_back(i.to_string());
    EXPECT_NE(std::find(lines.begin(), lines.end(),
                        "lessons/06_matmul.json: steps[1].buffers[2].shape[0]: unknown parameter 'K'"),
              lines.end())
        << all_issues(r);
}

TEST(LessonLoader, SyntaxErrorNamesLineAndColumn) {
    LoadResult r = load_lesson_text("{\n  \"format\": 1,\n  \"id\": \"x\"\n  \"title\": \"t\"\n}\n", "x.json");
    ASSERT_EQ(r.issues.size(), 1u) << all_issues(r);
    EXPECT_EQ(r.issues[0].line, 4);
    EXPECT_GE(r.issues[0].column, 3);
    EXPECT_EQ(r.issues[0].to_string().rfind("x.json:4:", 0), 0u) << r.issues[0].to_string();
    EXPECT_EQ(r.issues[0].message.find("[json.exception"), std::string::npos) << "nlohmann's prefix is dropped";
}

TEST(LessonLoader, ManyProblemsAreReportedInOnePass) {
    auto j = nlohmann::ordered_json::parse(slurp(kGood / "minimal.json"));
    j["buffers"][0]["type"] = "float";
    j["buffers"][1]["role"] = "result";
    j["launches"][0]["blok"] = 1;
    j["checks"]["cases"] = nlohmann::ordered_json::array();
    LoadResult r = load_lesson_text(j.dump(), kGood / "edited.json");
    EXPECT_TRUE(has_issue(r, "buffers[0].type", "unknown type 'float'")) << all_issues(r);
    EXPECT_TRUE(has_issue(r, "buffers[1].role", "unknown role 'result'")) << all_issues(r);
    EXPECT_TRUE(has_issue(r, "launches[0].blok", "unknown key 'blok'")) << all_issues(r);
    EXPECT_TRUE(has_issue(r, "checks.cases", "at least one case")) << all_issues(r);
}

TEST(LessonLoader, ADefaultUsedByTwoStepsReportsItsProblemOnce) {
    auto j = nlohmann::ordered_json::parse(slurp(kGood / "minimal.json"));
    j["buffers"][0]["type"] = "float";
    auto second = j["steps"][0];
    second["id"] = "again";
    j["steps"].push_back(second);
    LoadResult r = load_lesson_text(j.dump(), kGood / "edited.json");
    EXPECT_EQ(std::count_if(r.issues.begin(), r.issues.end(),
                            [](const LessonIssue& i) { return i.json_path == "buffers[0].type"; }),
              1)
        << all_issues(r);
}

TEST(LessonLoader, IssuesStopAtTheCapWithANote) {
    auto j = nlohmann::ordered_json::parse(slurp(kGood / "minimal.json"));
    for (int i = 0; i < 30; ++i) j["launches"][0]["bad_key_" + std::to_string(i)] = i;
    LoadOptions opt;
    opt.max_issues = 10;
    LoadResult r = load_lesson_text(j.dump(), "capped.json", opt);
    ASSERT_EQ(r.issues.size(), 11u);
    EXPECT_NE(r.issues.back().message.find("stopped after 10 issues"), std::string::npos);
}

TEST(LessonLoader, UnusedLessonLevelDefaultIsReported) {
    auto j = nlohmann::ordered_json::parse(slurp(kGood / "minimal.json"));
    j["steps"][0]["metrics"] = {{"bytes", "8*N"}};
    j["metrics"] = {{"bytes", "4*N"}};
    LoadResult r = load_lesson_text(j.dump(), kGood / "edited.json");
    EXPECT_TRUE(has_issue(r, "metrics", "never used")) << all_issues(r);
}

// ---------------------------------------------------------------------------
// Broken lessons made at run time
// ---------------------------------------------------------------------------

TEST(LessonLoader, SymlinkLeadingOutOfTheLessonFolderIsRefused) {
    TempDir tmp;
    const fs::path lesson_dir = tmp.path() / "lessons";
    spit(tmp.path() / "secret.cu", "extern \"C\" __global__ void k() {}\n");
    fs::create_directories(lesson_dir / "x");
    fs::create_symlink(tmp.path() / "secret.cu", lesson_dir / "x" / "starter.cu");
    spit(lesson_dir / "x.json", minimal_with_starter(R"({"file": "x/starter.cu"})"));
    LoadResult r = load_lesson(lesson_dir / "x.json");
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(has_issue(r, "steps[0].starter.file", "symlink that leads outside")) << all_issues(r);

    // A symlink that stays inside the folder is fine.
    spit(lesson_dir / "x" / "real.cu", "// inside\n");
    fs::remove(lesson_dir / "x" / "starter.cu");
    fs::create_symlink("real.cu", lesson_dir / "x" / "starter.cu");
    r = load_lesson(lesson_dir / "x.json");
    ASSERT_TRUE(r.ok()) << all_issues(r);
    EXPECT_EQ(r.lesson->steps[0].starter.text, "// inside\n");
}

TEST(LessonLoader, LessonFileOverTheSizeCapIsRefusedUnread) {
    TempDir tmp;
    std::string text = slurp(kGood / "minimal.json");
    text.insert(text.find('{') + 1, "\"summary\": \"" + std::string(5000, 'a') + "\",");
    spit(tmp.path() / "big.json", text);
    LoadOptions opt;
    opt.max_file_bytes = 4096;
    LoadResult r = load_lesson(tmp.path() / "big.json", opt);
    ASSERT_EQ(r.issues.size(), 1u) << all_issues(r);
    EXPECT_EQ(r.issues[0].json_path, "");
    EXPECT_NE(r.issues[0].message.find("over the limit of 4096"), std::string::npos) << r.issues[0].message;
    // The same text handed over in memory meets the same cap.
    r = load_lesson_text(text, "big.json", opt);
    ASSERT_EQ(r.issues.size(), 1u);
    EXPECT_NE(r.issues[0].message.find("over the limit of 4096"), std::string::npos);
    // And the default cap (4 MiB) lets it through.
    EXPECT_TRUE(load_lesson(tmp.path() / "big.json").ok());
}

TEST(LessonLoader, SourceFileOverTheSizeCapIsRefusedAtItsJsonPath) {
    TempDir tmp;
    spit(tmp.path() / "k" / "big.cu", std::string(10000, '/'));
    spit(tmp.path() / "x.json", minimal_with_starter(R"({"file": "k/big.cu"})"));
    LoadOptions opt;
    opt.max_file_bytes = 8192;
    LoadResult r = load_lesson(tmp.path() / "x.json", opt);
    EXPECT_TRUE(has_issue(r, "steps[0].starter.file", "over the limit of 8192")) << all_issues(r);
}

TEST(LessonLoader, InvalidUtf8IsReportedWithItsPosition) {
    TempDir tmp;
    std::string text = slurp(kGood / "minimal.json");
    const std::size_t at = text.find("The smallest");
    text.replace(at, 3, "\xC3\x28x");  // a lead byte without its continuation
    spit(tmp.path() / "bad_utf8.json", text);
    LoadResult r = load_lesson(tmp.path() / "bad_utf8.json");
    ASSERT_EQ(r.issues.size(), 1u) << all_issues(r);
    EXPECT_NE(r.issues[0].message.find("invalid UTF-8"), std::string::npos);
    EXPECT_EQ(r.issues[0].line, 5);

    // Overlong encodings and surrogates are invalid too; real multi-byte text is fine.
    for (const std::string bad : {"\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xFF"}) {
        std::string t = slurp(kGood / "minimal.json");
        t.replace(t.find("The smallest"), 3, bad);
        EXPECT_FALSE(load_lesson_text(t, "x.json").ok());
    }
}

TEST(LessonLoader, InvalidUtf8InASourceFileIsReported) {
    TempDir tmp;
    spit(tmp.path() / "k" / "latin1.cu", "// caf\xE9\n");
    spit(tmp.path() / "x.json", minimal_with_starter(R"({"file": "k/latin1.cu"})"));
    LoadResult r = load_lesson(tmp.path() / "x.json");
    EXPECT_TRUE(has_issue(r, "steps[0].starter.file", "not valid UTF-8")) << all_issues(r);
}

TEST(LessonLoader, NestingDeeperThanTheCapIsRefusedBeforeParsing) {
    // A million open brackets: refused by the depth scan, with no deep recursion anywhere.
    const std::string hostile = std::string(1000000, '[') + std::string(1000000, ']');
    LoadOptions opt;
    opt.max_file_bytes = 4u << 20;
    LoadResult r = load_lesson_text(hostile, "deep.json", opt);
    ASSERT_EQ(r.issues.size(), 1u);
    EXPECT_NE(r.issues[0].message.find("nested more than 32 levels"), std::string::npos);
    EXPECT_EQ(r.issues[0].line, 1);
    EXPECT_EQ(r.issues[0].column, 33);
    // Brackets inside strings do not count.
    std::string text = slurp(kGood / "minimal.json");
    text.insert(text.find('{') + 1, "\"summary\": \"" + std::string(100, '[') + "\",");
    EXPECT_TRUE(load_lesson_text(text, kGood / "edited.json").ok()) << all_issues(load_lesson_text(text, "x"));
}

TEST(LessonLoader, MissingLessonFileIsAnIssueNotAnException) {
    LoadResult r = load_lesson(kData / "no_such_lesson.json");
    ASSERT_EQ(r.issues.size(), 1u);
    EXPECT_NE(r.issues[0].message.find("not found"), std::string::npos);
    r = load_lesson(kGood);  // a folder
    ASSERT_EQ(r.issues.size(), 1u);
}

TEST(LessonLoader, NeverThrowsOnTruncatedOrMangledInput) {
    const std::string good = slurp(kGood / "full.json");
    std::size_t loaded = 0;
    for (std::size_t n = 0; n < good.size(); n += 7) {
        LoadResult r;
        ASSERT_NO_THROW(r = load_lesson_text(good.substr(0, n), kGood / "full.json"));
        EXPECT_FALSE(r.ok());
        EXPECT_FALSE(r.issues.empty());
    }
    std::mt19937 rng(12345);
    const std::string junk = "{}[]\",:0-1e.9x\\ \xC3\xA9\x80truefalsenull";
    for (int iter = 0; iter < 1500; ++iter) {
        std::string t = good;
        const int edits = 1 + int(rng() % 4);
        for (int e = 0; e < edits; ++e) {
            const std::size_t pos = rng() % t.size();
            switch (rng() % 3) {
            case 0: t[pos] = junk[rng() % junk.size()]; break;
            case 1: t.erase(pos, 1 + rng() % 20); break;
            default: t.insert(pos, 1, junk[rng() % junk.size()]); break;
            }
        }
        LoadResult r;
        ASSERT_NO_THROW(r = load_lesson_text(t, kGood / "full.json")) << t;
        EXPECT_EQ(r.ok(), r.issues.empty());
        loaded += r.ok();
    }
    // Some edits land in strings and leave a valid lesson, so both outcomes are exercised.
    EXPECT_GT(loaded, 0u);
}

TEST(LessonLoader, ValuesOfEveryWrongTypeAreIssuesNotExceptions) {
    // Replace each value of the full lesson, one at a time, with each JSON type.
    const auto good = nlohmann::ordered_json::parse(slurp(kGood / "full.json"));
    const std::vector<nlohmann::ordered_json> replacements = {
        nullptr, true, -1, 2.5, "", "?", nlohmann::ordered_json::array(), nlohmann::ordered_json::object(),
        nlohmann::ordered_json::array({1, "x", nullptr}), {{"file", 3}}};
    const auto flat = good.flatten();
    std::size_t tried = 0;
    for (const auto& [pointer, value] : flat.items()) {
        for (const auto& rep : replacements) {
            auto j = good;
            j[nlohmann::ordered_json::json_pointer(pointer)] = rep;
            LoadResult r;
            ASSERT_NO_THROW(r = load_lesson_text(j.dump(), kGood / "full.json")) << pointer;
            EXPECT_EQ(r.ok(), r.issues.empty());
            for (const auto& i : r.issues) EXPECT_FALSE(i.message.empty()) << pointer;
            ++tried;
        }
    }
    EXPECT_GT(tried, 1000u);
}

// ---------------------------------------------------------------------------
// Images: the lesson's own folder, its assets/, then the shipped assets
// ---------------------------------------------------------------------------

namespace {

// The minimal good lesson with one u8 [4, 4, 3] image buffer per name in `files`.
std::string minimal_with_images(const std::vector<std::string>& files) {
    auto j = nlohmann::ordered_json::parse(slurp(kGood / "minimal.json"));
    for (std::size_t i = 0; i < files.size(); ++i)
        j["buffers"].push_back({{"name", "img" + std::to_string(i)}, {"type", "u8"}, {"shape", {4, 4, 3}},
                                {"role", "input"}, {"init", {{"kind", "image"}, {"file", files[i]}}}});
    return j.dump(2);
}

const fs::path kPattern = kData / "assets" / "test_pattern.png";
const fs::path kShippedAssets = fs::path(WB_SOURCE_DIR) / "assets";  // a test binary lives in a build tree

// A course laid out as an instructor would: <root>/lessons/course.json.
struct Course {
    TempDir root;
    fs::path lessons = root.path() / "lessons";
    fs::path file = lessons / "course.json";
    LoadResult load(const std::vector<std::string>& images) {
        spit(file, minimal_with_images(images));
        return load_lesson(file);
    }
    fs::path image(std::size_t i, const LoadResult& r) const { return r.lesson->steps[0].buffers[2 + i].init.image; }
};

}  // namespace

TEST(LessonLoader, ImageBesideTheLessonIsFoundInTheLessonsOwnFolder) {
    Course c;
    fs::create_directories(c.lessons / "course_files");
    fs::copy_file(kPattern, c.lessons / "cat.png");
    fs::copy_file(kPattern, c.lessons / "course_files" / "dog.png");
    LoadResult r = c.load({"cat.png", "course_files/dog.png"});
    ASSERT_TRUE(r.ok()) << all_issues(r);
    EXPECT_EQ(c.image(0, r), fs::canonical(c.lessons / "cat.png"));
    EXPECT_EQ(c.image(1, r), fs::canonical(c.lessons / "course_files" / "dog.png"));
}

TEST(LessonLoader, ImageInTheLessonsAssetsSubfolderIsFound) {
    Course c;
    fs::create_directories(c.lessons / "assets");
    fs::copy_file(kPattern, c.lessons / "assets" / "cat.png");
    LoadResult r = c.load({"cat.png"});
    ASSERT_TRUE(r.ok()) << all_issues(r);
    EXPECT_EQ(c.image(0, r), fs::canonical(c.lessons / "assets" / "cat.png"));
}

TEST(LessonLoader, LocalAssetsFoldersDoNotHideShippedImagesTheyLack) {
    // Both an assets/ inside the lesson folder and one beside it exist, each
    // with an image of its own; a shipped image neither has is still found.
    ASSERT_TRUE(fs::exists(kShippedAssets / "chelsea.png"));
    Course c;
    fs::create_directories(c.lessons / "assets");
    fs::create_directories(c.root.path() / "assets");
    fs::copy_file(kPattern, c.lessons / "assets" / "mine.png");
    fs::copy_file(kPattern, c.root.path() / "assets" / "beside.png");
    LoadResult r = c.load({"chelsea.png", "mine.png", "beside.png"});
    ASSERT_TRUE(r.ok()) << all_issues(r);
    EXPECT_EQ(c.image(0, r), fs::canonical(kShippedAssets / "chelsea.png"));
    EXPECT_EQ(c.image(1, r), fs::canonical(c.lessons / "assets" / "mine.png"));
    EXPECT_EQ(c.image(2, r), fs::canonical(c.root.path() / "assets" / "beside.png"));
}

TEST(LessonLoader, TheLessonsOwnImageWinsOverTheShippedOneOfTheSameName) {
    Course c;
    fs::create_directories(c.lessons / "assets");
    fs::copy_file(kPattern, c.lessons / "chelsea.png");
    fs::copy_file(kPattern, c.lessons / "assets" / "chelsea.png");
    LoadResult r = c.load({"chelsea.png"});
    ASSERT_TRUE(r.ok()) << all_issues(r);
    EXPECT_EQ(c.image(0, r), fs::canonical(c.lessons / "chelsea.png"));
    fs::remove(c.lessons / "chelsea.png");
    r = c.load({"chelsea.png"});
    ASSERT_TRUE(r.ok()) << all_issues(r);
    EXPECT_EQ(c.image(0, r), fs::canonical(c.lessons / "assets" / "chelsea.png"));
}

TEST(LessonLoader, MissingImageNamesEveryFolderThatWasSearched) {
    Course c;
    LoadResult r = c.load({"nowhere.png"});
    ASSERT_FALSE(r.ok());
    ASSERT_TRUE(has_issue(r, "buffers[2].init.file", "image 'nowhere.png' does not exist")) << all_issues(r);
    const std::string msg = all_issues(r);
    for (const fs::path& dir : {c.lessons, c.lessons / "assets", c.root.path() / "assets", kShippedAssets})
        EXPECT_NE(msg.find(dir.lexically_normal().string() + " ("), std::string::npos) << dir << " not named in\n" << msg;
    EXPECT_NE(msg.find("the lesson's folder"), std::string::npos) << msg;
}

TEST(LessonLoader, ImagePathsThatLeaveTheFolderAreRefused) {
    Course c;
    fs::copy_file(kPattern, c.root.path() / "outside.png");
    LoadResult r = c.load({"../outside.png", (c.root.path() / "outside.png").string()});
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(has_issue(r, "buffers[2].init.file", "must be a relative path without '..'")) << all_issues(r);
    EXPECT_TRUE(has_issue(r, "buffers[3].init.file", "must be a relative path without '..'")) << all_issues(r);
}

TEST(LessonLoader, SymlinkedImageLeadingOutOfTheLessonFolderIsRefusedNotSkipped) {
    // A link in the lesson folder that leads elsewhere is an error at that
    // folder, not a reason to fall through to the shipped image of that name.
    Course c;
    fs::create_directories(c.lessons);
    fs::copy_file(kPattern, c.root.path() / "outside.png");
    fs::create_symlink(c.root.path() / "outside.png", c.lessons / "chelsea.png");
    LoadResult r = c.load({"chelsea.png"});
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(has_issue(r, "buffers[2].init.file", "symlink that leads outside")) << all_issues(r);
}

// ---------------------------------------------------------------------------
// Param values against the param's type
// ---------------------------------------------------------------------------

namespace {

LoadResult load_with_param(const nlohmann::ordered_json& param, const nlohmann::ordered_json& case_params = nullptr) {
    auto j = nlohmann::ordered_json::parse(slurp(kGood / "minimal.json"));
    j["params"]["N"] = param;
    if (!case_params.is_null()) j["checks"]["cases"][0]["params"] = case_params;
    return load_lesson_text(j.dump(), kGood / "minimal.json");
}

}  // namespace

TEST(LessonLoader, ParamBoundsThatDoNotFitTheParamsTypeAreRefusedAtTheirPath) {
    struct Bad {
        nlohmann::ordered_json param;
        std::string path, message;
    };
    const std::vector<Bad> bad = {
        {{{"type", "i32"}, {"default", 16}, {"max", 1099511627776LL}}, "params.N.max",
         "max 1099511627776 does not fit 'N' (i32: -2147483648 to 2147483647)"},
        {{{"type", "i32"}, {"default", 16}, {"min", -2147483649LL}}, "params.N.min", "does not fit 'N' (i32"},
        {{{"type", "i32"}, {"default", 16}, {"min", 1.5}}, "params.N.min", "min 1.5 is not a whole number"},
        {{{"type", "u32"}, {"default", 16}, {"min", -1}}, "params.N.min", "min -1 does not fit 'N' (u32: 0 to 4294967295)"},
        {{{"type", "u32"}, {"default", 16}, {"max", 4294967296LL}}, "params.N.max", "does not fit 'N' (u32"},
        {{{"type", "u8"}, {"default", 16}, {"max", 256}}, "params.N.max", "max 256 does not fit 'N' (u8: 0 to 255)"},
        {{{"type", "f32"}, {"default", 16}, {"max", 1e39}}, "params.N.max", "max 1e+39 does not fit 'N' (f32"},
        {{{"type", "f32"}, {"default", -1e39}}, "params.N.default", "default -1e+39 does not fit 'N' (f32"},
        {{{"type", "i32"}, {"default", 4294967296LL}}, "params.N.default", "does not fit 'N' (i32"},
    };
    for (const Bad& b : bad) {
        SCOPED_TRACE(b.param.dump());
        LoadResult r = load_with_param(b.param);
        EXPECT_FALSE(r.ok());
        EXPECT_TRUE(has_issue(r, b.path, b.message)) << all_issues(r);
    }
}

TEST(LessonLoader, ParamBoundsAtTheEdgesOfTheirTypeAreAccepted) {
    const std::vector<nlohmann::ordered_json> good = {
        {{"type", "i32"}, {"default", 16}, {"min", -2147483648LL}, {"max", 2147483647}},
        {{"type", "u32"}, {"default", 16}, {"min", 0}, {"max", 4294967295LL}},
        {{"type", "u8"}, {"default", 16}, {"min", 0}, {"max", 255}},
        {{"type", "i32"}, {"default", 16}, {"min", 1.0}, {"max", 64.0}},  // whole, though written as floats
        {{"type", "f32"}, {"default", 16}, {"min", -3.4e38}, {"max", 3.4e38}},
        {{"type", "f64"}, {"default", 16}, {"max", 1e300}},
    };
    for (const auto& p : good) {
        SCOPED_TRACE(p.dump());
        LoadResult r = load_with_param(p);
        EXPECT_TRUE(r.ok()) << all_issues(r);
    }
}

TEST(LessonLoader, CaseValueThatDoesNotFitTheTypeIsRefusedEvenWithoutAMax) {
    LoadResult r = load_with_param({{"type", "u8"}, {"default", 16}}, {{"N", 300}});
    EXPECT_FALSE(r.ok());
    EXPECT_TRUE(has_issue(r, "checks.cases[0].params.N", "300 does not fit 'N' (u8: 0 to 255)")) << all_issues(r);
    r = load_with_param({{"type", "i32"}, {"default", 16}}, {{"N", 3000000000LL}});
    EXPECT_TRUE(has_issue(r, "checks.cases[0].params.N", "does not fit 'N' (i32")) << all_issues(r);
}

// ---- format 2 -------------------------------------------------------------------

TEST(LessonLoaderFormat2, ExpressionsTolerancesFillInputsAndMergedChecks) {
    LoadResult r = load_lesson(kGood / "format2.json");
    ASSERT_TRUE(r.ok()) << all_issues(r);
    const Lesson& l = *r.lesson;
    EXPECT_EQ(l.format, 2);
    const Step& first = l.steps[0];
    ASSERT_EQ(first.checks.compare.size(), 1u);
    EXPECT_EQ(first.checks.compare[0].atol_expr, "1e-5 * N");
    EXPECT_EQ(first.checks.compare[0].rtol, 1e-5);
    EXPECT_FALSE(first.checks.compare[0].deterministic.has_value());
    const Buffer* sum = first.find_buffer("sum");
    ASSERT_TRUE(sum && sum->fill);
    EXPECT_EQ(*sum->fill, 0.0);
    const TestCase* ones = first.find_case("ones");
    ASSERT_TRUE(ones);
    ASSERT_EQ(ones->inputs.count("x"), 1u);
    EXPECT_EQ(ones->inputs.at("x").kind, InitKind::Constant);
    EXPECT_EQ(ones->inputs.at("x").value, 1.0);
    // The second step sets its own tolerance and keeps the lesson's cases.
    const Step& second = l.steps[1];
    EXPECT_EQ(second.checks.compare[0].atol_expr, "1e-6 * N");
    EXPECT_EQ(second.checks.compare[0].rtol, 4e-6);
    ASSERT_TRUE(second.checks.compare[0].deterministic.has_value());
    EXPECT_FALSE(*second.checks.compare[0].deterministic);
    EXPECT_EQ(second.checks.cases.size(), 8u);
}

TEST(LessonLoaderFormat2, Format1StepChecksStillReplaceTheLessonsWholesale) {
    auto j = nlohmann::json::parse(read_file(kGood / "format2.json"));
    j["format"] = 1;
    LoadResult r = load_lesson_text(j.dump(), kGood / "format2_as_v1.json");
    EXPECT_FALSE(r.ok());
    EXPECT_TRUE(has_issue(r, "steps[1].checks", "missing key 'cases'")) << all_issues(r);
}

TEST(LessonLoaderFormat2, NewKeysAreCheckedWithTheirPaths) {
    auto j = nlohmann::json::parse(read_file(kGood / "format2.json"));
    j["checks"]["compare"][0]["atol"] = "M * 2";
    j["checks"]["compare"][0]["deterministic"] = "yes";
    j["buffers"][0]["init"] = {{"fill", 0}};
    j["checks"]["cases"][5]["inputs"] = {{"sum", {{"kind", "zero"}}}, {"nope", {{"kind", "zero"}}}};
    LoadResult r = load_lesson_text(j.dump(), kGood / "format2_bad.json");
    EXPECT_FALSE(r.ok());
    EXPECT_TRUE(has_issue(r, "checks.compare[0].atol", "M")) << all_issues(r);
    EXPECT_TRUE(has_issue(r, "checks.compare[0].deterministic", "expected true or false")) << all_issues(r);
    EXPECT_TRUE(has_issue(r, "buffers[0].init.fill", "fill is for output buffers")) << all_issues(r);
    EXPECT_TRUE(has_issue(r, "checks.cases[5].inputs.sum", "is an output")) << all_issues(r);
    EXPECT_TRUE(has_issue(r, "checks.cases[5].inputs.nope", "unknown buffer")) << all_issues(r);
}

TEST(LessonLoaderFormat2, ConstantsAreFilledFromInputBuffers) {
    LoadResult r = load_lesson(kGood / "constant_mask.json");
    ASSERT_TRUE(r.ok()) << all_issues(r);
    const Step& step = r.lesson->steps[0];
    ASSERT_EQ(step.constants.size(), 1u);
    EXPECT_EQ(step.constants[0].name, "c_mask");
    EXPECT_EQ(step.constants[0].buffer, "mask");
    EXPECT_EQ(step.constants[0].json_path, "constants[0]");
}

// ---- limits: the device heap ------------------------------------------------------

TEST(LessonLoaderLimits, AStepsDeviceHeapIsAnExpressionOverParamsSizedPerCase) {
    LoadResult r = load_lesson(kGood / "malloc_heap.json");
    ASSERT_TRUE(r.ok()) << all_issues(r);
    const Step& larger = r.lesson->steps[0];
    EXPECT_EQ(larger.limits.malloc_heap_bytes, "HEAP_MIB * 1048576");
    EXPECT_EQ(larger.limits.json_path, "steps[0].limits");
    EXPECT_EQ(resolve_malloc_heap(larger, resolve_params(larger, larger.find_case("default"), {})), 64ll << 20);
    EXPECT_EQ(resolve_malloc_heap(larger, resolve_params(larger, larger.find_case("heap_48"), {})), 48ll << 20);
    // The step that depends on CUDA's default size says so.
    const Step& named = r.lesson->steps[1];
    EXPECT_EQ(named.limits.malloc_heap_bytes, "8388608");
    EXPECT_EQ(resolve_malloc_heap(named, resolve_params(named, nullptr, {})), kDefaultMallocHeapBytes);
    // A step that gives none runs with CUDA's default.
    LoadResult other = load_lesson(std::string(WB_SOURCE_DIR) + "/lessons/01_vector_add.json");
    ASSERT_TRUE(other.ok()) << all_issues(other);
    const Step& plain = other.lesson->steps[0];
    EXPECT_TRUE(plain.limits.malloc_heap_bytes.empty());
    EXPECT_EQ(resolve_malloc_heap(plain, resolve_params(plain, nullptr, {})), kDefaultMallocHeapBytes);
    EXPECT_EQ(kDefaultMallocHeapBytes, 8ll << 20);
}

TEST(LessonLoaderLimits, AHeapSizeARequestsParamsPushOutOfRangeFailsTheRunAtItsJsonPath) {
    LoadResult r = load_lesson(kGood / "malloc_heap.json");
    ASSERT_TRUE(r.ok()) << all_issues(r);
    const Step& larger = r.lesson->steps[0];
    auto params = resolve_params(larger, nullptr, {});
    params["HEAP_MIB"] = 2048;  // past 1 GiB (the param's own bounds allow 1024)
    try {
        resolve_malloc_heap(larger, params);
        FAIL() << "a 2 GiB heap was accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Expression);
        EXPECT_EQ(e.where().json_path, "steps[0].limits.malloc_heap_bytes");
        EXPECT_NE(e.message().find("above the maximum 1073741824"), std::string::npos) << e.message();
        EXPECT_NE(e.message().find("the device heap takes 1048576 (1 MiB) to 1073741824 (1 GiB) bytes"), std::string::npos)
            << e.message();
    }
}

TEST(LessonLoaderLimits, AHostStepIsRefusedLimitsItsRunSetsItself) {
    auto j = nlohmann::json::parse(read_file(kData / "host" / "host_add.json"));
    j["steps"][0]["limits"] = {{"malloc_heap_bytes", 67108864}};
    LoadResult r = load_lesson_text(j.dump(), kData / "host" / "host_add_limits.json");
    EXPECT_FALSE(r.ok());
    EXPECT_TRUE(has_issue(r, "steps[0].limits", "a host step sets its own limits in run(), with cudaDeviceSetLimit"))
        << all_issues(r);
}

TEST(LessonLoaderLimits, ALessonLevelLimitEveryStepReplacesIsNeverUsed) {
    auto j = nlohmann::json::parse(read_file(kGood / "minimal.json"));
    j["limits"] = {{"malloc_heap_bytes", 16777216}};
    j["steps"][0]["limits"] = {{"malloc_heap_bytes", 33554432}};
    LoadResult r = load_lesson_text(j.dump(), kGood / "minimal_limits.json");
    EXPECT_TRUE(has_issue(r, "limits", "never used")) << all_issues(r);
}
