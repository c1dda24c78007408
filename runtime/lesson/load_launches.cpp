// runtime/lesson/load_launches.cpp — the Loader's checks of how a step runs:
// a host step's libraries, the kernel launches (sizes as expressions, args
// that name buffers and params, passes and the buffers swapped between them),
// the CPU reference and its args, the compile options, and the limits its
// launches run under (see loader_impl.hpp).
#include "lesson/loader_impl.hpp"

#include "core/error.hpp"
#include "lesson/expr.hpp"

#include <algorithm>
#include <cmath>

namespace wb::lesson_load {

std::vector<Arg> Loader::parse_args(const Json& j, const std::string& path, const Step& step) {
    std::vector<Arg> args;
    if (!j.is_array()) {
        issue(path, "expected an array of arguments, got " + type_name(j));
        return args;
    }
    for (std::size_t i = 0; i < j.size(); ++i) {
        const Json& aj = j[i];
        const std::string p = index_path(path, i);
        Arg a;
        a.json_path = p;
        if (aj.is_string()) {
            a.name = aj.get<std::string>();
            if (const Buffer* b = step.find_buffer(a.name)) {
                a.kind = Arg::Kind::Buffer;
                a.type = b->type;
            } else if (const Param* prm = step.find_param(a.name)) {
                a.kind = Arg::Kind::Param;
                a.type = prm->type;
            } else if (param_names_.count(a.name)) {
                a.kind = Arg::Kind::Param;  // a param with problems of its own, already reported
            } else {
                issue(p, "unknown buffer or parameter '" + a.name + "'");
            }
        } else if (aj.is_object()) {
            check_keys(aj, p, {"expr", "type"});
            a.kind = Arg::Kind::Expr;
            if (const Json* e = field(aj, "expr")) a.name = expr(*e, p + ".expr", Scope::Params);
            else issue(p, "missing key 'expr' (the value to pass, e.g. \"N*N\")");
            if (auto t = dtype(aj, p, true)) a.type = *t;
        } else {
            issue(p, "expected a buffer or param name, or {\"expr\": ..., \"type\": ...}; got " + type_name(aj));
        }
        args.push_back(std::move(a));
    }
    return args;
}

void Loader::parse_host(const Section& s, Step& step) {
    if (!s.value) return;
    if (!want_object(*s.value, s.path, "a host object ({\"libraries\": [\"cublas\"]})")) return;
    check_keys(*s.value, s.path, {"libraries", "pinned"});
    HostSpec h;
    h.json_path = s.path;
    if (const Json* p = field(*s.value, "pinned")) {
        if (!p->is_boolean()) issue(s.path + ".pinned", "expected true or false, got " + type_name(*p));
        else h.pinned = p->get<bool>();
    }
    if (const Json* libs = field(*s.value, "libraries")) {
        if (!libs->is_array()) issue(s.path + ".libraries", "expected an array of library names, got " + type_name(*libs));
        else
            for (std::size_t i = 0; i < libs->size(); ++i) {
                const std::string p = index_path(s.path + ".libraries", i);
                const Json& l = (*libs)[i];
                const auto& known = host_libraries_known();
                if (!l.is_string()) issue(p, "expected a library name, got " + type_name(l));
                else if (std::find(known.begin(), known.end(), l.get<std::string>()) == known.end()) {
                    std::string names;
                    for (const auto& k : known) names += (names.empty() ? "" : ", ") + k;
                    issue(p, "unknown library '" + l.get<std::string>() + "'; a host step may link " + names);
                } else h.libraries.push_back(l.get<std::string>());
            }
    }
    step.host = std::move(h);
}

void Loader::parse_launches(const Section& s, Step& step) {
    if (step.host) {
        if (s.value)
            issue(s.path, "a host step launches its own kernels from run(); remove 'launches' (or 'host', to make this a kernel step)");
        return;
    }
    if (!s.value) {
        issue(step.json_path, "missing key 'launches' (here or at the lesson level)");
        return;
    }
    if (!s.value->is_array()) {
        issue(s.path, "expected an array of launches, got " + type_name(*s.value));
        return;
    }
    if (s.value->empty()) issue(s.path, "at least one launch is needed");
    for (std::size_t i = 0; i < s.value->size(); ++i) {
        const Json& lj = (*s.value)[i];
        const std::string path = index_path(s.path, i);
        if (!want_object(lj, path, "a launch object")) continue;
        check_keys(lj, path, {"entry", "block", "grid", "shared_bytes", "args", "passes", "swap", "tuned"});
        LaunchSpec l;
        l.json_path = path;
        if (const Json* t = field(lj, "tuned")) {
            if (!t->is_boolean()) {
                issue(path + ".tuned", "expected true or false, got " + type_name(*t));
            } else if (t->get<bool>()) {
                l.tuned = true;
                for (const auto& other : step.launches)
                    if (other.tuned)
                        issue(path + ".tuned", "only one launch can be tuned; " + other.json_path + " already is");
            }
        }
        if (const Json* p = field(lj, "passes")) l.passes = expr(*p, path + ".passes", Scope::Params);
        pass_visible_ = l.multi_pass();
        if (auto e = get_string(lj, "entry", path, true)) {
            l.entry = *e;
            if (!is_identifier(*e))
                issue(path + ".entry", e->empty() ? "the kernel name is empty"
                                                  : "'" + *e + "' is not a kernel name (letters, digits and _)");
        }
        auto dims = [&](const char* key, Scope scope, std::array<std::string, 3>& out) {
            const Json* d = field(lj, key);
            const std::string p = path + "." + key;
            if (!d) {
                issue(path, std::string("missing key '") + key + "' (an array of 1 to 3 sizes)");
            } else if (!d->is_array() || d->empty() || d->size() > 3) {
                issue(p, "expected an array of 1 to 3 sizes (numbers or expressions), got " +
                             (d->is_array() ? std::to_string(d->size()) + " items" : type_name(*d)));
            } else {
                for (std::size_t k = 0; k < d->size(); ++k) out[k] = expr((*d)[k], index_path(p, k), scope);
            }
        };
        dims("block", Scope::Params, l.block);
        dims("grid", Scope::Grid, l.grid);
        if (const Json* sb = field(lj, "shared_bytes")) l.shared_bytes = expr(*sb, path + ".shared_bytes", Scope::Shared);
        if (const Json* a = field(lj, "args")) l.args = parse_args(*a, path + ".args", step);
        else issue(path, "missing key 'args' (the kernel's arguments in order; [] for none)");
        pass_visible_ = false;
        if (const Json* sw = field(lj, "swap")) parse_swap(*sw, path + ".swap", step, l);
        step.launches.push_back(std::move(l));
    }
}

void Loader::parse_swap(const Json& j, const std::string& path, const Step& step, LaunchSpec& l) {
    const char* example = "an array of buffer pairs ([[\"in\", \"out\"]])";
    if (!l.multi_pass()) {
        issue(path, "swap exchanges buffers between passes; this launch has no \"passes\"");
        return;
    }
    if (!j.is_array()) {
        issue(path, std::string("expected ") + example + ", got " + type_name(j));
        return;
    }
    std::set<std::string> used;
    for (std::size_t i = 0; i < j.size(); ++i) {
        const std::string p = index_path(path, i);
        const Json& pj = j[i];
        if (!pj.is_array() || pj.size() != 2 || !pj[0].is_string() || !pj[1].is_string()) {
            issue(p, "expected a pair of buffer names ([\"in\", \"out\"])");
            continue;
        }
        const std::string a = pj[0].get<std::string>(), b = pj[1].get<std::string>();
        const Buffer* ba = step.find_buffer(a);
        const Buffer* bb = step.find_buffer(b);
        if (!ba) issue(index_path(p, 0), "unknown buffer '" + a + "'");
        if (!bb) issue(index_path(p, 1), "unknown buffer '" + b + "'");
        if (!ba || !bb) continue;
        if (a == b) {
            issue(p, "a buffer cannot swap with itself");
            continue;
        }
        if (ba->type != bb->type)
            issue(p, "buffers '" + a + "' (" + std::string(dtype_name(ba->type)) + ") and '" + b + "' (" + std::string(dtype_name(bb->type)) +
                         ") have different types; swapped buffers must have the same type and size");
        for (const auto& n : {a, b})
            if (!used.insert(n).second) issue(p, "buffer '" + n + "' is in two swap pairs");
        l.swap.emplace_back(a, b);
    }
}

void Loader::parse_reference(const Section& s, Step& step) {
    ReferenceSpec& r = step.reference;
    r.json_path = s.path;
    if (!s.value) {
        issue(step.json_path, "missing key 'reference' (the CPU reference the kernel is checked against)");
        return;
    }
    if (!want_object(*s.value, s.path, "a reference object ({\"source\": ..., \"entry\": ...})")) return;
    const Json& j = *s.value;
    check_keys(j, s.path, {"source", "entry", "args"});
    if (const Json* src = field(j, "source")) r.source = source(*src, s.path + ".source");
    else issue(s.path, "missing key 'source' (C++ code of the reference function)");
    if (auto e = get_string(j, "entry", s.path, false)) {
        r.entry = *e;
        if (!is_identifier(*e)) issue(s.path + ".entry", "'" + *e + "' is not a C++ function name");
    }
    if (const Json* a = field(j, "args")) r.args = parse_args(*a, s.path + ".args", step);
    else if (!step.launches.empty()) r.args = step.launches.front().args;
    else if (step.host) issue(s.path, "missing key 'args': a host step has no launch whose arguments the reference could take");
}

void Loader::parse_python(const Section& s, Step& step) {
    step.python.json_path = s.path;
    if (!s.value) return;
    if (step.is_host() && s.path == "python") return;  // the lesson's, for its kernel steps
    if (!want_object(*s.value, s.path, "a python object ({\"reference\": ...})")) return;
    check_keys(*s.value, s.path, {"reference"});
    if (const Json* src = field(*s.value, "reference")) step.python.reference = source(*src, s.path + ".reference");
    else issue(s.path, "missing key 'reference' (NumPy code that sets each compared output)");
    if (step.is_host()) issue(s.path, "a host step has no kernel to export, so it takes no python reference");
}

void Loader::parse_compile(const Section& s, Step& step) {
    if (!s.value) return;
    if (!want_object(*s.value, s.path, "a compile object ({\"std\": \"c++17\", \"options\": [...]})")) return;
    check_keys(*s.value, s.path, {"std", "options"});
    if (auto st = get_string(*s.value, "std", s.path, false)) {
        static const std::vector<std::string> kStds = {"c++11", "c++14", "c++17", "c++20"};
        if (std::find(kStds.begin(), kStds.end(), *st) == kStds.end())
            issue(s.path + ".std", "unknown language standard '" + *st + "'; expected one of " + join(kStds));
        else step.compile.std = *st;
    }
    if (const Json* o = field(*s.value, "options")) {
        if (!o->is_array()) {
            issue(s.path + ".options", "expected an array of strings, got " + type_name(*o));
        } else {
            for (std::size_t i = 0; i < o->size(); ++i) {
                if (!(*o)[i].is_string()) issue(index_path(s.path + ".options", i), "expected a string, got " + type_name((*o)[i]));
                else step.compile.options.push_back((*o)[i].get<std::string>());
            }
        }
    }
}

// "limits": {"malloc_heap_bytes": ...}, cudaLimitMallocHeapSize for the
// step's launches. An expression over params, so a case's params size it;
// each case's value (the defaults' when there are no cases) is checked here,
// so a heap of 0 bytes or of 16 GiB is the lesson's error before anything runs.
void Loader::parse_limits(const Section& s, Step& step) {
    step.limits.json_path = s.path;
    if (!s.value) return;
    if (step.host) {
        issue(s.path, "a host step sets its own limits in run(), with cudaDeviceSetLimit; remove 'limits'");
        return;
    }
    if (!want_object(*s.value, s.path, "a limits object ({\"malloc_heap_bytes\": 67108864})")) return;
    check_keys(*s.value, s.path, {"malloc_heap_bytes"});
    const Json* h = field(*s.value, "malloc_heap_bytes");
    if (!h) return;
    const std::string path = s.path + ".malloc_heap_bytes";
    const std::size_t before = issues_.size();
    const std::string e = expr(*h, path, Scope::Params);
    if (issues_.size() != before) return;
    step.limits.malloc_heap_bytes = e;
    const std::string range = "the device heap takes " + std::to_string(kMinMallocHeapBytes) + " (1 MiB) to " +
                              std::to_string(kMaxMallocHeapBytes) + " (1 GiB) bytes";
    auto check = [&](const std::map<std::string, double>& over, const std::string& where) {
        ExprVars vars;
        for (const auto& p : step.params) vars[p.name] = p.default_value;
        for (const auto& [k, v] : over) vars[k] = v;
        double v = 0;
        try {
            v = eval_expr(e, vars);
        } catch (const Error& err) {
            issue(path, err.message() + where);
            return;
        }
        if (v != std::floor(v)) issue(path, "gives " + fmt_num(v) + " bytes" + where + ", not a whole number; " + range);
        else if (v < double(kMinMallocHeapBytes) || v > double(kMaxMallocHeapBytes))
            issue(path, "gives " + fmt_num(v) + " bytes" + where + "; " + range);
    };
    if (step.checks.cases.empty()) check({}, "");
    for (const auto& c : step.checks.cases) check(c.params, " in case '" + c.name + "'");
}

}  // namespace wb::lesson_load
