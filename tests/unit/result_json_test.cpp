// tests/unit/result_json_test.cpp — a result's one JSON form (pipeline/result_json.hpp):
// every member crosses it and comes back, the wire and the report both print it,
// and what it refuses is refused with a sentence, not undefined behaviour.
#include "core/error.hpp"
#include "pipeline/report.hpp"
#include "pipeline/result_json.hpp"
#include "pipeline/wire.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

using namespace wb;
using nlohmann::json;

namespace {

// Paths in `j` that are null or an empty list.
void unset_paths(const json& j, const std::string& path, std::vector<std::string>& out) {
    if (j.is_null() || (j.is_array() && j.empty())) out.push_back(path);
    if (j.is_array())
        for (const auto& v : j) unset_paths(v, path + "[]", out);
    if (j.is_object())
        for (const auto& [k, v] : j.items()) unset_paths(v, path + "." + k, out);
}

// Whether every key and value of `part` is in `whole` unchanged (`whole` may have more keys).
bool contained(const json& part, const json& whole, const std::string& path, std::string& where) {
    where = path;
    if (part.is_object()) {
        if (!whole.is_object()) return false;
        for (const auto& [k, v] : part.items())
            if (!whole.contains(k) || !contained(v, whole.at(k), path + "." + k, where)) return false;
        return true;
    }
    if (part.is_array()) {
        if (!whole.is_array() || whole.size() != part.size()) return false;
        for (std::size_t i = 0; i < part.size(); ++i)
            if (!contained(part[i], whole[i], path + "[" + std::to_string(i) + "]", where)) return false;
        return true;
    }
    return part == whole;
}

}  // namespace

// The result that teaches the decoder where doubles belong must reach every
// path: an optional or a list added to RunResult and left unset there fails here.
TEST(ResultJson, TheResultWithEveryPathLeavesNoneUnset) {
    std::vector<std::string> unset;
    unset_paths(json(every_path_result()), "", unset);
    std::string list;
    for (const auto& p : unset) list += p + " ";
    EXPECT_TRUE(unset.empty()) << "null or empty in every_path_result(): " << list;
}

TEST(ResultJson, EveryMemberComesBackUnchanged) {
    const json form = result_json(every_path_result());
    EXPECT_EQ(result_json(result_from_json(form)), form);
}

TEST(ResultJson, EveryEnumCrossesByItsName) {
    for (int i = 0; i <= static_cast<int>(RunStatus::AccessLimit); ++i) {
        RunResult r;
        r.status = static_cast<RunStatus>(i);
        const json form = result_json(r);
        EXPECT_EQ(form.at("status"), run_status_name(r.status));
        EXPECT_EQ(result_from_json(form).status, r.status);
    }
    for (LimitVerdict v : {LimitVerdict::Passed, LimitVerdict::Failed, LimitVerdict::NotJudged}) {
        RunResult r;
        r.access_limits = {AccessLimitResult{}};
        r.access_limits[0].verdict = v;
        const json form = result_json(r);
        EXPECT_EQ(form.at("access_limits")[0].at("verdict"), limit_verdict_name(v));
        EXPECT_EQ(result_from_json(form).access_limits[0].verdict, v);
    }
    RunResult r;
    r.sanitizer = SanitizerTool::Racecheck;
    r.gpu_outputs.push_back(HostBuffer{"c", DType::F16, BufferRole::InOut, {4}, {}});
    const json form = result_json(r);
    EXPECT_EQ(form.at("sanitizer"), "racecheck");
    EXPECT_EQ(form.at("gpu_outputs")[0].at("type"), "f16");
    EXPECT_EQ(form.at("gpu_outputs")[0].at("role"), "inout");
    const RunResult back = result_from_json(form);
    EXPECT_EQ(back.sanitizer, SanitizerTool::Racecheck);
    EXPECT_EQ(back.gpu_outputs[0].type, DType::F16);
    EXPECT_EQ(back.gpu_outputs[0].role, BufferRole::InOut);
}

TEST(ResultJson, NumbersThatAreNotFiniteCrossAsNames) {
    RunResult r;
    r.params = {{"N", INFINITY}};
    CompareResult c;
    c.max_abs_error = -INFINITY;
    c.first.push_back(Mismatch{0, {0}, std::nan(""), 1, MismatchReason::NotANumber});
    r.comparisons.push_back(c);
    const json form = result_json(r);
    EXPECT_EQ(form["params"]["N"], "inf");
    EXPECT_EQ(form["comparisons"][0]["max_abs_error"], "-inf");
    EXPECT_EQ(form["comparisons"][0]["first"][0]["got"], "nan");
    const RunResult back = result_from_json(form);
    EXPECT_TRUE(std::isinf(back.params.at("N")));
    EXPECT_LT(back.comparisons[0].max_abs_error, 0);
    EXPECT_TRUE(std::isnan(back.comparisons[0].first[0].got));
}

// A key the form lacks keeps the member's default: a fixture written by hand
// gives only what it needs.
TEST(ResultJson, WhatIsMissingKeepsItsDefault) {
    const RunResult r = result_from_json(json{{"status", "passed"}, {"gpu_time", {{"median_ms", 2}}}});
    EXPECT_EQ(r.status, RunStatus::Passed);
    EXPECT_EQ(r.cpu_ms, -1);
    ASSERT_TRUE(r.gpu_time);
    EXPECT_EQ(r.gpu_time->median_ms, 2);
    EXPECT_EQ(r.gpu_time->batch, 1);
}

TEST(ResultJson, WhatIsThereButWrongIsRefusedWithWhy) {
    auto why = [](const json& j) {
        try {
            result_from_json(j);
        } catch (const Error& e) {
            EXPECT_EQ(e.kind(), ErrorKind::Internal);
            return e.message();
        }
        return std::string("(accepted)");
    };
    EXPECT_NE(why({{"status", "fine"}}).find("no run status is named 'fine'"), std::string::npos);
    EXPECT_NE(why({{"status", 0}}).find("a run status is a name, not a number"), std::string::npos);
    // Converting 1e300 into an int would be undefined: a fraction where the form has a whole number is refused.
    EXPECT_NE(why({{"status", "passed"}, {"compile", {{"image_bytes", 1e300}}}}).find("compile.image_bytes"), std::string::npos);
    EXPECT_NE(why({{"status", "passed"}, {"launches", {{{"passes", 2.5}}}}}).find("launches[].passes"), std::string::npos);
    EXPECT_NE(why({{"status", "passed"}, {"message_said", {{"k", 3}}}}).find("malformed result"), std::string::npos);
    EXPECT_NE(why({{"status", "passed"}, {"comparisons", {{{"mismatch_runs", {{1, 2, 3}}}}}}}).find("[start, count]"),
              std::string::npos);
    EXPECT_EQ(why(json::array()), "malformed result: not an object");
    // The access record's indices are checked, so a front end can follow them without looking.
    const json access_row = {{"status", "passed"},
                             {"access", {{"lines", json::array()}, {"buffers", {{{"name", "a"}}}},
                                         {"threads", {{{"accesses", {{0, 0, 5}}}}}}}}};
    EXPECT_NE(why(access_row).find("access.threads[].accesses[]"), std::string::npos);
    const json access_lane = {{"status", "passed"},
                              {"access", {{"buffers", {{{"name", "a"}}}},
                                          {"lines", {{{"examples", {{{"buffer", 0}, {"lanes", {{32, 0}}}}}}}}}}}};
    EXPECT_NE(why(access_lane).find("lane outside a warp"), std::string::npos);
    const json access_buffer = {{"status", "passed"},
                                {"access", {{"lines", {{{"examples", {{{"buffer", 1}}}}}}}}}};
    EXPECT_NE(why(access_buffer).find("is not one of access.buffers"), std::string::npos);
    // A fraction under a key the form does not have is never read: a report's derived figures decode.
    EXPECT_EQ(why({{"status", "passed"}, {"metrics", {{"gb_per_s", 2.5}}}}), "(accepted)");
}

// The wire and the report print the same form: every key and value of the
// result's form is in the report unchanged, which only adds figures.
TEST(ResultJson, TheReportIsTheFormWithFiguresAdded) {
    const RunResult& r = every_path_result();
    const json report = report_json(r);
    std::string where;
    EXPECT_TRUE(contained(result_json(r), report, "", where)) << "differs at " << where;
    EXPECT_TRUE(report.contains("metrics"));
    EXPECT_TRUE(report.at("gpu_time").contains("method"));
    EXPECT_TRUE(report.at("compile").contains("warnings"));

    json wire = encode_result(r).json;
    for (const char* set : {"inputs", "gpu_outputs", "cpu_outputs"})
        for (auto& b : wire[set]) b.erase("offset");  // where the bytes are in the frame's blob
    EXPECT_EQ(wire, result_json(r));
}
