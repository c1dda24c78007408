// runtime/pipeline/builder.cpp — the builder process and the worker's client
// of it (builder.hpp).
#include "pipeline/builder.hpp"

#include "core/error.hpp"
#include "emulate/emulator.hpp"
#include "host/host_build.hpp"
#include "pipeline/wire.hpp"
#include "reference/reference.hpp"
#include "sandbox/sandbox.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <csignal>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <thread>

namespace wb {

namespace {

// ---- the worker's side ----

class PipeBuilder final : public RemoteBuilder {
public:
    PipeBuilder(int to, int from) : to_(to), from_(from) {}

    HostLibrary build_library(const LibraryRequest& request) override {
        BuildRequest r;
        r.library = request;
        return ask(r).library;
    }

    CompileResult compile(const SourceText& source, const CompileOptions& options) override {
        BuildRequest r;
        r.nvrtc = true;
        r.source = source;
        r.options = options;
        return ask(r).compiled;
    }

private:
    // Sends `r` and waits for its answer; one caller at a time reads the
    // pipe, and keeps the answers to the others' requests for them.
    BuildAnswer ask(BuildRequest r) {
        std::unique_lock lock(mutex_);
        r.id = ++last_id_;
        const std::uint64_t id = r.id;
        if (broken_.empty() && !write_frame(to_, encode_build_request(r))) broken_ = "the builder process is gone";
        for (;;) {
            if (auto it = answers_.find(id); it != answers_.end()) {
                BuildAnswer a = std::move(it->second);
                answers_.erase(it);
                if (a.failed) throw Error(a.error_kind, a.error_message, {}, a.error_hint);
                return a;
            }
            if (!broken_.empty()) throw Error(ErrorKind::Internal, broken_, {}, "run it again: the workbook starts a new one");
            if (reading_) {
                changed_.wait(lock);
                continue;
            }
            reading_ = true;
            lock.unlock();
            Frame f;
            const ReadStatus st = read_frame(from_, f, std::chrono::steady_clock::time_point::max());
            std::string why;
            BuildAnswer a;
            if (st != ReadStatus::Ok) why = "the builder process stopped answering";
            else {
                try {
                    a = decode_build_answer(f);
                } catch (const Error& e) {
                    why = e.message();
                }
            }
            lock.lock();
            reading_ = false;
            if (!why.empty()) broken_ = why;
            else answers_[a.id] = std::move(a);
            changed_.notify_all();
        }
    }

    int to_, from_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::uint64_t last_id_ = 0;
    bool reading_ = false;
    std::string broken_;
    std::map<std::uint64_t, BuildAnswer> answers_;
};

// ---- the builder's side ----

// The flags the workbook builds libraries with, made now: computing the
// emulator's and the host steps' also writes their headers into the cache
// when they are missing (headers_on_disk).
std::set<std::string> known_flags() {
    std::set<std::string> known;
    auto add = [&](const std::vector<std::string>& flags) { known.insert(flags.begin(), flags.end()); };
    add(reference_library_flags());
    add(emulator_library_flags(true));
    add(emulator_library_flags(false));
    try {
        add(host_split_flags({}));
        add(nvcc_flags("sm_90", {}));
    } catch (const Error&) {
        // No toolkit: no host step builds here either.
    }
    return known;
}

BuildAnswer answer(const BuildRequest& r) {
    BuildAnswer a;
    a.id = r.id;
    a.nvrtc = r.nvrtc;
    try {
        if (r.nvrtc) {
            a.compiled = compile_cuda(r.source, r.options);  // refuses options that write files
            return a;
        }
        const std::set<std::string> known = known_flags();
        for (const auto& f : r.library.flags)
            if (!known.count(f) && !allowed_library_flag(f))
                throw Error(ErrorKind::Usage, "the builder refuses the flag '" + f + "': it is none the workbook builds with");
        LibraryCompiler nvcc;
        if (r.library.nvcc) nvcc = nvcc_library_compiler();
        a.library = build_host_library(r.library.tu, r.library.flags, r.library.kind, r.library.cache_tag,
                                       r.library.nvcc ? &nvcc : nullptr);
    } catch (const Error& e) {
        a.failed = true;
        a.error_kind = e.kind();
        a.error_message = e.message();
        a.error_hint = e.hint();
    } catch (const std::exception& e) {
        a.failed = true;
        a.error_kind = ErrorKind::Internal;
        a.error_message = std::string("the builder failed: ") + e.what();
    }
    return a;
}

}  // namespace

std::unique_ptr<RemoteBuilder> make_pipe_builder(int to_builder, int from_builder) {
    return std::make_unique<PipeBuilder>(to_builder, from_builder);
}

bool allowed_library_flag(const std::string& flag) {
    static const std::regex kForms(R"(-l[A-Za-z0-9_+.-]+|-arch=(sm|compute)_[0-9]+[af]?)");
    return std::regex_match(flag, kForms);
}

int builder_main(int in_fd, int out_fd) {
    std::signal(SIGPIPE, SIG_IGN);
    leave_working_folder();
    apply_worker_limits(worker_limits());
    std::mutex write_mutex;
    std::mutex count_mutex;
    std::condition_variable done;
    int running = 0;
    for (;;) {
        Frame q;
        if (read_frame(in_fd, q, std::chrono::steady_clock::time_point::max()) != ReadStatus::Ok) break;
        BuildRequest r;
        try {
            r = decode_build_request(q);
        } catch (const Error&) {
            break;  // a worker that garbles its requests gets no more builds
        }
        {
            std::lock_guard lock(count_mutex);
            ++running;
        }
        std::thread([r = std::move(r), out_fd, &write_mutex, &count_mutex, &done, &running] {
            const BuildAnswer a = answer(r);
            {
                std::lock_guard lock(write_mutex);
                write_frame(out_fd, encode_build_answer(a));
            }
            std::lock_guard lock(count_mutex);
            --running;
            done.notify_all();
        }).detach();
    }
    std::unique_lock lock(count_mutex);
    done.wait(lock, [&] { return running == 0; });
    return 0;
}

}  // namespace wb
