// cli/commands/new.cpp — `cuda-workbook-cli new LESSON_ID [--dir D]`: a lesson to start from.
//
// Writes D/LESSON_ID.json and D/LESSON_ID/{starter.cu, solution.cu, reference.cpp}:
// a one-step lesson (y = s * x, one thread per element) that validates,
// compiles and passes as it stands, with English and Chinese placeholders for
// the text an instructor replaces, and the three cases docs/lesson-format.md
// recommends (a small one, a ragged one that is not a multiple of the block,
// and a large timed one). Its "$schema" is ./lesson.schema.json, so the shipped
// schema is copied into D when D has none.
//
// It never overwrites: every file is created exclusively, and an existing one
// stops the command before anything is written.
#include "commands.hpp"

#include "common.hpp"
#include "core/data_dirs.hpp"
#include "core/error.hpp"
#include "core/fs.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using nlohmann::json;

namespace wb::cli {

namespace {

// A JSON Schema's "$id" ("" when the text is not JSON or has none).
std::string schema_id(const std::string& text) {
    const json j = json::parse(text, nullptr, false);
    return j.is_object() && j.contains("$id") && j["$id"].is_string() ? j["$id"].get<std::string>() : std::string();
}

bool is_lesson_id(const std::string& s) {
    if (s.empty() || s.size() > 100) return false;
    for (char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return true;
}

// The lesson's JSON. The id is a-z, 0-9 and _, so it needs no escaping.
std::string lesson_json(const std::string& id) {
    std::string s = R"JSON({
  "$schema": "./lesson.schema.json",
  "format": 2,
  "id": "@ID@",
  "title": {
    "en": "TODO: the lesson's title (@ID@)",
    "zh": "待填写：课程标题（@ID@）"
  },
  "summary": {
    "en": "TODO: one or two sentences for the lesson list.",
    "zh": "待填写：在课程列表中显示的一两句简介。"
  },
  "params": {
    "N": {
      "type": "i32",
      "default": 1000,
      "min": 1,
      "max": 100000000,
      "description": {"en": "Number of elements.", "zh": "元素个数。"}
    },
    "s": {
      "type": "f32",
      "default": 2,
      "description": {"en": "The scale factor.", "zh": "缩放因子。"}
    }
  },
  "buffers": [
    {"name": "x", "type": "f32", "shape": ["N"], "role": "input",
     "init": {"kind": "uniform", "min": -1, "max": 1, "seed": 1}},
    {"name": "y", "type": "f32", "shape": ["N"], "role": "output"}
  ],
  "launches": [
    {"entry": "scale", "block": [256], "grid": ["ceil_div(N, block.x)"], "args": ["x", "y", "s", "N"]}
  ],
  "reference": {"entry": "scale_ref", "source": {"file": "@ID@/reference.cpp"}},
  "checks": {
    "compare": [{"buffer": "y", "atol": 1e-6, "rtol": 1e-6}],
    "cases": [
      {"name": "small", "params": {"N": 8}},
      {"name": "ragged", "params": {"N": 1000, "s": -0.5}},
      {"name": "large", "params": {"N": 16777216}, "timing": true}
    ]
  },
  "metrics": {"bytes": "2*N*4", "flops": "N"},
  "views": [{"buffer": "y", "kind": "vector", "title": {"en": "y = s * x", "zh": "y = s * x"}}],
  "steps": [
    {
      "id": "scale",
      "title": {"en": "TODO: the step's title", "zh": "待填写：这一步的标题"},
      "instructions": {
        "en": [
          "# TODO: the step's title",
          "",
          "TODO: say what the student writes and why. This placeholder lesson scales a vector:",
          "`y[i] = s * x[i]`, one thread per element, with a bounds check for the last block."
        ],
        "zh": [
          "# 待填写：这一步的标题",
          "",
          "待填写：说明学生要写什么、为什么。这个占位课程把向量缩放：",
          "`y[i] = s * x[i]`，每个线程处理一个元素，最后一个线程块需要边界检查。"
        ]
      },
      "starter": {"file": "@ID@/starter.cu"},
      "solution": {"file": "@ID@/solution.cu"},
      "hints": [
        {"en": "TODO: a first hint. The global index is `blockIdx.x * blockDim.x + threadIdx.x`.",
         "zh": "待填写：第一条提示。全局索引是 `blockIdx.x * blockDim.x + threadIdx.x`。"}
      ]
    }
  ]
}
)JSON";
    for (std::size_t at; (at = s.find("@ID@")) != std::string::npos;) s.replace(at, 4, id);
    return s;
}

constexpr const char* kStarter =
    "// The starter: what the student begins with. It compiles, and writes nothing yet.\n"
    "extern \"C\" __global__ void scale(const float* x, float* y, float s, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    // TODO: if i is inside the array, write y[i] = s * x[i].\n"
    "    (void)i;\n"
    "}\n";

constexpr const char* kSolution =
    "// The solution: `cuda-workbook-cli check` proves it passes every case.\n"
    "extern \"C\" __global__ void scale(const float* x, float* y, float s, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) y[i] = s * x[i];\n"
    "}\n";

constexpr const char* kReference =
    "// The CPU reference: the kernel's parameter list, as plain C++ (docs/lesson-format.md).\n"
    "void scale_ref(const float* x, float* y, float s, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; ++i) y[i] = s * x[i];\n"
    "}\n";

// Creates `path` with `text`, failing if it exists (O_EXCL: no race with another writer).
void create_new_file(const fs::path& path, const std::string& text) {
    std::FILE* f = std::fopen(path.c_str(), "wx");
    if (!f) throw Error(ErrorKind::Io, "cannot create " + path.string() + ": " + std::strerror(errno));
    const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    if (std::fclose(f) != 0 || !ok) throw Error(ErrorKind::Io, "cannot write " + path.string() + ": " + std::strerror(errno));
}

int new_main(const Args& a) {
    if (a.positional.size() != 1) throw UsageError("new needs exactly one LESSON_ID (see: cuda-workbook-cli new --help)");
    const std::string id = a.positional[0];
    if (!is_lesson_id(id)) throw UsageError("'" + id + "' is not a lesson id: use only a-z, 0-9 and _");
    const fs::path dir = a.value("--dir").value_or(".");
    std::error_code ec;
    if (fs::exists(fs::symlink_status(dir, ec)) && !fs::is_directory(dir, ec))
        throw UsageError("--dir " + dir.string() + " exists and is not a folder");

    const fs::path json_file = dir / (id + ".json");
    const fs::path side = dir / id;
    const std::vector<std::pair<fs::path, std::string>> files = {
        {json_file, lesson_json(id)},
        {side / "starter.cu", kStarter},
        {side / "solution.cu", kSolution},
        {side / "reference.cpp", kReference},
    };
    // Everything is checked before anything is written, so a refusal leaves no half-made lesson.
    for (const auto& [path, text] : files)
        if (fs::exists(fs::symlink_status(path, ec)))
            throw UsageError(path.string() + " already exists; new never overwrites a file (pick another id or --dir)");
    if (fs::exists(fs::symlink_status(side, ec)) && !fs::is_directory(side, ec))
        throw UsageError(side.string() + " exists and is not a folder");

    const fs::path schema = dir / "lesson.schema.json";
    const auto shipped = shipped_lessons_folder();
    if (!shipped || !fs::is_regular_file(*shipped / "lesson.schema.json", ec))
        throw Error(ErrorKind::Io, "cannot find the shipped lessons folder's lesson.schema.json to copy into " +
                                       dir.string() + " (the lesson's \"$schema\" names it)");
    const fs::path shipped_schema = *shipped / "lesson.schema.json";
    fs::create_directories(dir, ec);
    if (ec) throw Error(ErrorKind::Io, "cannot create the folder " + dir.string() + ": " + ec.message());
    std::string schema_note, stale_schema;
    if (!fs::exists(fs::symlink_status(schema, ec))) {
        create_new_file(schema, read_file(shipped_schema));
        schema_note = "copied from " + shipped_schema.string();
    } else if (fs::is_regular_file(schema, ec) && read_file(schema) != read_file(shipped_schema)) {
        if (schema_id(read_file(schema)) == schema_id(read_file(shipped_schema))) {
            // An older copy of this workbook's schema checks against an old format: updated,
            // with the old one kept beside it (nothing is lost).
            fs::path old = dir / "lesson.schema.json.old";
            for (int n = 2; fs::exists(fs::symlink_status(old, ec)); ++n)
                old = dir / ("lesson.schema.json.old." + std::to_string(n));
            fs::rename(schema, old, ec);
            if (ec) throw Error(ErrorKind::Io, "cannot move the older " + schema.string() + " to " + old.string() + ": " + ec.message());
            create_new_file(schema, read_file(shipped_schema));
            schema_note = "an older copy, updated from " + shipped_schema.string() + "; the old one is " + old.string();
        } else {
            // An instructor's own schema is theirs to keep.
            stale_schema = schema.string() + " is not this workbook's schema (its \"$id\" differs): kept; editors check " +
                           "lessons in this folder against it, not against " + shipped_schema.string();
        }
    }
    fs::create_directory(side, ec);
    if (ec) throw Error(ErrorKind::Io, "cannot create the folder " + side.string() + ": " + ec.message());
    json written = json::array();
    for (const auto& [path, text] : files) {
        create_new_file(path, text);
        written.push_back(path.string());
    }

    if (a.flag("--json")) {
        json out = {{"lesson", json_file.string()}, {"files", written}};
        if (!schema_note.empty()) out["schema"] = schema.string();
        if (!stale_schema.empty()) out["schema_differs"] = stale_schema;
        std::cout << out.dump(2) << "\n";
        return kOk;
    }
    for (const auto& p : written) std::cout << "wrote " << p.get<std::string>() << "\n";
    if (!schema_note.empty()) std::cout << "wrote " << schema.string() << " (" << schema_note << ")\n";
    if (!stale_schema.empty()) std::cout << "note: " << stale_schema << "\n";
    std::cout << "next: cuda-workbook-cli validate " << json_file.string() << "\n"
              << "      cuda-workbook-cli check " << json_file.string() << " --trust\n";
    return kOk;
}

}  // namespace

CommandSpec new_command() {
    CommandSpec c;
    c.name = "new";
    c.operands = "LESSON_ID";
    c.summary = "write a new lesson that passes, to start from";
    c.about =
        "Writes a new lesson to start from: D/LESSON_ID.json and, in D/LESSON_ID/, starter.cu,\n"
        "solution.cu and reference.cpp. It scales a vector (y = s * x, one thread per element)\n"
        "and passes as it stands: validate it, then check it, then make it your own. Titles,\n"
        "instructions and hints have English and Chinese placeholders (\"TODO\", \"待填写\").\n"
        "The cases are small (N=8), ragged (N=1000, not a multiple of the 256-thread block)\n"
        "and large (N=16777216, timed). LESSON_ID is a-z, 0-9 and _ (progress is saved under it).\n";
    c.options = {
        value_option("--dir", "D", "the folder (default: the current one), made when it does not exist.\n"
                                   "lesson.schema.json is copied there when it is missing, so that editors\n"
                                   "find the schema; an older copy of it is updated (the old one is kept as\n"
                                   "lesson.schema.json.old), and another schema is kept, and said."),
        flag_option("--json", "print the files written as JSON"),
    };
    c.footer = std::string("Existing files are never overwritten: the command stops before writing anything.\n"
                           "Then:\n"
                           "  cuda-workbook-cli validate D/LESSON_ID.json\n"
                           "  cuda-workbook-cli check D/LESSON_ID.json --trust [--compile-only]\n"
                           "\n") +
               kExitCodes;
    c.run = new_main;
    return c;
}

}  // namespace wb::cli
