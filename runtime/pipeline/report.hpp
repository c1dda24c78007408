// runtime/pipeline/report.hpp — what the CLI prints for --json.
//
// A result's report is its one JSON form (result_json.hpp, the form the
// worker's pipe carries too) with figures derived from it and sentences
// rendered in English added beside the fields they come from: GB/s and the
// roofline under "metrics", the timing method, a timeline's sums, a target's
// ratio. Buffers appear as their summaries; their contents are left out.
#pragma once

#include "compile/diagnostics.hpp"
#include "driver/device.hpp"
#include "lesson/loader.hpp"
#include "pipeline/run.hpp"

#include <nlohmann/json.hpp>

namespace wb {

nlohmann::json report_json(const RunResult& r);
nlohmann::json report_json(const CompileResult& c);  // with its error and warning counts; without the binary image
nlohmann::json report_json(const DeviceInfo& d);     // with its arch, compute capability and peak bandwidth
nlohmann::json report_json(const LessonIssue& issue);

}  // namespace wb
