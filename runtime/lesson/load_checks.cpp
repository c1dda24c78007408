// runtime/lesson/load_checks.cpp — the Loader's checks of how a step is
// judged and measured: "checks" (the buffers compared and their tolerances,
// the cases and what each may override, the timing target against another
// step, the access limits), "metrics" (bytes and flops for the roofline) and the library
// "baseline" timed beside the kernel (see loader_impl.hpp).
#include "lesson/loader_impl.hpp"

#include <cmath>

namespace wb::lesson_load {

void Loader::parse_target(const Json& j, const std::string& path, Step& step) {
    if (!want_object(j, path, "a target object ({\"step\": \"one_stream\", \"at_most\": 0.6})")) return;
    check_keys(j, path, {"step", "at_most", "measure", "min_gpus"});
    TargetSpec t;
    // A kernel step is measured by its kernels' GPU time, nothing else.
    if (!step.host) t.measure = TargetMeasure::Kernels;
    t.json_path = path;
    if (auto s = get_string(j, "step", path, true)) t.step = *s;
    if (auto v = get_number(j, "at_most", path, true)) {
        if (!(*v > 0)) issue(path + ".at_most", "expected a ratio above 0, got " + fmt_num(*v));
        t.at_most = *v;
    }
    if (auto m = get_string(j, "measure", path, false)) {
        if (*m == "wall") t.measure = TargetMeasure::Wall;
        else if (*m == "copies") t.measure = TargetMeasure::Copies;
        else if (*m == "kernels") t.measure = TargetMeasure::Kernels;
        else issue(path + ".measure", "unknown measure '" + *m + "'; use wall (run()'s time), copies or kernels (their summed times on the timeline)");
        if (!step.host && t.measure != TargetMeasure::Kernels)
            issue(path + ".measure", "a kernel step's target compares its kernels' GPU time; leave out 'measure' or write \"kernels\"");
    }
    if (auto g = get_number(j, "min_gpus", path, false)) {
        if (*g < 1 || *g != std::floor(*g)) issue(path + ".min_gpus", "expected a whole number of GPUs from 1, got " + fmt_num(*g));
        else t.min_gpus = int(*g);
    }
    step.checks.target = std::move(t);
}

// checks.access: the limits on what the threads read and write (lesson.hpp,
// AccessLimitSpec). Each is a count or a figure, never both; a count needs
// `per` and at least one bound; names are checked against the step's buffers.
void Loader::parse_access(const Json& j, const std::string& path, Step& step) {
    if (!j.is_array()) {
        issue(path, "expected an array of limits ({\"count\": \"global_reads\", \"per\": \"thread\", \"at_most\": 2}), got " +
                        type_name(j));
        return;
    }
    if (step.host) {
        issue(path, "a host step's run() is not emulated, and access limits are judged by the CPU emulator; leave out 'access'");
        return;
    }
    if (j.size() > kMaxAccessLimits) {
        issue(path, std::to_string(j.size()) + " limits; a step has at most " + std::to_string(kMaxAccessLimits));
        return;
    }
    static const std::vector<std::string> kCounts = {"global_reads", "global_writes", "global_atomics",
                                                     "shared_reads", "shared_writes", "shared_atomics"};
    static const std::vector<std::string> kFigures = {"sectors_per_request", "bank_conflict_ways"};
    // A name from a fixed list, with the nearest one suggested.
    auto one_of = [&](const std::string& got, const std::vector<std::string>& names, const std::string& p) -> std::optional<std::size_t> {
        for (std::size_t k = 0; k < names.size(); ++k)
            if (names[k] == got) return k;
        std::string msg = "\"" + got + "\" is not one of " + join(names);
        std::string best;
        std::size_t best_d = 4;
        for (const auto& n : names)
            if (const std::size_t d = edit_distance(got, n); d < best_d) best_d = d, best = n;
        if (!best.empty()) msg += " (did you mean \"" + best + "\"?)";
        issue(p, msg);
        return std::nullopt;
    };
    for (std::size_t i = 0; i < j.size(); ++i) {
        const Json& lj = j[i];
        const std::string p = index_path(path, i);
        if (!want_object(lj, p, "a limit object ({\"count\": \"global_reads\", \"per\": \"thread\", \"at_most\": 2})")) continue;
        AccessLimitSpec a;
        a.json_path = p;
        const Json* count = field(lj, "count");
        const Json* figure = field(lj, "figure");
        if (field(lj, "line")) {
            issue(p + ".line", "a limit cannot name a line: lines move as the student edits; a figure is judged on the kernel's worst line");
        }
        if (count && figure) {
            issue(p, "a limit names 'count' or 'figure', not both");
            continue;
        }
        if (!count && !figure) {
            issue(p, "missing key 'count' (what each thread or element may do: " + join(kCounts) + ") or 'figure' (" +
                         join(kFigures) + ")");
            continue;
        }
        if (const Json* w = field(lj, "why")) a.why = text(*w, p + ".why");
        bool ok = true;
        if (figure) {
            a.is_figure = true;
            check_keys(lj, p, {"figure", "op", "at_most", "why", "line"});
            if (auto f = get_string(lj, "figure", p, true)) {
                if (auto k = one_of(*f, kFigures, p + ".figure")) a.figure = static_cast<AccessFigure>(*k);
                else ok = false;
            }
            if (auto op = get_string(lj, "op", p, false)) {
                if (one_of(*op, {"load", "store", "atomic"}, p + ".op")) a.op = *op;
                else ok = false;
            }
            if (const Json* m = field(lj, "at_most")) {
                if (!m->is_number() || !(m->get<double>() >= 1) || !std::isfinite(m->get<double>())) {
                    issue(p + ".at_most", std::string("expected a number from 1 (a request takes at least one ") +
                                              (a.figure == AccessFigure::SectorsPerRequest ? "sector" : "pass of the banks") + "), got " +
                                              (m->is_number() ? fmt_num(m->get<double>()) : type_name(*m)));
                    ok = false;
                } else {
                    a.figure_at_most = m->get<double>();
                }
            } else {
                issue(p, "missing key 'at_most' (the most the kernel's worst line may show)");
                ok = false;
            }
            if (ok) step.checks.access.push_back(std::move(a));
            continue;
        }
        check_keys(lj, p, {"count", "per", "buffer", "at_most", "at_least", "exactly", "why", "line"});
        if (auto c = get_string(lj, "count", p, true)) {
            if (auto k = one_of(*c, kCounts, p + ".count")) a.count = static_cast<AccessCount>(*k);
            else ok = false;
        } else {
            ok = false;
        }
        if (auto per = get_string(lj, "per", p, true)) {
            if (auto k = one_of(*per, {"thread", "element"}, p + ".per")) a.per_element = *k == 1;
            else ok = false;
        } else {
            ok = false;
        }
        const bool shared = access_count_shared(a.count);
        if (auto b = get_string(lj, "buffer", p, false)) {
            a.buffer = *b;
            if (!step.find_buffer(*b)) {
                std::vector<std::string> names;
                for (const auto& buf : step.buffers) names.push_back(buf.name);
                issue(p + ".buffer", "unknown buffer '" + *b + "'; this step's buffers are " + (names.empty() ? "(none)" : join(names)));
                ok = false;
            } else if (ok && shared) {
                issue(p + ".buffer", "shared memory holds no named buffer: a " + std::string(access_count_name(a.count)) +
                                         " count cannot name one; leave out 'buffer', or count global_" +
                                         std::string(access_count_name(a.count)).substr(7));
                ok = false;
            }
        } else if (ok && a.per_element) {
            issue(p, "missing key 'buffer': a count per element counts the elements of one global buffer");
            ok = false;
        }
        if (ok && a.per_element && shared) {
            issue(p + ".per", "shared memory holds no named buffer, so " + std::string(access_count_name(a.count)) +
                                  " are counted per thread; write \"per\": \"thread\"");
            ok = false;
        }
        // The bounds: whole numbers >= 0, or expressions over params (evaluated per case).
        auto bound = [&](const char* key, std::string& out) {
            const Json* v = field(lj, key);
            if (!v) return;
            if (v->is_number() && (v->get<double>() < 0 || v->get<double>() != std::floor(v->get<double>()) ||
                                   !std::isfinite(v->get<double>()))) {
                issue(p + "." + key, std::string(key) + " must be a whole number >= 0 or an expression over params, got " +
                                         fmt_num(v->get<double>()));
                ok = false;
                return;
            }
            out = expr(*v, p + "." + key, Scope::Params);
        };
        bound("at_most", a.at_most);
        bound("at_least", a.at_least);
        bound("exactly", a.exactly);
        if (a.at_most.empty() && a.at_least.empty() && a.exactly.empty() && !field(lj, "at_most") && !field(lj, "at_least") &&
            !field(lj, "exactly")) {
            issue(p, "missing a bound: give at_most, at_least or exactly (a whole number, or an expression over params)");
            ok = false;
        }
        if (field(lj, "exactly") && (field(lj, "at_most") || field(lj, "at_least"))) {
            issue(p + ".exactly", "exactly is at_most and at_least at once; give it alone");
            ok = false;
        }
        const Json* most = field(lj, "at_most");
        const Json* least = field(lj, "at_least");
        if (ok && most && least && most->is_number() && least->is_number() && least->get<double>() > most->get<double>()) {
            issue(p + ".at_least", "at_least " + fmt_num(least->get<double>()) + " is above at_most " + fmt_num(most->get<double>()) +
                                       ": nothing could pass");
            ok = false;
        }
        if (ok) step.checks.access.push_back(std::move(a));
    }
    if (step.checks.access.empty()) return;
    // Judged where the CPU emulator runs a case that is not timed (run.cpp): there must be one.
    bool judged_somewhere = false;
    for (const TestCase& c : step.checks.cases) judged_somewhere = judged_somewhere || (c.emulate && !c.timing);
    if (!judged_somewhere && !step.checks.cases.empty())
        issue(path, "access limits are judged on the cases the CPU emulator runs that are not timed, and this step has none; "
                    "add a small case");
}

void Loader::parse_checks(const Section& s, Step& step) {
    Checks& c = step.checks;
    c.json_path = s.path;
    if (!s.value) {
        issue(step.json_path, "missing key 'checks' (which buffers to compare, and the cases to run)");
        return;
    }
    if (!want_object(*s.value, s.path, "a checks object")) return;
    const Json& j = *s.value;
    check_keys(j, s.path, {"compare", "cases", "warmup", "repeat", "timeout_s", "memcheck", "racecheck", "target", "access"});
    if (const Json* t = field(j, "target")) parse_target(*t, s.path + ".target", step);

    // A number, or an expression over params so a tolerance can grow with
    // the problem ("1e-6 * N" for a sum of N floats); `expr_out` gets the
    // expression, evaluated for each case by the run.
    auto tolerance = [&](const Json& cj, const char* key, const std::string& p, double fallback, std::string& expr_out) {
        const Json* f = field(cj, key);
        if (f && f->is_string()) {
            expr_out = expr(*f, p + "." + key, Scope::Params);
            return fallback;
        }
        auto v = get_number(cj, key, p, false);
        if (!v) return fallback;
        if (*v < 0 || !std::isfinite(*v)) {
            issue(p + "." + key, std::string(key) + " must be a number >= 0 or an expression over params, got " + fmt_num(*v));
            return fallback;
        }
        return *v;
    };
    auto defaults_for = [](DType t) -> std::pair<double, double> {
        if (t == DType::F16) return {1e-3, 1e-3};  // half keeps 11 significant bits: 4.9e-4 is its rounding
        if (t == DType::F32) return {1e-5, 1e-5};
        if (t == DType::F64) return {1e-12, 1e-12};
        return {0, 0};
    };

    if (const Json* cmp = field(j, "compare")) {
        const std::string path = s.key_path("compare");
        if (!cmp->is_array()) {
            issue(path, "expected an array of {\"buffer\": ...} entries, got " + type_name(*cmp));
        } else if (cmp->empty()) {
            issue(path, "compare is empty, so nothing would be checked; name at least one output buffer");
        } else {
            std::set<std::string> seen;
            for (std::size_t i = 0; i < cmp->size(); ++i) {
                const Json& cj = (*cmp)[i];
                const std::string p = index_path(path, i);
                if (!want_object(cj, p, "an object ({\"buffer\": \"c\", \"atol\": ..., \"rtol\": ...})")) continue;
                check_keys(cj, p, {"buffer", "atol", "rtol", "deterministic"});
                CompareSpec spec;
                spec.json_path = p;
                DType type = DType::F32;
                if (auto name = get_string(cj, "buffer", p, true)) {
                    spec.buffer = *name;
                    const Buffer* b = step.find_buffer(*name);
                    if (!b) issue(p + ".buffer", "unknown buffer '" + *name + "'");
                    else if (b->role == BufferRole::Input)
                        issue(p + ".buffer", "buffer '" + *name + "' is an input; only output or inout buffers can be compared");
                    else type = b->type;
                    if (!seen.insert(*name).second) issue(p + ".buffer", "buffer '" + *name + "' is compared twice");
                }
                auto [atol, rtol] = defaults_for(type);
                spec.atol = tolerance(cj, "atol", p, atol, spec.atol_expr);
                spec.rtol = tolerance(cj, "rtol", p, rtol, spec.rtol_expr);
                if (const Json* d = field(cj, "deterministic")) {
                    if (!d->is_boolean()) issue(p + ".deterministic", "expected true or false, got " + type_name(*d));
                    else spec.deterministic = d->get<bool>();
                }
                c.compare.push_back(std::move(spec));
            }
        }
    } else {
        // No list: compare every buffer the kernel writes, at the default tolerances.
        for (const auto& b : step.buffers) {
            if (b.role == BufferRole::Input) continue;
            auto [atol, rtol] = defaults_for(b.type);
            CompareSpec spec;
            spec.buffer = b.name;
            spec.atol = atol;
            spec.rtol = rtol;
            spec.json_path = s.path;
            c.compare.push_back(std::move(spec));
        }
        if (c.compare.empty() && !step.buffers.empty())
            issue(s.path, "no output or inout buffer to compare; mark the buffer the kernel writes as \"role\": \"output\"");
    }

    const Json* cases = field(j, "cases");
    const std::string cpath = s.key_path("cases");
    if (!cases) {
        issue(s.path, "missing key 'cases'; at least one case is needed");
    } else if (!cases->is_array()) {
        issue(cpath, "expected an array of cases, got " + type_name(*cases));
    } else if (cases->empty()) {
        issue(cpath, "at least one case is needed");
    } else {
        for (std::size_t i = 0; i < cases->size(); ++i) {
            const Json& tj = (*cases)[i];
            const std::string p = index_path(cpath, i);
            if (!want_object(tj, p, "a case object ({\"name\": ..., \"params\": {...}})")) continue;
            check_keys(tj, p, {"name", "params", "inputs", "timing", "timeout_s", "memcheck", "racecheck", "block", "emulate", "hidden"});
            TestCase tc;
            tc.json_path = p;
            if (auto name = get_string(tj, "name", p, true)) {
                tc.name = *name;
                if (name->empty()) issue(p + ".name", "the case name is empty");
                else if (step.find_case(*name))
                    issue(p + ".name", "duplicate case name '" + *name + "'");
            }
            if (const Json* t = field(tj, "timeout_s")) {
                if (!t->is_number() || t->get<double>() <= 0 || t->get<double>() > 3600)
                    issue(p + ".timeout_s", "timeout_s must be a number of seconds above 0 and at most 3600");
                else
                    tc.timeout_s = t->get<double>();
            }
            if (const Json* t = field(tj, "timing")) {
                if (!t->is_boolean()) issue(p + ".timing", "expected true or false, got " + type_name(*t));
                else tc.timing = t->get<bool>();
            }
            if (const Json* m = field(tj, "memcheck")) {
                if (!m->is_boolean()) issue(p + ".memcheck", "expected true or false, got " + type_name(*m));
                else tc.memcheck = m->get<bool>();
            }
            if (const Json* m = field(tj, "racecheck")) {
                if (!m->is_boolean()) issue(p + ".racecheck", "expected true or false, got " + type_name(*m));
                else tc.racecheck = m->get<bool>();
            }
            if (const Json* b = field(tj, "block")) tc.block = parse_case_block(*b, p + ".block", step);
            if (const Json* h = field(tj, "hidden")) {
                if (!h->is_boolean()) issue(p + ".hidden", "expected true or false, got " + type_name(*h));
                else tc.hidden = h->get<bool>();
            }
            if (const Json* e = field(tj, "emulate")) {
                if (!e->is_boolean()) issue(p + ".emulate", "expected true or false, got " + type_name(*e));
                else tc.emulate = e->get<bool>();
            }
            if (const Json* pj = field(tj, "params")) {
                if (want_object(*pj, p + ".params", "an object of param values ({\"N\": 8})")) {
                    for (const auto& [name, value] : pj->items()) {
                        const std::string vp = key_path(p + ".params", name);
                        const Param* prm = step.find_param(name);
                        if (!prm) {
                            if (!param_names_.count(name)) issue(vp, "unknown parameter '" + name + "'");
                            continue;
                        }
                        if (auto v = param_value(*prm, value, vp, "value")) tc.params[name] = *v;
                    }
                }
            }
            if (const Json* ij = field(tj, "inputs")) {
                // Per-case contents of an input: the worst case for a histogram
                // is an image of one colour. Parsed as that buffer's own init.
                if (want_object(*ij, p + ".inputs", "an object of buffer inits ({\"img\": {\"kind\": \"constant\", \"value\": 7}})")) {
                    for (const auto& [name, init] : ij->items()) {
                        const std::string ip = key_path(p + ".inputs", name);
                        const Buffer* b = step.find_buffer(name);
                        if (!b) {
                            issue(ip, "unknown buffer '" + name + "'");
                            continue;
                        }
                        if (b->role == BufferRole::Output) {
                            issue(ip, "buffer '" + name + "' is an output; a case can set the contents of inputs and inouts only");
                            continue;
                        }
                        Buffer copy = *b;
                        copy.init = BufferInit{};
                        parse_init(init, ip, copy);
                        tc.inputs[name] = copy.init;
                    }
                }
            }
            c.cases.push_back(std::move(tc));
        }
    }

    auto count = [&](const char* key, int min, int& out) {
        const Json* v = field(j, key);
        if (!v) return;
        if (!v->is_number_integer() || v->get<long long>() < min || v->get<long long>() > 100000)
            issue(s.key_path(key), std::string(key) + " must be a whole number from " + std::to_string(min) + " to 100000");
        else
            out = static_cast<int>(v->get<long long>());
    };
    count("warmup", 0, c.warmup);
    count("repeat", 1, c.repeat);
    if (const Json* t = field(j, "timeout_s")) {
        if (!t->is_number() || t->get<double>() <= 0 || t->get<double>() > 3600)
            issue(s.path + ".timeout_s", "timeout_s must be a number of seconds above 0 and at most 3600");
        else
            c.timeout_s = t->get<double>();
    }
    if (const Json* m = field(j, "memcheck")) {
        if (!m->is_boolean()) issue(s.key_path("memcheck"), "expected true or false, got " + type_name(*m));
        else c.memcheck = m->get<bool>();
    }
    if (const Json* m = field(j, "racecheck")) {
        if (!m->is_boolean()) issue(s.key_path("racecheck"), "expected true or false, got " + type_name(*m));
        else c.racecheck = m->get<bool>();
    }
    // After the cases: the limits need one the emulator judges them on.
    if (const Json* a = field(j, "access")) parse_access(*a, s.key_path("access"), step);
}

// A case's "block": 1 to 3 whole numbers (not expressions: the case pins one
// size), at most 1024 threads in all, for a step whose kernels the lesson
// launches. Missing axes are 1.
std::optional<std::array<long long, 3>> Loader::parse_case_block(const Json& j, const std::string& path, const Step& step) {
    if (step.host) {
        issue(path, "a host step makes its own launches, so a case cannot pin their block; leave out 'block'");
        return std::nullopt;
    }
    if (!j.is_array() || j.empty() || j.size() > 3) {
        issue(path, "expected an array of 1 to 3 whole numbers ([64] or [16, 8]), got " +
                        (j.is_array() ? std::to_string(j.size()) + " items" : type_name(j)));
        return std::nullopt;
    }
    std::array<long long, 3> b{1, 1, 1};
    bool ok = true;
    for (std::size_t k = 0; k < j.size(); ++k) {
        const Json& v = j[k];
        if (!v.is_number() || v.get<double>() < 1 || v.get<double>() != std::floor(v.get<double>()) || v.get<double>() > 1024) {
            issue(index_path(path, k), "expected a whole number of threads from 1 to 1024, got " +
                                           (v.is_number() ? fmt_num(v.get<double>()) : type_name(v)));
            ok = false;
            continue;
        }
        b[k] = v.get<long long>();
    }
    if (!ok) return std::nullopt;
    if (b[0] * b[1] * b[2] > 1024) {
        issue(path, "a block of " + std::to_string(b[0] * b[1] * b[2]) + " threads is more than any GPU runs (1024)");
        return std::nullopt;
    }
    return b;
}

void Loader::parse_metrics(const Section& s, Step& step) {
    if (!s.value) return;
    if (!want_object(*s.value, s.path, "a metrics object ({\"bytes\": ..., \"flops\": ...})")) return;
    check_keys(*s.value, s.path, {"bytes", "flops"});
    if (const Json* b = field(*s.value, "bytes")) step.metrics.bytes = expr(*b, s.path + ".bytes", Scope::Params);
    if (const Json* f = field(*s.value, "flops")) step.metrics.flops = expr(*f, s.path + ".flops", Scope::Params);
}

void Loader::parse_baseline(const Section& s, Step& step) {
    if (!s.value) return;
    if (!want_object(*s.value, s.path, "a baseline object ({\"kind\": \"cublas_sgemm\", ...})")) return;
    const auto kind = get_string(*s.value, "kind", s.path, true);
    if (!kind) return;
    BaselineSpec b;
    b.json_path = s.path;
    std::vector<std::string> buffers, sizes;
    if (*kind == "cublas_sgemm") {
        b.kind = BaselineKind::CublasSgemm;
        buffers = {"a", "b", "c"};
        sizes = {"m", "n", "k"};
    } else if (*kind == "memcpy") {
        b.kind = BaselineKind::Memcpy;
        buffers = {"from", "to"};
    } else if (*kind == "cub_reduce_sum") {
        b.kind = BaselineKind::CubReduceSum;
        buffers = {"in", "out"};
        sizes = {"n"};
    } else if (*kind == "cub_scan_sum") {
        b.kind = BaselineKind::CubScanSum;
        buffers = {"in", "out"};
        sizes = {"n"};
    } else {
        issue(s.path + ".kind",
              "unknown baseline kind '" + *kind + "'; expected one of cublas_sgemm, memcpy, cub_reduce_sum, cub_scan_sum");
        return;
    }
    std::vector<std::string> keys = {"kind"};
    keys.insert(keys.end(), buffers.begin(), buffers.end());
    keys.insert(keys.end(), sizes.begin(), sizes.end());
    check_keys(*s.value, s.path, keys);
    bool ok = true;
    for (const std::string& role : buffers) {
        const auto name = get_string(*s.value, role, s.path, true);
        if (!name) {
            ok = false;
            continue;
        }
        const Buffer* buf = step.find_buffer(*name);
        if (!buf) {
            issue(s.path + "." + role, "unknown buffer '" + *name + "'");
            ok = false;
        } else if (b.kind == BaselineKind::CubScanSum && buf->type != DType::F32 && buf->type != DType::I32) {
            issue(s.path + "." + role, "buffer '" + *name + "' is " + std::string(dtype_name(buf->type)) + "; " + *kind +
                                           " works on f32 or i32 buffers");
            ok = false;
        } else if (b.kind != BaselineKind::Memcpy && b.kind != BaselineKind::CubScanSum && buf->type != DType::F32) {
            issue(s.path + "." + role, "buffer '" + *name + "' is " + std::string(dtype_name(buf->type)) + "; " + *kind +
                                           " works on f32 buffers");
            ok = false;
        } else if ((role == "c" || role == "out" || role == "to") && buf->role == BufferRole::Input) {
            issue(s.path + "." + role, "buffer '" + *name + "' is an input; the baseline writes its " + role +
                                           ", which must be an output");
            ok = false;
        }
        b.buffers[role] = *name;
    }
    if (ok && b.kind == BaselineKind::CubScanSum) {
        const Buffer* in = step.find_buffer(b.buffers["in"]);
        const Buffer* out = step.find_buffer(b.buffers["out"]);
        if (in && out && in->type != out->type) {
            issue(s.path + ".out", "buffer '" + out->name + "' is " + std::string(dtype_name(out->type)) + " but '" + in->name +
                                       "' is " + std::string(dtype_name(in->type)) + "; cub_scan_sum writes the type it reads");
            ok = false;
        }
    }
    for (const std::string& role : sizes) {
        const Json* v = field(*s.value, role);
        if (!v) {
            issue(s.path, "missing \"" + role + "\" (an expression over params)");
            ok = false;
            continue;
        }
        b.sizes[role] = expr(*v, s.path + "." + role, Scope::Params);
    }
    if (ok) step.baseline = std::move(b);
}

}  // namespace wb::lesson_load
