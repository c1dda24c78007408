// runtime/pipeline/report.hpp — results as JSON, for `--json` (the worker's
// pipe has its own encoding, wire.hpp).
#pragma once

#include "compile/diagnostics.hpp"
#include "driver/device.hpp"
#include "lesson/loader.hpp"
#include "pipeline/run.hpp"

#include <nlohmann/json.hpp>

namespace wb {

nlohmann::json to_json(const Diagnostic& d);
nlohmann::json to_json(const DeviceInfo& d);
nlohmann::json to_json(const LessonIssue& issue);
nlohmann::json to_json(const CompileResult& c);  // without the binary image
nlohmann::json to_json(const CompareResult& c);
// Buffers' contents are left out; the GUI reads them from the RunResult itself.
nlohmann::json to_json(const RunResult& r);

}  // namespace wb
