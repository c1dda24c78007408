// runtime/host/timeline.cpp — sums over a host step's timeline.
#include "host/timeline.hpp"

#include "core/error.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <map>
#include <utility>

namespace wb {

const char* activity_kind_name(ActivityKind k) {
    switch (k) {
    case ActivityKind::Kernel: return "kernel";
    case ActivityKind::CopyHtoD: return "HtoD";
    case ActivityKind::CopyDtoH: return "DtoH";
    case ActivityKind::CopyDtoD: return "DtoD";
    case ActivityKind::CopyHtoH: return "HtoH";
    case ActivityKind::CopyPtoP: return "PtoP";
    case ActivityKind::Memset: return "memset";
    }
    return "?";
}

bool activity_is_copy(ActivityKind k) { return k != ActivityKind::Kernel && k != ActivityKind::Memset; }

namespace {

using Interval = std::pair<double, double>;

// The union of intervals, merged and sorted.
std::vector<Interval> merged(std::vector<Interval> v) {
    std::sort(v.begin(), v.end());
    std::vector<Interval> out;
    for (const auto& iv : v) {
        if (iv.second <= iv.first) continue;
        if (!out.empty() && iv.first <= out.back().second) out.back().second = std::max(out.back().second, iv.second);
        else out.push_back(iv);
    }
    return out;
}

double length(const std::vector<Interval>& v) {
    double t = 0;
    for (const auto& [a, b] : v) t += b - a;
    return t;
}

// The length of the intersection of two merged, sorted lists.
double intersection(const std::vector<Interval>& x, const std::vector<Interval>& y) {
    double t = 0;
    std::size_t i = 0, j = 0;
    while (i < x.size() && j < y.size()) {
        const double lo = std::max(x[i].first, y[j].first), hi = std::min(x[i].second, y[j].second);
        if (hi > lo) t += hi - lo;
        (x[i].second < y[j].second) ? ++i : ++j;
    }
    return t;
}

template <class Pred>
std::vector<Interval> intervals(const std::vector<Activity>& acts, Pred&& keep) {
    std::vector<Interval> v;
    for (const auto& a : acts)
        if (keep(a)) v.emplace_back(a.start_us, a.end_us);
    return merged(std::move(v));
}

}  // namespace

std::vector<TimelineLane> Timeline::lanes() const {
    std::vector<TimelineLane> out;
    std::map<std::pair<int, std::uint32_t>, std::size_t> index;
    std::map<std::pair<int, std::uint32_t>, std::vector<Interval>> spans;
    for (const auto& a : activities) {
        const auto key = std::make_pair(a.device, a.stream);
        auto [it, fresh] = index.try_emplace(key, out.size());
        if (fresh) out.push_back({a.device, a.stream, 0, 0});
        ++out[it->second].activities;
        spans[key].emplace_back(a.start_us, a.end_us);
    }
    for (auto& lane : out) lane.busy_us = length(merged(spans[{lane.device, lane.stream}]));
    std::stable_sort(out.begin(), out.end(), [](const TimelineLane& a, const TimelineLane& b) { return a.device < b.device; });
    return out;
}

int Timeline::devices() const {
    std::vector<int> d;
    for (const auto& a : activities)
        if (std::find(d.begin(), d.end(), a.device) == d.end()) d.push_back(a.device);
    return int(d.size());
}

double Timeline::kernel_us() const {
    double t = 0;
    for (const auto& a : activities)
        if (a.kind == ActivityKind::Kernel) t += a.duration_us();
    return t;
}

double Timeline::copy_us() const {
    double t = 0;
    for (const auto& a : activities)
        if (activity_is_copy(a.kind)) t += a.duration_us();
    return t;
}

std::uint64_t Timeline::copy_bytes() const {
    std::uint64_t b = 0;
    for (const auto& a : activities)
        if (activity_is_copy(a.kind)) b += a.bytes;
    return b;
}

double Timeline::copy_kernel_overlap_us() const {
    return intersection(intervals(activities, [](const Activity& a) { return activity_is_copy(a.kind); }),
                        intervals(activities, [](const Activity& a) { return a.kind == ActivityKind::Kernel; }));
}

double Timeline::busy_us() const {
    return length(intervals(activities, [](const Activity&) { return true; }));
}

void Timeline::sort() {
    std::stable_sort(activities.begin(), activities.end(), [](const Activity& a, const Activity& b) {
        if (a.start_us != b.start_us) return a.start_us < b.start_us;
        if (a.device != b.device) return a.device < b.device;
        return a.stream < b.stream;
    });
}

nlohmann::json timeline_to_json(const Timeline& t) {
    nlohmann::json acts = nlohmann::json::array();
    for (const auto& a : t.activities) {
        nlohmann::json j = {{"kind", activity_kind_name(a.kind)}, {"device", a.device}, {"stream", a.stream},
                            {"start_us", a.start_us}, {"end_us", a.end_us}};
        if (!a.name.empty()) j["name"] = a.name;
        if (a.bytes) j["bytes"] = a.bytes;
        if (a.pageable) j["pageable"] = true;
        if (a.kind == ActivityKind::Kernel) {
            j["grid"] = a.grid;
            j["block"] = a.block;
        }
        if (a.in_graph) j["in_graph"] = true;
        acts.push_back(std::move(j));
    }
    nlohmann::json j = {{"wall_us", t.wall_us}, {"activities", std::move(acts)}};
    if (!t.unavailable.empty()) j["unavailable"] = t.unavailable;
    if (t.ran_past_return_us > 0) j["ran_past_return_us"] = t.ran_past_return_us;
    if (t.dropped) j["dropped"] = t.dropped;
    return j;
}

Timeline timeline_from_json(const nlohmann::json& j) {
    auto bad = [](const std::string& path, const std::string& what) {
        return Error(ErrorKind::Usage, "timeline: " + path + ": " + what);
    };
    if (!j.is_object()) throw bad("(top)", "expected an object");
    Timeline t;
    auto number = [&](const nlohmann::json& o, const char* key, const std::string& path, double fallback) {
        if (!o.contains(key)) return fallback;
        if (!o.at(key).is_number()) throw bad(path + "." + key, "expected a number");
        return o.at(key).get<double>();
    };
    // A whole number from 0 to `max`; converting a fraction, a negative or a
    // larger number into the member would be undefined, so each is refused.
    auto whole = [&](const nlohmann::json& o, const char* key, const std::string& path, std::uint64_t max) {
        if (!o.contains(key)) return std::uint64_t(0);
        const auto& v = o.at(key);
        const bool ok = v.is_number_unsigned() ? v.get<std::uint64_t>() <= max
                                               : v.is_number_integer() && v.get<std::int64_t>() >= 0 &&
                                                     std::uint64_t(v.get<std::int64_t>()) <= max;
        if (!ok) throw bad(path + "." + key, "expected a whole number from 0 to " + std::to_string(max));
        return v.get<std::uint64_t>();
    };
    t.wall_us = number(j, "wall_us", "", 0);
    t.ran_past_return_us = number(j, "ran_past_return_us", "", 0);
    t.dropped = whole(j, "dropped", "", UINT64_MAX);
    if (j.contains("unavailable") && j.at("unavailable").is_string()) t.unavailable = j.at("unavailable").get<std::string>();
    if (!j.contains("activities")) return t;
    if (!j.at("activities").is_array()) throw bad("activities", "expected an array");
    const auto& arr = j.at("activities");
    for (std::size_t i = 0; i < arr.size(); ++i) {
        const std::string path = "activities[" + std::to_string(i) + "]";
        const auto& aj = arr[i];
        if (!aj.is_object()) throw bad(path, "expected an object");
        Activity a;
        const std::string kind = aj.value("kind", std::string());
        bool known = false;
        for (auto k : {ActivityKind::Kernel, ActivityKind::CopyHtoD, ActivityKind::CopyDtoH, ActivityKind::CopyDtoD,
                       ActivityKind::CopyHtoH, ActivityKind::CopyPtoP, ActivityKind::Memset})
            if (kind == activity_kind_name(k)) {
                a.kind = k;
                known = true;
            }
        if (!known) throw bad(path + ".kind", "unknown kind '" + kind + "'");
        a.name = aj.value("name", std::string());
        a.device = int(whole(aj, "device", path, INT_MAX));
        a.stream = std::uint32_t(whole(aj, "stream", path, UINT32_MAX));
        a.start_us = number(aj, "start_us", path, 0);
        a.end_us = number(aj, "end_us", path, 0);
        if (a.end_us < a.start_us) throw bad(path + ".end_us", "ends before it starts");
        a.bytes = whole(aj, "bytes", path, UINT64_MAX);
        a.pageable = aj.value("pageable", false);
        a.in_graph = aj.value("in_graph", false);
        for (auto [key, dims] : {std::pair{"grid", &a.grid}, std::pair{"block", &a.block}})
            if (aj.contains(key)) {
                const auto& d = aj.at(key);
                if (!d.is_array() || d.size() != 3) throw bad(path + "." + key, "expected [x, y, z]");
                for (int k = 0; k < 3; ++k) {
                    if (!d[k].is_number_integer()) throw bad(path + "." + key, "expected [x, y, z] of whole numbers");
                    (*dims)[k] = d[k].get<int>();
                }
            }
        t.activities.push_back(std::move(a));
    }
    t.sort();
    return t;
}

}  // namespace wb
