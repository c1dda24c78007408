// runtime/lesson/resolve.cpp — a lesson step's rules evaluated for one run (resolve.hpp).
#include "lesson/resolve.hpp"

#include "core/error.hpp"
#include "lesson/expr.hpp"
#include "lesson/launch_args.hpp"

#include <cmath>
#include <cstdio>

namespace wb {

std::string format_number(double v) {
    char buf[64];
    if (v == std::floor(v) && std::fabs(v) < 1e15) std::snprintf(buf, sizeof buf, "%.0f", v);
    else std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::map<std::string, double> resolve_params(const Step& step, const TestCase* test_case,
                                             const std::map<std::string, double>& overrides) {
    std::map<std::string, double> values;
    for (const auto& p : step.params) values[p.name] = p.default_value;
    auto known = [&] {
        std::string names;
        for (const auto& p : step.params) names += (names.empty() ? "" : ", ") + p.name;
        return names.empty() ? std::string("(none)") : names;
    };
    auto apply = [&](const std::string& name, double v, const char* source) {
        const Param* p = step.find_param(name);
        if (!p) throw Error(ErrorKind::Usage, std::string(source) + " sets unknown param '" + name + "'; this step's params are: " + known());
        if (!dtype_is_float(p->type) && v != std::floor(v))
            throw Error(ErrorKind::Usage, "param " + name + " is " + std::string(dtype_name(p->type)) + " and must be a whole number, not " + format_number(v));
        if (p->min && v < *p->min)
            throw Error(ErrorKind::Usage, "param " + name + " = " + format_number(v) + " is below its minimum " + format_number(*p->min));
        if (p->max && v > *p->max)
            throw Error(ErrorKind::Usage, "param " + name + " = " + format_number(v) + " is above its maximum " + format_number(*p->max));
        values[name] = v;
    };
    if (test_case)
        for (const auto& [k, v] : test_case->params) apply(k, v, ("case '" + test_case->name + "'").c_str());
    for (const auto& [k, v] : overrides) apply(k, v, "the request");
    return values;
}

static long long eval_dim(const std::string& expr, const ExprVars& vars, const std::string& where) {
    try {
        return eval_int_expr(expr, vars, -(1ll << 53), 1ll << 53);
    } catch (const Error& e) {
        throw Error(ErrorKind::Expression, e.message(), {"", where});
    }
}

long long resolve_passes(const LaunchSpec& spec, const std::map<std::string, double>& params) {
    if (!spec.multi_pass()) return 1;
    const ExprVars vars(params.begin(), params.end());
    try {
        return eval_int_expr(spec.passes, vars, 0, kMaxPasses);
    } catch (const Error& e) {
        throw Error(ErrorKind::Expression, e.message() + " (a launch makes 0 to " + std::to_string(kMaxPasses) + " passes)",
                    {"", spec.json_path + ".passes"});
    }
}

LaunchDims resolve_launch(const LaunchSpec& spec, const std::map<std::string, double>& params,
                          const LaunchOverride* ov, long long pass) {
    static const char* kAxis[3] = {"x", "y", "z"};
    LaunchDims d;
    ExprVars vars(params.begin(), params.end());
    if (spec.multi_pass()) vars["pass"] = double(pass);
    for (int i = 0; i < 3; ++i)
        d.block[i] = (ov && ov->block) ? (*ov->block)[i]
                                       : eval_dim(spec.block[i], vars, spec.json_path + ".block[" + std::to_string(i) + "]");
    for (int i = 0; i < 3; ++i) vars[std::string("block.") + kAxis[i]] = double(d.block[i]);
    for (int i = 0; i < 3; ++i)
        d.grid[i] = (ov && ov->grid) ? (*ov->grid)[i]
                                     : eval_dim(spec.grid[i], vars, spec.json_path + ".grid[" + std::to_string(i) + "]");
    for (int i = 0; i < 3; ++i) vars[std::string("grid.") + kAxis[i]] = double(d.grid[i]);
    d.shared_bytes = (ov && ov->shared_bytes) ? *ov->shared_bytes
                                              : eval_dim(spec.shared_bytes, vars, spec.json_path + ".shared_bytes");
    return d;
}

long long resolve_malloc_heap(const Step& step, const std::map<std::string, double>& params) {
    const std::string& e = step.limits.malloc_heap_bytes;
    if (e.empty()) return kDefaultMallocHeapBytes;
    const ExprVars vars(params.begin(), params.end());
    try {
        return eval_int_expr(e, vars, kMinMallocHeapBytes, kMaxMallocHeapBytes);
    } catch (const Error& err) {
        throw Error(ErrorKind::Expression, err.message() + " (the device heap takes " + std::to_string(kMinMallocHeapBytes) +
                                               " (1 MiB) to " + std::to_string(kMaxMallocHeapBytes) + " (1 GiB) bytes)",
                    {"", step.limits.json_path + ".malloc_heap_bytes"});
    }
}

std::vector<CompareSpec> resolve_compare(const Step& step, const std::map<std::string, double>& params) {
    std::vector<CompareSpec> out = step.checks.compare;
    const ExprVars vars(params.begin(), params.end());
    for (auto& spec : out) {
        auto eval = [&](const std::string& e, const char* key, double& value) {
            if (e.empty()) return;
            try {
                value = eval_expr(e, vars);
            } catch (const Error& err) {
                throw Error(ErrorKind::Expression, err.message(), {"", spec.json_path + "." + key});
            }
            if (!(value >= 0) || !std::isfinite(value))
                throw Error(ErrorKind::Expression, std::string(key) + " '" + e + "' gives " + format_number(value) +
                                                       " for these params; a tolerance must be a finite number >= 0",
                            {"", spec.json_path + "." + key});
        };
        eval(spec.atol_expr, "atol", spec.atol);
        eval(spec.rtol_expr, "rtol", spec.rtol);
    }
    return out;
}

std::vector<AccessLimitBounds> resolve_access_limits(const Step& step, const std::map<std::string, double>& params) {
    std::vector<AccessLimitBounds> out;
    const ExprVars vars(params.begin(), params.end());
    for (const AccessLimitSpec& spec : step.checks.access) {
        AccessLimitBounds b;
        b.spec = &spec;
        b.figure_at_most = spec.figure_at_most;
        const auto eval = [&](const std::string& e, const char* key) -> std::optional<long long> {
            if (e.empty()) return std::nullopt;
            try {
                return eval_int_expr(e, vars, 0, 1ll << 53);
            } catch (const Error& err) {
                throw Error(ErrorKind::Expression, err.message() + " (a bound on an access count is a whole number >= 0)",
                            {"", spec.json_path + "." + key});
            }
        };
        b.at_most = eval(spec.at_most, "at_most");
        b.at_least = eval(spec.at_least, "at_least");
        if (const auto n = eval(spec.exactly, "exactly")) b.at_most = b.at_least = n;
        out.push_back(b);
    }
    return out;
}

// The bytes a __constant__ variable is filled with: an input buffer's, or
// the lesson's values evaluated for these params and converted to its type.
std::vector<unsigned char> constant_bytes(const ConstantSpec& c, const std::vector<HostBuffer>& host,
                                          const std::map<std::string, double>& params) {
    if (!c.buffer.empty()) {
        for (const auto& h : host)
            if (h.name == c.buffer) {
                const auto* p = static_cast<const unsigned char*>(h.data());
                return {p, p + h.size_bytes()};
            }
        throw Error(ErrorKind::Internal, "no buffer '" + c.buffer + "'");
    }
    ArgPack pack;
    const ExprVars vars(params.begin(), params.end());
    for (std::size_t k = 0; k < c.values.size(); ++k) {
        try {
            pack.add_scalar(c.type, eval_expr(c.values[k], vars));
        } catch (const Error& e) {
            throw Error(ErrorKind::Expression, e.message(), {"", c.json_path + ".values[" + std::to_string(k) + "]"});
        }
    }
    std::vector<unsigned char> bytes;
    for (const auto& v : pack.values) bytes.insert(bytes.end(), v.begin(), v.begin() + long(dtype_size(c.type)));
    return bytes;
}

std::vector<HostBuffer> make_step_buffers(const Step& step, const TestCase* tc, const ExprVars& vars) {
    std::vector<HostBuffer> host;
    for (const auto& b : step.buffers) {
        Buffer spec = b;
        if (tc)
            if (auto it = tc->inputs.find(b.name); it != tc->inputs.end()) spec.init = it->second;
        if (b.fill) {
            spec.init = BufferInit{};
            spec.init.kind = InitKind::Constant;
            spec.init.value = *b.fill;
        }
        host.push_back(make_buffer(spec, vars));
    }
    return host;
}

bool filled_by_lesson(const Step& step, const HostBuffer& h) {
    const Buffer* b = step.find_buffer(h.name);
    return b && b->fill.has_value();
}

}  // namespace wb
