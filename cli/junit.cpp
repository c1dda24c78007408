// cli/junit.cpp — JUnit XML for `check --junit` (junit.hpp).
#include "junit.hpp"

#include <cstdint>
#include <cstdio>

namespace wb::cli {

namespace {

constexpr const char* kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Length of the valid UTF-8 sequence at s[i], or 0 when it is not one.
std::size_t utf8_length(const std::string& s, std::size_t i) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = b(i);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return 0;
    std::uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
    for (std::size_t k = 1; k < n; ++k) {
        if ((b(i + k) & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (b(i + k) & 0x3F);
    }
    // Overlong forms, surrogates, and code points past U+10FFFF are not UTF-8.
    if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000)) return 0;
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    // XML 1.0 has no U+FFFE and U+FFFF.
    if (cp == 0xFFFE || cp == 0xFFFF) return 0;
    return n;
}

std::string seconds_str(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", s < 0 ? 0.0 : s);
    return buf;
}

}  // namespace

std::string xml_escape(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        switch (c) {
        case '&': out += "&amp;"; ++i; continue;
        case '<': out += "&lt;"; ++i; continue;
        case '>': out += "&gt;"; ++i; continue;
        case '"': out += "&quot;"; ++i; continue;
        case '\'': out += "&apos;"; ++i; continue;
        // Kept as references so that attribute values keep their line breaks and tabs.
        case '\n': out += "&#10;"; ++i; continue;
        case '\r': out += "&#13;"; ++i; continue;
        case '\t': out += "&#9;"; ++i; continue;
        default: break;
        }
        if (c < 0x20 || c == 0x7F) {  // not allowed in XML 1.0 (DEL is allowed but unreadable)
            out += kReplacement;
            ++i;
            continue;
        }
        const std::size_t n = utf8_length(text, i);
        if (n == 0) {
            out += kReplacement;
            ++i;
            continue;
        }
        out.append(text, i, n);
        i += n;
    }
    return out;
}

std::string junit_xml(const std::vector<JunitSuite>& suites) {
    std::size_t tests = 0, failures = 0, skipped = 0;
    double seconds = 0;
    for (const auto& s : suites)
        for (const auto& c : s.cases) {
            ++tests;
            failures += c.outcome == JunitCase::Outcome::Failed;
            skipped += c.outcome == JunitCase::Outcome::Skipped;
            seconds += c.seconds;
        }
    std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    x += "<testsuites name=\"cuda-workbook-cli check\" tests=\"" + std::to_string(tests) + "\" failures=\"" +
         std::to_string(failures) + "\" errors=\"0\" skipped=\"" + std::to_string(skipped) + "\" time=\"" +
         seconds_str(seconds) + "\">\n";
    for (const auto& s : suites) {
        std::size_t f = 0, sk = 0;
        double t = 0;
        for (const auto& c : s.cases) {
            f += c.outcome == JunitCase::Outcome::Failed;
            sk += c.outcome == JunitCase::Outcome::Skipped;
            t += c.seconds;
        }
        x += "  <testsuite name=\"" + xml_escape(s.name) + "\" file=\"" + xml_escape(s.file) + "\" tests=\"" +
             std::to_string(s.cases.size()) + "\" failures=\"" + std::to_string(f) + "\" errors=\"0\" skipped=\"" +
             std::to_string(sk) + "\" time=\"" + seconds_str(t) + "\">\n";
        for (const auto& c : s.cases) {
            x += "    <testcase classname=\"" + xml_escape(c.classname) + "\" name=\"" + xml_escape(c.name) +
                 "\" time=\"" + seconds_str(c.seconds) + "\"";
            if (c.outcome == JunitCase::Outcome::Passed) {
                x += "/>\n";
                continue;
            }
            x += ">\n";
            const char* tag = c.outcome == JunitCase::Outcome::Failed ? "failure" : "skipped";
            x += std::string("      <") + tag + " message=\"" + xml_escape(c.message) + "\"";
            if (!c.type.empty()) x += " type=\"" + xml_escape(c.type) + "\"";
            if (c.details.empty()) x += "/>\n";
            else x += ">" + xml_escape(c.details) + "</" + tag + ">\n";
            x += "    </testcase>\n";
        }
        x += "  </testsuite>\n";
    }
    x += "</testsuites>\n";
    return x;
}

}  // namespace wb::cli
