// runtime/compile/compile_meta.cpp — a compile result's metadata as JSON
// (cache.hpp): the form the compile cache's entries and the builder's answers
// (pipeline/wire.hpp) carry, kept apart from the cache so the wire codec
// needs nothing else of it.
#include "compile/cache.hpp"

#include <nlohmann/json.hpp>

using nlohmann::json;

namespace wb {

namespace {

json diagnostics_to_json(const std::vector<Diagnostic>& diags) {
    json out = json::array();
    for (const auto& d : diags)
        out.push_back({{"file", d.file},
                       {"line", d.line},
                       {"column", d.column},
                       {"severity", severity_name(d.severity)},
                       {"message", d.message},
                       {"code", d.code}});
    return out;
}

std::vector<Diagnostic> diagnostics_from_json(const json& j) {
    std::vector<Diagnostic> out;
    for (const auto& item : j) {
        Diagnostic d;
        d.file = item.at("file").get<std::string>();
        d.line = item.at("line").get<int>();
        d.column = item.at("column").get<int>();
        std::string sev = item.at("severity").get<std::string>();
        d.severity = sev == "warning" ? Severity::Warning : sev == "note" ? Severity::Note : Severity::Error;
        d.message = item.at("message").get<std::string>();
        d.code = item.at("code").get<std::string>();
        out.push_back(std::move(d));
    }
    return out;
}

}  // namespace

json compile_result_meta(const CompileResult& r) {
    return {{"arch", r.arch},
            {"is_cubin", r.is_cubin},
            {"log", r.log},
            {"diagnostics", diagnostics_to_json(r.diagnostics)},
            {"omitted", {r.diagnostics_omitted, r.omitted_errors, r.omitted_warnings}},
            {"lowered_names", r.lowered_names},
            {"options", r.options}};
}

void compile_result_from_meta(const json& meta, CompileResult& r) {
    r.arch = meta.at("arch").get<std::string>();
    r.is_cubin = meta.at("is_cubin").get<bool>();
    r.log = meta.at("log").get<std::string>();
    r.diagnostics = diagnostics_from_json(meta.at("diagnostics"));
    const json& omitted = meta.at("omitted");
    r.diagnostics_omitted = omitted.at(0).get<std::size_t>();
    r.omitted_errors = omitted.at(1).get<int>();
    r.omitted_warnings = omitted.at(2).get<int>();
    r.lowered_names = meta.at("lowered_names").get<std::map<std::string, std::string>>();
    r.options = meta.at("options").get<std::vector<std::string>>();
}

}  // namespace wb
