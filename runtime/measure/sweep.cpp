// runtime/measure/sweep.cpp — sweep plans and their summary (sweep.hpp).
#include "measure/sweep.hpp"

#include "core/error.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

namespace wb {
namespace {

[[noreturn]] void usage(const std::string& what) { throw Error(ErrorKind::Usage, what); }

double number(const std::string& text, const std::string& whole) {
    const char* s = text.c_str();
    char* end = nullptr;
    const double v = std::strtod(s, &end);
    if (text.empty() || *end || !std::isfinite(v))
        usage("sweep '" + whole + "': '" + text + "' is not a number");
    return v;
}

std::string num_str(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

}  // namespace

SweepAxis parse_param_sweep(const std::string& text) {
    SweepAxis axis;
    axis.kind = SweepAxis::Kind::Param;
    const size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0)
        usage("sweep '" + text + "': write NAME=FROM:TO:xFACTOR, NAME=FROM:TO:+STEP or NAME=V1,V2,...");
    axis.param = text.substr(0, eq);
    const std::string rest = text.substr(eq + 1);
    if (rest.find(':') != std::string::npos) {
        const size_t c1 = rest.find(':'), c2 = rest.find(':', c1 + 1);
        if (c2 == std::string::npos || rest.find(':', c2 + 1) != std::string::npos)
            usage("sweep '" + text + "': a range is FROM:TO:xFACTOR or FROM:TO:+STEP");
        const double from = number(rest.substr(0, c1), text), to = number(rest.substr(c1 + 1, c2 - c1 - 1), text);
        const std::string by = rest.substr(c2 + 1);
        if (by.size() < 2 || (by[0] != 'x' && by[0] != '+'))
            usage("sweep '" + text + "': the step '" + by + "' must be xFACTOR (x2) or +STEP (+256)");
        const double k = number(by.substr(1), text);
        if (to < from) usage("sweep '" + text + "': TO is below FROM");
        if (by[0] == 'x') {
            if (!(k > 1)) usage("sweep '" + text + "': the factor must be above 1");
            if (!(from > 0)) usage("sweep '" + text + "': a sweep by a factor must start above 0");
            for (double v = from; v <= to * (1 + 1e-12); v *= k) {
                axis.values.push_back(v);
                if (int(axis.values.size()) > kMaxSweepPoints) break;
            }
        } else {
            if (!(k > 0)) usage("sweep '" + text + "': the step must be above 0");
            for (int i = 0;; ++i) {
                const double v = from + i * k;
                if (v > to * (1 + 1e-12) + 1e-12) break;
                axis.values.push_back(v);
                if (int(axis.values.size()) > kMaxSweepPoints) break;
            }
        }
    } else {
        size_t start = 0;
        while (start <= rest.size()) {
            const size_t comma = rest.find(',', start);
            axis.values.push_back(number(rest.substr(start, comma - start), text));
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
    }
    if (int(axis.values.size()) > kMaxSweepPoints)
        usage("sweep '" + text + "' has more than " + std::to_string(kMaxSweepPoints) +
              " points; each is a checked, timed run: take a larger step");
    return axis;
}

SweepPlan plan_sweep(const Step& step, const SweepAxis& axis, int max_threads) {
    SweepPlan plan;
    plan.axis = axis;
    if (axis.kind == SweepAxis::Kind::Block) {
        plan.x_label = "threads per block";
        if (step.launches.empty()) usage("step '" + step.id + "' has no launch to sweep");
        const LaunchSpec& l = step.launches[step.tuned_launch()];
        const bool two_d = l.block[1] != "1" || l.block[2] != "1";
        auto add = [&](long long x, long long y) {
            const long long threads = x * y;
            const std::string label = two_d ? std::to_string(x) + "x" + std::to_string(y) : std::to_string(x);
            if (threads > max_threads) {
                plan.left_out.push_back(label + ": over the " + std::to_string(max_threads) + " threads a block may have");
                return;
            }
            SweepPoint p;
            p.label = label;
            p.x = double(threads);
            p.block = std::array<long long, 3>{x, y, 1};
            plan.points.push_back(std::move(p));
        };
        if (!two_d) {
            for (long long x : {32, 64, 96, 128, 192, 256, 384, 512, 768, 1024}) add(x, 1);
        } else {
            for (long long x : {8, 16, 32, 64})
                for (long long y : {2, 4, 8, 16, 32})
                    if (x * y >= 64 && x * y <= 1024) add(x, y);
        }
        return plan;
    }

    const Param* param = step.find_param(axis.param);
    if (!param) {
        std::string names;
        for (const auto& p : step.params) names += (names.empty() ? "" : ", ") + p.name;
        usage("step '" + step.id + "' has no param '" + axis.param + "'" +
              (names.empty() ? std::string(" (it has none)") : " (it has " + names + ")"));
    }
    plan.x_label = param->name;
    std::set<double> seen;
    for (double v : axis.values) {
        if (!dtype_is_float(param->type)) v = std::round(v);
        if (!seen.insert(v).second) continue;
        const std::string label = param->name + "=" + num_str(v);
        if (param->min && v < *param->min) {
            plan.left_out.push_back(label + ": below its minimum " + num_str(*param->min));
            continue;
        }
        if (param->max && v > *param->max) {
            plan.left_out.push_back(label + ": above its maximum " + num_str(*param->max));
            continue;
        }
        SweepPoint p;
        p.label = label;
        p.x = v;
        p.params[param->name] = v;
        plan.points.push_back(std::move(p));
    }
    if (int(plan.points.size()) > kMaxSweepPoints)
        usage("the sweep has more than " + std::to_string(kMaxSweepPoints) + " points");
    return plan;
}

RunRequest sweep_request(const RunRequest& base, const Step& step, const SweepPoint& point) {
    RunRequest r = base;
    r.on_phase = nullptr;
    if (point.block) {
        const size_t tuned = step.tuned_launch();
        if (r.launches.size() <= tuned) r.launches.resize(tuned + 1);
        r.launches[tuned].block = point.block;
        r.launches[tuned].grid.reset();  // the lesson's grid expression follows the new block
    }
    for (const auto& [name, value] : point.params) r.params[name] = value;
    return r;
}

SweepSummary summarize_sweep(const SweepPlan& plan, const std::vector<const RunResult*>& results) {
    SweepSummary s;
    double best = 0;
    for (size_t i = 0; i < results.size(); ++i) {
        static const RunResult kNotRun;
        const RunResult& r = results[i] ? *results[i] : kNotRun;
        if (r.status == RunStatus::Passed) ++s.passed;
        else if (r.status == RunStatus::CompileOnly) ++s.compile_only;
        else ++s.failed;
        const Timing* t = r.step_time();
        if (r.status == RunStatus::Passed && t && t->median_ms > 0 && (s.fastest < 0 || t->median_ms < best)) {
            s.fastest = int(i);
            best = t->median_ms;
        }
    }
    char buf[160];
    s.text = std::to_string(results.size()) + (results.size() == 1 ? " point, " : " points, ") +
             std::to_string(s.passed) + " passed, " + std::to_string(s.failed) + " failed";
    if (s.compile_only) s.text += ", " + std::to_string(s.compile_only) + " compile-only (no GPU ran them)";
    if (s.fastest >= 0 && size_t(s.fastest) < plan.points.size()) {
        const RunResult& r = *results[size_t(s.fastest)];
        std::snprintf(buf, sizeof buf, "; fastest %s at %.4f ms", plan.points[size_t(s.fastest)].label.c_str(),
                      r.step_time()->median_ms);
        s.text += buf;
        if (r.bytes > 0) {
            std::snprintf(buf, sizeof buf, " (%.1f GB/s)", r.gbs());
            s.text += buf;
        }
    } else if (!results.empty() && s.compile_only < int(results.size())) {
        s.text += "; no point both passed and was timed";
    }
    return s;
}

SweepSummary summarize_sweep(const SweepPlan& plan, const std::vector<RunResult>& results) {
    std::vector<const RunResult*> all;
    for (const RunResult& r : results) all.push_back(&r);
    return summarize_sweep(plan, all);
}

}  // namespace wb
