// runtime/host/host_split.cpp — splitting a host step's file (host_split.hpp).
#include "host/host_split.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>

namespace wb {

namespace {

// What each character of the file is.
enum class Ch : unsigned char { Code, Comment, Literal, Pre };

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Marks comments, string and character literals and preprocessor lines. A
// raw string is not understood; `why` says so.
std::vector<Ch> classify(const std::string& t, std::string& why) {
    std::vector<Ch> k(t.size(), Ch::Code);
    bool line_start = true;
    for (std::size_t i = 0; i < t.size();) {
        const char c = t[i];
        if (c == '\n') {
            line_start = true;
            ++i;
            continue;
        }
        if (line_start && (c == ' ' || c == '\t' || c == '\r')) {
            ++i;
            continue;
        }
        if (line_start && c == '#') {  // to the end of the line, with its continuations
            while (i < t.size() && !(t[i] == '\n' && (i == 0 || t[i - 1] != '\\'))) k[i++] = Ch::Pre;
            continue;
        }
        line_start = false;
        if (c == '/' && i + 1 < t.size() && t[i + 1] == '/') {
            while (i < t.size() && t[i] != '\n') k[i++] = Ch::Comment;
            continue;
        }
        if (c == '/' && i + 1 < t.size() && t[i + 1] == '*') {
            const std::size_t end = t.find("*/", i + 2);
            const std::size_t stop = end == std::string::npos ? t.size() : end + 2;
            for (; i < stop; ++i)
                if (t[i] != '\n') k[i] = Ch::Comment;
            continue;
        }
        if (c == '"' || (c == '\'' && !(i > 0 && std::isxdigit(static_cast<unsigned char>(t[i - 1]))))) {
            if (c == '"' && i > 0 && t[i - 1] == 'R') {
                why = "a raw string literal";
                return k;
            }
            k[i++] = Ch::Literal;
            while (i < t.size() && t[i] != c && t[i] != '\n') {
                if (t[i] == '\\' && i + 1 < t.size()) k[i++] = Ch::Literal;
                k[i++] = Ch::Literal;
            }
            if (i < t.size() && t[i] == c) k[i++] = Ch::Literal;
            continue;
        }
        ++i;
    }
    return k;
}

enum class Kind { Pre, Kernel, DeviceOnly, Both, HostFunction, Declaration };

struct Item {
    std::size_t begin = 0, end = 0;  // [begin, end) in the file
    Kind kind = Kind::Declaration;
    std::vector<std::string> idents;  // in its code, in order
    std::string declared;             // a declaration's name
    std::string name;                 // a kernel's name
    std::string params;               // a kernel's parameter list, on one line
};

const std::set<std::string>& type_words() {
    static const std::set<std::string> w = {"void", "int", "float", "double", "char", "short", "long", "unsigned",
                                            "signed", "bool", "const", "volatile", "size_t", "__restrict__",
                                            "struct", "class", "enum", "union", "auto", "__half", "__nv_bfloat16"};
    return w;
}

std::vector<std::string> identifiers(const std::string& t, const std::vector<Ch>& k, std::size_t b, std::size_t e) {
    std::vector<std::string> out;
    for (std::size_t i = b; i < e;) {
        if (k[i] == Ch::Code && ident_char(t[i]) && !(i > b && ident_char(t[i - 1]) && k[i - 1] == Ch::Code)) {
            std::size_t j = i;
            while (j < e && k[j] == Ch::Code && ident_char(t[j])) ++j;
            if (!std::isdigit(static_cast<unsigned char>(t[i]))) out.push_back(t.substr(i, j - i));
            i = j;
        } else {
            ++i;
        }
    }
    return out;
}

bool has(const std::vector<std::string>& v, const char* w) { return std::find(v.begin(), v.end(), w) != v.end(); }

// The file's namespace-scope items: preprocessor lines, and declarations that
// end at a ';' or at a function body's '}'.
std::vector<Item> items_of(const std::string& t, const std::vector<Ch>& k, std::string& why) {
    std::vector<Item> items;
    std::size_t i = 0;
    while (i < t.size()) {
        if (k[i] == Ch::Pre) {
            Item it;
            it.begin = i;
            while (i < t.size() && k[i] == Ch::Pre) ++i;
            it.end = i;
            it.kind = Kind::Pre;
            items.push_back(it);
            continue;
        }
        if (k[i] != Ch::Code || std::isspace(static_cast<unsigned char>(t[i]))) {
            ++i;
            continue;
        }
        Item it;
        it.begin = i;
        int depth = 0;
        std::size_t first_brace = std::string::npos;
        bool done = false;
        for (; i < t.size() && !done; ++i) {
            if (k[i] == Ch::Pre) {
                if (depth == 0) {
                    why = "a preprocessor line inside a declaration";
                    return {};
                }
                continue;
            }
            if (k[i] != Ch::Code) continue;
            const char c = t[i];
            if (c == '(' || c == '[' || c == '{') {
                if (c == '{' && depth == 0 && first_brace == std::string::npos) first_brace = i;
                ++depth;
            } else if (c == ')' || c == ']' || c == '}') {
                if (--depth < 0) {
                    why = "an unbalanced '" + std::string(1, c) + "'";
                    return {};
                }
                if (c == '}' && depth == 0) {
                    const std::vector<std::string> head = identifiers(t, k, it.begin, first_brace);
                    if (has(head, "namespace") || (has(head, "extern") && head.size() == 1)) {
                        why = "a namespace or an extern \"C\" block";
                        return {};
                    }
                    const std::string header = t.substr(it.begin, first_brace - it.begin);
                    const bool record = !head.empty() && (head[0] == "struct" || head[0] == "class" ||
                                                          head[0] == "union" || head[0] == "enum" || head[0] == "typedef");
                    bool assigns = false;
                    for (std::size_t p = it.begin; p < first_brace; ++p)
                        assigns = assigns || (k[p] == Ch::Code && t[p] == '=');
                    if (!record && !assigns && header.find('(') != std::string::npos) {  // a function's body
                        it.end = i + 1;
                        done = true;
                    }
                }
            } else if (c == ';' && depth == 0) {
                it.end = i + 1;
                done = true;
            }
        }
        if (!done) {
            why = "a declaration that does not end";
            return {};
        }
        it.idents = identifiers(t, k, it.begin, it.end);
        items.push_back(std::move(it));
    }
    return items;
}

// What an item is, and for a kernel its name and parameters.
bool describe(const std::string& t, const std::vector<Ch>& k, Item& it, std::string& why) {
    if (it.kind == Kind::Pre) return true;
    const auto& id = it.idents;
    const bool global = has(id, "__global__"), device = has(id, "__device__") || has(id, "__constant__") ||
                                                       has(id, "__managed__") || has(id, "__shared__");
    const bool host = has(id, "__host__");
    std::size_t body = it.begin;
    while (body < it.end && !(k[body] == Ch::Code && t[body] == '{')) ++body;
    const bool function = t[it.end - 1] == '}';
    if (global) {
        if (has(id, "template")) {
            why = "a kernel template";
            return false;
        }
        if (!function) {
            why = "a kernel declared without its body";
            return false;
        }
        it.kind = Kind::Kernel;
        // The name is the identifier before the parameter list's '('.
        std::size_t open = it.begin;
        while (open < body && !(k[open] == Ch::Code && t[open] == '(')) ++open;
        std::size_t n = open;
        while (n > it.begin && std::isspace(static_cast<unsigned char>(t[n - 1]))) --n;
        std::size_t s = n;
        while (s > it.begin && ident_char(t[s - 1])) --s;
        it.name = t.substr(s, n - s);
        // __launch_bounds__(...) comes before the name; the first '(' after __global__ may be its.
        if (it.name == "__launch_bounds__") {
            why = "__launch_bounds__ before the kernel's name";
            return false;
        }
        int depth = 0;
        std::size_t close = open;
        for (; close < body; ++close) {
            if (k[close] != Ch::Code) continue;
            if (t[close] == '(') ++depth;
            if (t[close] == ')' && --depth == 0) break;
        }
        for (std::size_t p = open + 1; p < close; ++p)
            it.params += k[p] == Ch::Code ? (t[p] == '\n' || t[p] == '\r' ? ' ' : t[p]) : (k[p] == Ch::Literal ? t[p] : ' ');
        if (it.name.empty()) {
            why = "a kernel whose name was not found";
            return false;
        }
        return true;
    }
    if (device && !host) it.kind = Kind::DeviceOnly;
    else if (device && host) it.kind = Kind::Both;
    else if (function) it.kind = Kind::HostFunction;
    else {
        it.kind = Kind::Declaration;
        if (!id.empty() && (id[0] == "struct" || id[0] == "class" || id[0] == "union" || id[0] == "enum")) {
            std::size_t w = 1;
            if (id[0] == "enum" && id.size() > 1 && (id[1] == "class" || id[1] == "struct")) w = 2;
            if (w < id.size()) it.declared = id[w];
        } else if (!id.empty() && id[0] == "using" && id.size() > 1) {
            it.declared = id[1];
        } else if (!id.empty() && id[0] == "typedef") {
            it.declared = id.back();
        } else {
            // The identifier before the first '=', '[', '(', '{' or ';'.
            std::size_t p = it.begin;
            while (p < it.end && !(k[p] == Ch::Code && std::strchr("=[({;", t[p]))) ++p;
            std::size_t n = p;
            while (n > it.begin && std::isspace(static_cast<unsigned char>(t[n - 1]))) --n;
            std::size_t s = n;
            while (s > it.begin && ident_char(t[s - 1])) --s;
            it.declared = t.substr(s, n - s);
        }
    }
    return true;
}

// The names of a kernel's parameters, in order; false when one has none.
bool parameter_names(const std::string& params, std::vector<std::string>& names) {
    std::vector<std::string> parts;
    int depth = 0;
    std::string cur;
    for (char c : params) {
        if (c == '(' || c == '<' || c == '[') ++depth;
        if (c == ')' || c == '>' || c == ']') --depth;
        if (c == ',' && depth == 0) {
            parts.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    parts.push_back(cur);
    for (std::string p : parts) {
        if (auto eq = p.find('='); eq != std::string::npos) p.resize(eq);
        if (auto br = p.find('['); br != std::string::npos) p.resize(br);
        while (!p.empty() && std::isspace(static_cast<unsigned char>(p.back()))) p.pop_back();
        std::size_t s = p.size();
        while (s > 0 && ident_char(p[s - 1])) --s;
        const std::string name = p.substr(s);
        std::string rest = p.substr(0, s);
        const bool only_space = std::all_of(p.begin(), p.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
        if (parts.size() == 1 && (only_space || name == "void")) return true;  // no parameters
        if (name.empty() || type_words().count(name) ||
            std::all_of(rest.begin(), rest.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); }))
            return false;
        names.push_back(name);
    }
    return true;
}

// `t`'s characters in [b, e) as spaces, its line breaks kept.
void blank(std::string& t, std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i)
        if (t[i] != '\n') t[i] = ' ';
}

// Headers NVRTC compiles a host step's kernels with: its own, the workbook's
// (compile/nvrtc_include) and the toolkit's device headers. Other includes
// (<vector>, <cublas_v2.h>) serve the host code and stay out of the device part.
bool device_include(const std::string& line) {
    static const char* const kDevice[] = {"cmath", "math.h", "cfloat", "float.h", "climits", "limits.h", "cstdint",
                                         "stdint.h", "cstddef", "stddef.h", "cuda_fp16.h", "cuda_bf16.h",
                                         "cooperative_groups.h", "cuda/", "mma.h", "cassert", "assert.h"};
    const auto open = line.find_first_of("<\"");
    if (open == std::string::npos) return false;
    const std::string name = line.substr(open + 1);
    return std::any_of(std::begin(kDevice), std::end(kDevice),
                       [&](const char* h) { return name.rfind(h, 0) == 0; });
}

}  // namespace

HostSplit split_host_step(const std::string& text) {
    HostSplit out;
    const std::vector<Ch> k = classify(text, out.why);
    if (!out.why.empty()) return out;
    std::vector<Item> items = items_of(text, k, out.why);
    if (!out.why.empty()) return out;
    for (Item& it : items)
        if (!describe(text, k, it, out.why)) return out;

    // The device part: kernels, device code, and the declarations they name.
    std::set<std::string> device_names;
    bool any_device = false;
    for (const Item& it : items)
        if (it.kind == Kind::Kernel || it.kind == Kind::DeviceOnly || it.kind == Kind::Both) {
            any_device = true;
            device_names.insert(it.idents.begin(), it.idents.end());
        }
    std::vector<bool> needed(items.size(), false);
    for (bool grew = true; grew;) {
        grew = false;
        for (std::size_t i = 0; i < items.size(); ++i)
            if (!needed[i] && items[i].kind == Kind::Declaration && !items[i].declared.empty() &&
                device_names.count(items[i].declared)) {
                needed[i] = grew = true;
                device_names.insert(items[i].idents.begin(), items[i].idents.end());
            }
    }
    for (const Item& it : items)
        if (it.kind == Kind::Kernel) {
            if (std::find(out.kernels.begin(), out.kernels.end(), it.name) != out.kernels.end()) {
                out.why = "two kernels named '" + it.name + "'";
                return out;
            }
            out.kernels.push_back(it.name);
        }
    if (any_device) {
        std::string d = text;
        for (std::size_t i = 0; i < items.size(); ++i) {
            const Item& it = items[i];
            const bool keep = it.kind == Kind::Kernel || it.kind == Kind::DeviceOnly || it.kind == Kind::Both ||
                              (it.kind == Kind::Declaration && needed[i]) ||
                              (it.kind == Kind::Pre && (text.compare(it.begin, 8, "#include") != 0 ||
                                                        device_include(text.substr(it.begin, it.end - it.begin))));
            if (!keep) blank(d, it.begin, it.end);
        }
        out.device = std::move(d);
    }

    // The host part: comments and device-only code blanked, kernels replaced
    // by their launchers, launches lowered.
    std::string h = text;
    for (std::size_t i = 0; i < text.size(); ++i)
        if (k[i] == Ch::Comment) h[i] = text[i] == '\n' ? '\n' : ' ';
    struct Edit {
        std::size_t at, len;
        std::string with;
    };
    std::vector<Edit> edits;
    for (const Item& it : items) {
        if (it.kind == Kind::DeviceOnly) blank(h, it.begin, it.end);
        if (it.kind == Kind::Kernel) {
            std::vector<std::string> names;
            if (!parameter_names(it.params, names)) {
                out.why = "a parameter of kernel '" + it.name + "' without a name";
                return out;
            }
            const std::size_t index = std::find(out.kernels.begin(), out.kernels.end(), it.name) - out.kernels.begin();
            std::string stub = "static void " + it.name + "(" + it.params + ") { void* wb_args_[] = {";
            for (const auto& n : names) stub += "(void*)&" + n + ", ";
            stub += names.empty() ? "nullptr}; " : "}; ";
            stub += "wb_launch_kernel_(" + std::to_string(index) + ", wb_args_); }";
            stub += std::string(std::count(text.begin() + it.begin, text.begin() + it.end, '\n'), '\n');
            edits.push_back({it.begin, it.end - it.begin, stub});
        }
    }
    // Each kernel's name in host code: only right before <<<.
    for (const Item& it : items) {
        if (it.kind != Kind::HostFunction && it.kind != Kind::Declaration && it.kind != Kind::Both) continue;
        for (std::size_t i = it.begin; i < it.end; ++i) {
            if (k[i] != Ch::Code || !ident_char(text[i]) || (i > it.begin && ident_char(text[i - 1]))) continue;
            std::size_t j = i;
            while (j < it.end && ident_char(text[j])) ++j;
            const std::string word = text.substr(i, j - i);
            if (std::find(out.kernels.begin(), out.kernels.end(), word) == out.kernels.end()) {
                i = j - 1;
                continue;
            }
            std::size_t a = j;
            while (a < it.end && std::isspace(static_cast<unsigned char>(text[a]))) ++a;
            if (text.compare(a, 3, "<<<") != 0) {
                out.why = "kernel '" + word + "' is named other than in a <<<...>>> launch";
                return out;
            }
            int depth = 0;
            std::size_t close = a + 3;
            for (; close + 2 < it.end; ++close) {
                if (k[close] != Ch::Code) continue;
                if (text[close] == '(') ++depth;
                if (text[close] == ')') --depth;
                if (depth == 0 && text.compare(close, 3, ">>>") == 0) break;
            }
            if (close + 2 >= it.end) {
                out.why = "a launch of '" + word + "' whose >>> was not found";
                return out;
            }
            edits.push_back({i, a + 3 - i, "(wb_launch_config_("});
            edits.push_back({close, 3, "), " + word + ")"});
            i = close + 2;
        }
    }
    std::sort(edits.begin(), edits.end(), [](const Edit& x, const Edit& y) { return x.at > y.at; });
    for (const Edit& e : edits) h.replace(e.at, e.len, e.with);
    // Trailing blanks, and blank lines at the end, say nothing: a comment
    // added there leaves the host part (and its cached build) as it was.
    std::string tidy;
    std::size_t line_start = 0;
    for (std::size_t i = 0; i <= h.size(); ++i)
        if (i == h.size() || h[i] == '\n') {
            std::size_t e = i;
            while (e > line_start && (h[e - 1] == ' ' || h[e - 1] == '\t' || h[e - 1] == '\r')) --e;
            tidy.append(h, line_start, e - line_start);
            if (i < h.size()) tidy += '\n';
            line_start = i + 1;
        }
    while (tidy.size() >= 2 && tidy[tidy.size() - 1] == '\n' && tidy[tidy.size() - 2] == '\n') tidy.pop_back();
    out.host = std::move(tidy);
    out.ok = true;
    return out;
}

std::string host_split_prelude(std::size_t kernels) {
    return "#define WB_SPLIT_KERNELS " + std::to_string(kernels) + "\n#include \"wb_host_split.h\"\n";
}

}  // namespace wb
