// runtime/grade/gradebook.cpp — GradeRow's CSV form (gradebook.hpp).
#include "grade/gradebook.hpp"

#include "core/error.hpp"

#include <cstdio>
#include <cstdlib>

namespace wb {

namespace {

std::string number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

std::string optional_number(const std::optional<double>& v) { return v ? number(*v) : std::string(); }

// The records of a CSV text: fields unquoted, quotes undoubled. A line break
// inside quotes stays in its field.
std::vector<std::vector<std::string>> csv_records(const std::string& text, const std::string& origin) {
    std::vector<std::vector<std::string>> records;
    std::vector<std::string> record;
    std::string field;
    bool quoted = false, any = false;
    int line = 1;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
            else if (c == '"') quoted = false;
            else field += c, line += c == '\n';
            continue;
        }
        if (c == '"' && field.empty()) quoted = any = true;
        else if (c == ',') record.push_back(std::move(field)), field.clear(), any = true;
        else if (c == '\r') continue;
        else if (c == '\n') {
            if (any || !field.empty()) {
                record.push_back(std::move(field));
                records.push_back(std::move(record));
            }
            record.clear(), field.clear(), any = false, ++line;
        } else field += c, any = true;
    }
    if (quoted) throw Error(ErrorKind::Io, "a quoted field is not closed before the end", {origin, "", line});
    if (any || !field.empty()) record.push_back(std::move(field)), records.push_back(std::move(record));
    return records;
}

}  // namespace

const std::vector<std::string>& gradebook_columns() {
    static const std::vector<std::string> k = {"student", "lesson",     "step",   "step_id", "cases_passed", "cases_total",
                                               "verdict", "score",      "max_score", "time_ms", "device",     "share",
                                               "share_of"};
    return k;
}

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
    std::string q = "\"";
    for (char c : text) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

std::string gradebook_csv(const std::vector<GradeRow>& rows) {
    std::string out;
    for (std::size_t i = 0; i < gradebook_columns().size(); ++i) out += (i ? "," : "") + gradebook_columns()[i];
    out += "\n";
    for (const GradeRow& r : rows) {
        const std::vector<std::string> f = {r.student,
                                            r.lesson,
                                            std::to_string(r.step),
                                            r.step_id,
                                            std::to_string(r.cases_passed),
                                            std::to_string(r.cases_total),
                                            r.verdict,
                                            number(r.score),
                                            number(r.max_score),
                                            optional_number(r.time_ms),
                                            r.device,
                                            optional_number(r.share),
                                            r.share_of};
        for (std::size_t i = 0; i < f.size(); ++i) out += (i ? "," : "") + csv_field(f[i]);
        out += "\n";
    }
    return out;
}

std::vector<GradeRow> parse_gradebook_csv(const std::string& text, const std::string& origin) {
    const auto records = csv_records(text, origin);
    if (records.empty() || records[0] != gradebook_columns()) {
        std::string want;
        for (const auto& c : gradebook_columns()) want += (want.empty() ? "" : ",") + c;
        throw Error(ErrorKind::Io, "not a gradebook: its first line should be the header " + want, {origin, "", 1});
    }
    std::vector<GradeRow> rows;
    for (std::size_t n = 1; n < records.size(); ++n) {
        const auto& f = records[n];
        const Location at{origin, "", int(n + 1)};
        if (f.size() != gradebook_columns().size())
            throw Error(ErrorKind::Io,
                        "row " + std::to_string(n + 1) + " has " + std::to_string(f.size()) + " fields, not " +
                            std::to_string(gradebook_columns().size()),
                        at);
        auto integer = [&](const std::string& s, const char* column) {
            char* end = nullptr;
            const long v = std::strtol(s.c_str(), &end, 10);
            if (s.empty() || *end) throw Error(ErrorKind::Io, std::string(column) + " is not a whole number: '" + s + "'", at);
            return int(v);
        };
        auto real = [&](const std::string& s, const char* column) -> std::optional<double> {
            if (s.empty()) return std::nullopt;
            char* end = nullptr;
            const double v = std::strtod(s.c_str(), &end);
            if (*end) throw Error(ErrorKind::Io, std::string(column) + " is not a number: '" + s + "'", at);
            return v;
        };
        GradeRow r;
        r.student = f[0];
        r.lesson = f[1];
        r.step = integer(f[2], "step");
        r.step_id = f[3];
        r.cases_passed = integer(f[4], "cases_passed");
        r.cases_total = integer(f[5], "cases_total");
        r.verdict = f[6];
        r.score = real(f[7], "score").value_or(0);
        r.max_score = real(f[8], "max_score").value_or(0);
        r.time_ms = real(f[9], "time_ms");
        r.device = f[10];
        r.share = real(f[11], "share");
        r.share_of = f[12];
        rows.push_back(std::move(r));
    }
    return rows;
}

}  // namespace wb
