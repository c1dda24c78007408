// bench/access_cost.cpp — what the access record (RunRequest::access) costs
// on the CPU emulator, through the same worker process the GUI and the CLI use.
//
//   wb_bench_access [--repeat N]      (default 5)
//
// For each case, the solution runs N times without the record and N times
// with it, alternating, after one warm-up run of each (the kernel library
// and the CPU reference built and cached). Per run: the launches' time
// (RunResult::emulated_ms: both validation runs, the first of them checked,
// and, with the record, making the table) and the whole request's wall
// time. The cases are the issue's: lesson 06 step 3 at M = N = K = 256 (256
// blocks, 3 sampled), whose target is at most 3 times a plain emulated run,
// and two large grids whose runs with the record must stay under 2 s
// (lesson 01 at N = 10^6: 3907 blocks; lesson 12 step 2 at N = 2^20).
// One figure per line, "access CASE FIGURE VALUE", for scripts to compare.
#include "lesson/loader.hpp"
#include "pipeline/run.hpp"
#include "pipeline/worker.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

struct Case {
    const char* name;
    const char* lesson;
    const char* step;
    const char* test_case;
    std::map<std::string, double> params;
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
    int repeat = 5;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
        else {
            std::fprintf(stderr, "usage: wb_bench_access [--repeat N]\n");
            return 2;
        }
    }
    const std::vector<Case> cases = {
        {"matmul_tiled_256", "06_matmul.json", "3", "ragged", {{"M", 256}, {"N", 256}, {"K", 256}}},
        {"vector_add_1e6", "01_vector_add.json", "1", "ragged", {{"N", 1000000}}},
        {"coalescing_tile_2e20", "12_coalescing.json", "2", "ragged", {{"N", 1 << 20}}},
    };
    wb::WorkerBackend worker;
    int status = 0;
    for (const Case& c : cases) {
        auto loaded = wb::load_lesson(std::string(WB_SOURCE_DIR) + "/lessons/" + c.lesson);
        if (!loaded.ok()) {
            std::fprintf(stderr, "%s: the lesson did not load\n", c.lesson);
            return 1;
        }
        auto lesson = std::make_shared<const wb::Lesson>(std::move(*loaded.lesson));
        auto request = [&](bool access) {
            wb::RunRequest q;
            q.lesson = lesson;
            q.trusted = true;
            q.step = c.step;
            q.test_case = c.test_case;
            q.params = c.params;
            q.source = wb::SourceChoice::Solution;
            q.executor = wb::Executor::Cpu;
            q.timing = false;
            q.keep_buffers = false;
            q.access = access;
            return q;
        };
        std::vector<double> launches[2], wall[2];
        std::size_t sampled = 0, blocks = 0;
        for (int i = -1; i < repeat; ++i) {
            for (int access = 0; access < 2; ++access) {
                const auto t0 = std::chrono::steady_clock::now();
                const wb::RunResult r = worker.run(request(access != 0));
                const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
                if (r.status != wb::RunStatus::Passed) {
                    std::fprintf(stderr, "%s: %s\n", c.name, r.message.c_str());
                    status = 1;
                    break;
                }
                if (access && r.access && !r.access->launches.empty()) {
                    sampled = r.access->launches[0].sampled.size();
                    blocks = static_cast<std::size_t>(r.access->launches[0].blocks);
                }
                if (i < 0) continue;  // the warm-up
                launches[access].push_back(r.emulated_ms);
                wall[access].push_back(s * 1000);
            }
        }
        if (launches[0].empty() || launches[1].empty()) continue;
        const double plain = median(launches[0]), recorded = median(launches[1]);
        std::printf("access %s blocks %zu sampled %zu\n", c.name, blocks, sampled);
        std::printf("access %s launches_ms_plain %.1f (%.1f..%.1f)\n", c.name, plain,
                    *std::min_element(launches[0].begin(), launches[0].end()), *std::max_element(launches[0].begin(), launches[0].end()));
        std::printf("access %s launches_ms_access %.1f (%.1f..%.1f)\n", c.name, recorded,
                    *std::min_element(launches[1].begin(), launches[1].end()), *std::max_element(launches[1].begin(), launches[1].end()));
        std::printf("access %s ratio %.2f\n", c.name, plain > 0 ? recorded / plain : 0);
        std::printf("access %s wall_ms_plain %.0f\n", c.name, median(wall[0]));
        std::printf("access %s wall_ms_access %.0f\n", c.name, median(wall[1]));
    }
    return status;
}
