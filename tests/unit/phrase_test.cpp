// tests/unit/phrase_test.cpp — what the runtime says reaches a Chinese UI in
// Chinese, through the worker, and never shows a stale or unknown sentence;
// the one catalogue (the app's "ui.*" labels too) is sorted and translated.
#include "core/phrase.hpp"
#include "core/terms.hpp"
#include "core/untranslated.hpp"
#include "lesson/loader.hpp"
#include "pipeline/run.hpp"
#include "pipeline/wire.hpp"
#include "pipeline/worker.hpp"

#include "scoped_cache_dir.hpp"

#include <gtest/gtest.h>

#include <set>

using namespace wb;

namespace {

std::set<std::string> placeholders(const std::string& s) {
    std::set<std::string> out;
    for (std::size_t i = 0; i + 2 < s.size(); ++i)
        if (s[i] == '{' && s[i + 2] == '}' && s[i + 1] >= '0' && s[i + 1] <= '9') out.insert(s.substr(i, 3));
    return out;
}

// Whether `s` has a character of the CJK Unified Ideographs block (U+4E00..U+9FFF):
// its UTF-8 lead byte is 0xE4..0xE9.
bool has_chinese(const std::string& s) {
    for (unsigned char c : s)
        if (c >= 0xE4 && c <= 0xE9) return true;
    return false;
}

std::shared_ptr<const Lesson> load(const std::string& rel) {
    auto r = load_lesson(std::string(WB_SOURCE_DIR) + "/" + rel);
    EXPECT_TRUE(r.ok()) << (r.issues.empty() ? "" : r.issues[0].to_string());
    return r.ok() ? std::make_shared<const Lesson>(std::move(*r.lesson)) : nullptr;
}

class Phrases : public DriverOffTest {};

// The app's labels that read the same in both languages: each language's own
// name (so it can be found from the other), and names of units and products.
const std::set<std::string_view> kSameInBothLanguages = {"ui.chinese", "ui.english", "ui.who_cpu", "ui.who_gpu",
                                                         "ui.roof_peak", "ui.roof_sgemm"};

}  // namespace

TEST(Phrase, TheCatalogueIsSortedAndEveryEntrySaysTheSameInBothLanguages) {
    const auto keys = phrase_keys();
    ASSERT_GT(keys.size(), 40u);
    for (std::size_t i = 1; i < keys.size(); ++i) EXPECT_LT(keys[i - 1], keys[i]) << "sorted and unique";
    for (std::string_view key : keys) {
        // Every placeholder as an argument that shows itself, so both languages can be compared.
        Phrase p{std::string(key), {"{0}", "{1}", "{2}", "{3}"}};
        const std::string en = render({p}, "en"), zh = render({p}, "zh");
        EXPECT_FALSE(en.empty()) << key;
        if (!kSameInBothLanguages.count(key)) {
            EXPECT_NE(en, zh) << key << ": not translated";
        }
        EXPECT_EQ(placeholders(en), placeholders(zh)) << key << ": the two languages use different arguments";
    }
}

// The finder the Chinese-window tests use: it sees the English this catalogue replaced, and
// not the code, names, units and quoted text a Chinese sentence keeps.
TEST(Untranslated, FindsEnglishAndLeavesCodeNamesAndQuotesAlone) {
    for (const char* english : {"1 element changed between the two validation runs", "mismatch", "(outside tolerance)",
                                "在 CPU 模拟器上，in kernel 'vector_add', the kernel read outside buffer 'a'",
                                "时限来自 the time limit given for this run", "0 .. 999  index", "Run", "never written"})
        EXPECT_FALSE(english_in(english).empty()) << english;
    for (const char* chinese : {"核函数读取了缓冲区 'a'（1000 个元素）之外的元素 [1000]，在 starter_step1.cu:4",
                                "线程束（warp）的 32 个线程", "用 WB_CHECK 包住 cudaMalloc(&d, n)", "g++ -O3 -march=native",
                                "GPU 0 · 流 1，2.5 GB/s，12 ms", "调用了 __trap()", "threadIdx.x 与 blockDim.x",
                                "课程的 checks.timeout_s（--timeout）", "\"deterministic\": true", "信号 11（段错误）"})
        EXPECT_TRUE(english_in(chinese).empty()) << chinese << ": " << english_in(chinese).front().words;
    EXPECT_TRUE(english_in("gray out", {"gray", "out"}).empty()) << "a lesson's names are allowed";
}

// Every sentence of the catalogue, in Chinese, has no English left in it: fault kinds,
// refusals, timeouts, races, mismatches, deadlines, signals, hints.
TEST(Phrase, EveryChineseSentenceIsChinese) {
    for (std::string_view key : phrase_keys()) {
        if (key == "ui.english") continue;  // English's own name, in the language menu
        const std::string zh = render({{std::string(key), {"7", "8", "9", "10", "11", "12"}}}, "zh");
        for (const EnglishFound& f : english_in(zh)) ADD_FAILURE() << key << ": '" << f.words << "' in " << zh;
    }
}

// The window speaks the lessons' terms (runtime/core/terms.hpp): no Chinese sentence of the
// catalogue uses a word the term list replaced.
TEST(Phrase, EveryChineseSentenceKeepsTheTermList) {
    for (std::string_view key : phrase_keys()) {
        const std::string zh = render({{std::string(key), {"7", "8", "9", "10", "11", "12"}}}, "zh");
        for (const ReplacedTerm& t : chinese_term_problems(zh))
            ADD_FAILURE() << key << ": '" << t.word << "' where the term list says '" << t.term << "': " << zh;
    }
    EXPECT_FALSE(chinese_term_problems("和基线比较").empty()) << "the lint fires on what it names";
    EXPECT_TRUE(chinese_term_problems("和基准比较").empty());
}

TEST(Phrase, ArgumentsVerbatimTextAndNestedPhrasesRender) {
    const Sentence s = {{"worker.stopped", {"@phase.gpu"}}, verbatim(" [x]")};
    EXPECT_EQ(render(s, "en"), "stopped while running the kernel [x]");
    EXPECT_EQ(render(s, "zh"), "在运行核函数时被停止 [x]");
    EXPECT_EQ(render(s, "fr"), render(s, "en")) << "an unknown language falls back to English";
    // An argument that is a phrase with arguments of its own.
    const Sentence deadline = {{"hint.deadline", {"@deadline.case|large"}}};
    EXPECT_EQ(render(deadline, "en"), "the deadline is case 'large''s timeout_s in the lesson");
    EXPECT_EQ(render(deadline, "zh"), "时限来自课程中用例 'large' 的 timeout_s");
}

// A timeout on the emulator names where it happened in both languages, with no empty place left
// in the sentence ("在超时（30 秒）" and "timed out after 5 s " were what an unknown phase gave).
TEST(Phrase, ATimeoutOnTheEmulatorSaysWhereInBothLanguages) {
    const Sentence s = {{"worker.timed_out", {"30", "@phase.emulate"}}};
    EXPECT_EQ(render(s, "en"), "timed out after 30 s while running the kernel on the CPU emulator");
    EXPECT_EQ(render(s, "zh"), "在用 CPU 模拟器运行核函数时超时（30 秒）");
    const Sentence anywhere = {{"worker.timed_out", {"5", "@phase.running"}}};
    EXPECT_EQ(render(anywhere, "en"), "timed out after 5 s while running");
    EXPECT_EQ(render(anywhere, "zh"), "在运行时超时（5 秒）");
}

TEST(Phrase, AStaleOrUnknownSentenceIsNeverShown) {
    const Sentence s = {{"run.passed", {"2"}}};
    const std::string en = render(s, "en");
    EXPECT_EQ(render_checked(en, s, "zh"), render(s, "zh"));
    EXPECT_EQ(render_checked(en + " (edited)", s, "zh"), en + " (edited)") << "text changed after the sentence";
    const Sentence unknown = {{"from.a.newer.worker", {}}};
    EXPECT_EQ(render_checked("what it said", unknown, "zh"), "what it said");
    EXPECT_EQ(render_checked("plain", {}, "zh"), "plain");
}

TEST(Phrase, SentencesCrossThePipeAndGarbageDecodesAsNothing) {
    const Sentence s = {{"run.mismatch", {"c", "3", "1000"}}, {"run.mismatch.unwritten", {"3"}}};
    nlohmann::json j = {{"m", encode_sentence(s)}};
    EXPECT_EQ(decode_sentence(j, "m"), s);
    EXPECT_TRUE(decode_sentence(j, "absent").empty());
    for (const char* bad : {R"({"m": 5})", R"({"m": [5]})", R"({"m": [[]]})", R"({"m": [["k", 1]]})", R"([1])"})
        EXPECT_TRUE(decode_sentence(nlohmann::json::parse(bad), "m").empty()) << bad;
}

TEST_F(Phrases, ACompileOnlyRunSaysWhyInChineseThroughTheWorker) {
    auto lesson = load("lessons/01_vector_add.json");
    ASSERT_TRUE(lesson);
    RunRequest q;
    q.lesson = lesson;
    q.source = SourceChoice::Solution;
    WorkerBackend worker;
    const RunResult r = worker.run(q);
    ASSERT_EQ(r.status, RunStatus::CompileOnly) << r.message;
    EXPECT_EQ(r.message, render(r.message_said, "en"));
    EXPECT_TRUE(has_chinese(r.message_in("zh"))) << r.message_in("zh");
    EXPECT_TRUE(has_chinese(r.device_note_in("zh"))) << "device note: " << r.device_note;
    EXPECT_NE(r.device_note_in("zh").find("WB_DISABLE_CUDA_DRIVER"), std::string::npos);
    EXPECT_EQ(run_status_label(r.status, "zh"), "仅编译");
    EXPECT_EQ(run_status_label(r.status, "en"), "compile-only");

    const BackendInfo bi = worker.info();
    EXPECT_FALSE(bi.has_gpu);
    EXPECT_EQ(render(bi.no_gpu_said, "en"), bi.no_gpu_reason);
    EXPECT_TRUE(has_chinese(render(bi.no_gpu_said, "zh")));
}

TEST_F(Phrases, ACompileErrorNamesItsCountAndFileInChinese) {
    auto lesson = load("lessons/01_vector_add.json");
    ASSERT_TRUE(lesson);
    RunRequest q;
    q.lesson = lesson;
    q.source = SourceChoice::Custom;
    q.custom_source = "__global__ void vector_add(const float* a, const float* b, float* c, int n) { oops; }\n";
    const RunResult r = make_local_backend()->run(q);
    ASSERT_EQ(r.status, RunStatus::CompileError) << r.message;
    EXPECT_EQ(r.message.rfind("1 error in ", 0), 0u) << r.message;
    const std::string zh = r.message_in("zh");
    EXPECT_NE(zh.find("中有 1 个错误"), std::string::npos) << zh;
    EXPECT_NE(zh.find("oops"), std::string::npos) << "the compiler's own words stay: " << zh;
}

TEST_F(Phrases, ARefusalAndItsHintSpeakChinese) {
    auto lesson = load("lessons/01_vector_add.json");
    ASSERT_TRUE(lesson);
    RunRequest q;
    q.lesson = lesson;
    q.source = SourceChoice::Solution;
    LaunchOverride ov;
    ov.block = std::array<long long, 3>{2048, 1, 1};
    q.launches.push_back(ov);
    const RunResult r = make_local_backend()->run(q);
    ASSERT_EQ(r.status, RunStatus::Refused);
    EXPECT_NE(r.message_in("zh").find("的启动被拒绝"), std::string::npos) << r.message_in("zh");
    EXPECT_NE(r.hint_in("zh").find("线程块"), std::string::npos) << r.hint_in("zh");
    EXPECT_EQ(r.hint_in("en"), r.hint);
}
