// runtime/driver/gpu_executor.cpp — a kernel step's kernels on the GPU (gpu_executor.hpp).
#include "driver/gpu_executor.hpp"

#include "core/error.hpp"
#include "lesson/launch_args.hpp"
#include "lesson/resolve.hpp"
#include "measure/baseline_run.hpp"
#include "measure/gpu_quiet.hpp"
#include "measure/kernel_timing.hpp"
#include "pipeline/poison.hpp"
#include "pipeline/verdict.hpp"

#include <algorithm>
#include <cstring>

namespace wb {

namespace {

// The inputs as first uploaded are kept on the GPU when they are at least
// this large and it has room for them four times over (GpuExecutor::upload_inputs).
constexpr std::size_t kPristineFrom = std::size_t(8) << 20;

class GpuExecutor final : public StepExecutor {
public:
    GpuExecutor(const StepInputs& in, const GpuContext& ctx, std::shared_ptr<GpuModule> module)
        : in_(in), ctx_(ctx), d_(ctx.driver()), module_(std::move(module)) {}

    bool prepare(RunResult& r) override;
    std::optional<std::vector<HostBuffer>> validate(RunResult& r, unsigned char poison, unsigned char guard,
                                                    const std::vector<HostBuffer>* first) override;
    Sentence out_of_bounds() const override { return out_of_bounds_; }
    std::optional<std::vector<HostBuffer>> measure(RunResult& r) override;
    void beside(RunResult& r) override;

private:
    bool check_compiled_launches(RunResult& r);
    bool fill_constants(RunResult& r);
    void make_buffers_and_args(RunResult& r);
    void upload_inputs();
    void poison_outputs(unsigned char pattern);
    void refill_outputs();
    void launch_all(RunResult& r, CUstream stream);
    void synchronize(RunResult& r, const char* what);
    std::vector<HostBuffer> download_outputs() const;
    std::vector<HostBuffer> download_second(const std::vector<HostBuffer>& first) const;
    std::size_t index_of(const std::string& name) const { return buffer_index(in_.host, name); }
    bool is_filled(std::size_t i) const { return filled_by_lesson(in_.step, in_.host[i]); }

    const StepInputs& in_;
    const GpuContext& ctx_;
    const Driver& d_;
    std::shared_ptr<GpuModule> module_;
    std::vector<CUfunction> functions_;
    std::vector<std::vector<LaunchDims>> pass_dims_;  // per launch, per pass
    std::vector<DeviceBuffer> dev_;
    std::vector<DeviceBuffer> pristine_;
    // binding_[i] is the device buffer that buffer i's name stands for: a
    // multi-pass launch's swap exchanges two names after each pass but its
    // last, and the names keep the last binding for the launches after it
    // and for the download.
    std::vector<std::size_t> binding_;
    std::vector<std::vector<ArgPack>> packs_;  // per launch, per pass
    bool inputs_written_ = false;              // a swap hands an input to a kernel to write
    Sentence out_of_bounds_;
    // The timer and what it times, kept after measure() for the baseline beside
    // the kernels (same flush, same method); work_ is declared first, as the timer holds it.
    KernelWork work_;
    std::optional<KernelTimer> timer_;
    std::optional<Timing> timing_;             // for the baseline's method
};

bool GpuExecutor::prepare(RunResult& r) {
    if (!check_compiled_launches(r)) return false;
    make_buffers_and_args(r);
    return fill_constants(r);
}

// Each launch against the compiled kernel: its parameter list, and every
// pass's sizes with the kernel's registers and static shared memory.
bool GpuExecutor::check_compiled_launches(RunResult& r) {
    const auto& cu = d_.api();
    const RunRequest& req = in_.req;
    for (std::size_t li = 0; li < r.launches.size(); ++li) {
        LaunchReport& lr = r.launches[li];
        const LaunchSpec& spec = in_.step.launches[li];
        auto it = r.compile.lowered_names.find(lr.entry);
        CUfunction f = module_->function(it != r.compile.lowered_names.end() ? it->second : lr.entry, lr.entry);
        lr.resources = module_->resources(f);
        // The kernel's real parameter list against the lesson's args: a
        // student who changed the signature hears which argument no longer fits.
        // Not under compute-sanitizer: the driver answers the probe past the
        // last parameter with CUDA_ERROR_INVALID_VALUE, which the tool counts
        // as an error of the run (the normal run has checked the args).
        if (auto sizes = req.sanitizer == SanitizerTool::None ? module_->param_sizes(f) : std::nullopt) {
            std::vector<std::pair<std::string, std::size_t>> args;
            for (const auto& a : spec.args)
                args.emplace_back(a.name, a.kind == Arg::Kind::Buffer ? sizeof(void*) : dtype_size(a.type));
            lr.refusal = check_kernel_args(lr.entry, *sizes, args);
        }
        const LaunchOverride* ov = li < req.launches.size() ? &req.launches[li] : nullptr;
        std::vector<LaunchDims> dims;
        long long max_shared = 0;
        for (long long p = 0; p < lr.passes && !lr.refusal; ++p) {
            dims.push_back(p == 0 ? lr.dims : resolve_launch(spec, r.params, ov, p));
            bool optin = false;
            lr.refusal = check_launch(dims.back(), ctx_.info().limits, lr.resources, &optin);
            if (lr.refusal && spec.multi_pass()) lr.refusal->add({"refuse.pass", {std::to_string(p)}});
            lr.shared_optin = lr.shared_optin || optin;
            max_shared = std::max(max_shared, dims.back().shared_bytes);
        }
        if (lr.refusal) {
            set_refused(r, lr);
            return false;
        }
        if (lr.shared_optin)
            d_.check(cu.cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, int(max_shared)),
                     "raising the kernel's dynamic shared memory limit");
        functions_.push_back(f);
        pass_dims_.push_back(std::move(dims));
    }
    return true;
}

// Device buffers (with guard zones, which catch a write past either end that
// would otherwise land in the allocator's padding and pass; none under
// compute-sanitizer, which must see such a write as outside the allocation),
// every pass's arguments, made once, and the pristine inputs.
void GpuExecutor::make_buffers_and_args(RunResult& r) {
    const auto& cu = d_.api();
    const auto& host = in_.host;
    const std::size_t guard = in_.req.sanitizer == SanitizerTool::None ? kGuardBytes : 0;
    for (const auto& h : host) dev_.emplace_back(d_, h.size_bytes(), guard);

    binding_.resize(host.size());
    for (std::size_t i = 0; i < binding_.size(); ++i) binding_[i] = i;
    packs_.resize(in_.step.launches.size());
    for (std::size_t li = 0; li < in_.step.launches.size(); ++li) {
        const LaunchSpec& spec = in_.step.launches[li];
        for (const auto& [a, b] : spec.swap)
            inputs_written_ = inputs_written_ || host[index_of(a)].role == BufferRole::Input ||
                              host[index_of(b)].role == BufferRole::Input;
        std::map<std::string, double> values = r.params;
        for (long long p = 0; p < r.launches[li].passes; ++p) {
            if (spec.multi_pass()) values["pass"] = double(p);
            packs_[li].push_back(pack_args(spec.args, values, [&](const std::string& name) {
                return dev_[binding_[index_of(name)]].ptr();
            }));
            if (p + 1 < r.launches[li].passes)
                for (const auto& [a, b] : spec.swap) std::swap(binding_[index_of(a)], binding_[index_of(b)]);
        }
    }

    // Every later run and sample starts from the inputs again (a kernel may
    // write into its inputs, by mistake or in place): large ones by a device
    // copy at HBM speed, not another upload from pageable host memory at PCIe
    // speed (0.8 GB of vector add at 10^8: about 1 ms, not 80). Small inputs
    // upload as fast as they copy, and the edit loop would pay for the extra
    // allocations.
    pristine_.resize(host.size());
    std::size_t input_bytes = 0;
    for (const auto& h : host)
        if (h.role != BufferRole::Output) input_bytes += h.size_bytes();
    std::size_t free_bytes = 0, total_bytes = 0;
    if (input_bytes >= kPristineFrom && cu.cuMemGetInfo(&free_bytes, &total_bytes) == CUDA_SUCCESS &&
        input_bytes <= free_bytes / 4)
        for (std::size_t i = 0; i < host.size(); ++i)
            if (host[i].role != BufferRole::Output && host[i].size_bytes() > 0) {
                pristine_[i] = DeviceBuffer(d_, host[i].size_bytes());
                pristine_[i].upload(host[i].data());
            }
}

// __constant__ variables are filled once: a kernel cannot write constant
// memory, so both runs and the timing see the same values.
bool GpuExecutor::fill_constants(RunResult& r) {
    const auto& step = in_.step;
    for (std::size_t k = 0; k < step.constants.size(); ++k) {
        const ConstantSpec& c = step.constants[k];
        const auto global = module_->global(c.name);
        const std::vector<unsigned char>& bytes = in_.constants[k];
        const std::string from = c.buffer.empty() ? "@refuse.from_values|" + std::to_string(c.values.size())
                                                  : "@refuse.from_buffer|" + c.buffer;
        LaunchReport& lr = r.launches.front();
        if (!global)
            lr.refusal = LaunchRefusal{"constants", {{"refuse.no_constant", {c.name, from}}}};
        else if (bytes.size() > global->second)
            lr.refusal = LaunchRefusal{"constants", {{"refuse.constant_size", {c.name, std::to_string(global->second), from,
                                                                                std::to_string(bytes.size())}}}};
        if (lr.refusal) {
            set_refused(r, lr);
            return false;
        }
        d_.check(d_.api().cuMemcpyHtoD(global->first, bytes.data(), bytes.size()), "filling a __constant__ variable");
    }
    return true;
}

void GpuExecutor::upload_inputs() {
    const auto& host = in_.host;
    for (std::size_t i = 0; i < host.size(); ++i) {
        if (host[i].role == BufferRole::Output) continue;
        if (pristine_[i].size() > 0)
            d_.check(d_.api().cuMemcpyDtoD(dev_[i].ptr(), pristine_[i].ptr(), pristine_[i].size()),
                     "restoring an input on the GPU");
        else
            dev_[i].upload(host[i].data());
    }
}

// Outputs are poisoned, except those the lesson fills (kernels accumulate
// into them): those get their fill value, from the host copy.
void GpuExecutor::poison_outputs(unsigned char pattern) {
    for (std::size_t i = 0; i < in_.host.size(); ++i)
        if (in_.host[i].role == BufferRole::Output) {
            if (is_filled(i)) dev_[i].upload(in_.host[i].data());
            else dev_[i].fill_bytes(pattern);
        }
}

void GpuExecutor::refill_outputs() {
    for (std::size_t i = 0; i < in_.host.size(); ++i)
        if (in_.host[i].role == BufferRole::Output && is_filled(i)) dev_[i].upload(in_.host[i].data());
}

void GpuExecutor::launch_all(RunResult& r, CUstream stream) {
    const auto& cu = d_.api();
    for (std::size_t i = 0; i < functions_.size(); ++i)
        for (std::size_t p = 0; p < packs_[i].size(); ++p) {
            const auto& dims = pass_dims_[i][p];
            CUresult res = cu.cuLaunchKernel(functions_[i], unsigned(dims.grid[0]), unsigned(dims.grid[1]),
                                             unsigned(dims.grid[2]), unsigned(dims.block[0]), unsigned(dims.block[1]),
                                             unsigned(dims.block[2]), unsigned(dims.shared_bytes), stream,
                                             packs_[i][p].pointers.data(), nullptr);
            if (res != CUDA_SUCCESS)
                d_.check(res, ("launching '" + r.launches[i].entry + "'" +
                               (packs_[i].size() > 1 ? ", pass " + std::to_string(p) : std::string()))
                                  .c_str());
        }
}

// A kernel's fault shows at the next synchronisation: reported against this
// run, and a sticky one marks the context lost (the worker is replaced).
void GpuExecutor::synchronize(RunResult& r, const char* what) {
    CUresult res = d_.api().cuCtxSynchronize();
    if (res == CUDA_SUCCESS) return;
    if (cuda_error_is_sticky(res)) r.context_lost = true;
    throw Error(ErrorKind::Cuda, std::string("the kernel failed while ") + what + ": " + d_.error_string(res), {},
                cuda_error_hint(res), d_.error_name(res));
}

std::vector<HostBuffer> GpuExecutor::download_outputs() const {
    std::vector<HostBuffer> out;
    for (std::size_t i = 0; i < in_.host.size(); ++i)
        if (in_.host[i].role != BufferRole::Input) {
            HostBuffer b = in_.host[i].zeroed_like();
            dev_[binding_[i]].download(b.mutable_data());
            out.push_back(std::move(b));
        }
    return out;
}

// The second validation run's outputs. A kernel that writes every cell, the
// same way each time, leaves the same bytes as the first run: then the first
// run's buffers stand for both (they share their blocks), and the check costs
// one chunk of host memory, not another copy of every output. Otherwise the
// second run's outputs are read whole.
std::vector<HostBuffer> GpuExecutor::download_second(const std::vector<HostBuffer>& first) const {
    constexpr std::size_t kChunk = std::size_t(32) << 20;
    std::vector<unsigned char> chunk;
    std::size_t k = 0;
    for (std::size_t i = 0; i < in_.host.size(); ++i) {
        if (in_.host[i].role == BufferRole::Input) continue;
        const auto* a = static_cast<const unsigned char*>(first[k++].data());
        const std::size_t n = in_.host[i].size_bytes();
        chunk.resize(std::min(n, kChunk));
        for (std::size_t off = 0; off < n; off += kChunk) {
            const std::size_t len = std::min(kChunk, n - off);
            dev_[binding_[i]].download_range(chunk.data(), off, len);
            if (std::memcmp(chunk.data(), a + off, len) != 0) return download_outputs();
        }
    }
    return first;
}

std::optional<std::vector<HostBuffer>> GpuExecutor::validate(RunResult& r, unsigned char poison, unsigned char guard,
                                                             const std::vector<HostBuffer>* first) {
    upload_inputs();
    poison_outputs(poison);
    for (std::size_t i = 0; i < dev_.size(); ++i) dev_[i].fill_guards(guard_pattern(guard, i));
    launch_all(r, nullptr);
    synchronize(r, first ? "running a second time" : "running");
    if (out_of_bounds_.empty())
        out_of_bounds_ = guard_report(in_.host, guard, [&](std::size_t i, unsigned char p) { return dev_[i].first_guard_write(p); });
    return first ? download_second(*first) : download_outputs();
}

std::optional<std::vector<HostBuffer>> GpuExecutor::measure(RunResult& r) {
    const RunRequest& req = in_.req;
    // Under compute-sanitizer a kernel runs 10-100x slower: a time would mislead.
    if (!req.timing || req.sanitizer != SanitizerTool::None) return std::nullopt;
    if (req.on_phase) req.on_phase("timing");
    const auto& host = in_.host;
    const bool has_inout = inputs_written_ || std::any_of(host.begin(), host.end(), [](const HostBuffer& h) {
        return h.role == BufferRole::InOut;
    });
    const bool has_filled = std::any_of(in_.step.buffers.begin(), in_.step.buffers.end(),
                                        [](const Buffer& b) { return b.fill.has_value(); });
    KernelWork& work = work_;
    work.launch = [&](CUstream stream) { launch_all(r, stream); };
    if (has_inout || has_filled)
        work.restore = [this, has_inout, has_filled] {
            if (has_inout) upload_inputs();   // an in-place (or swapping) kernel must see its original input every time
            if (has_filled) refill_outputs();  // an accumulating kernel must start from its fill every time
        };
    work.synchronize = [&](const char* what) { synchronize(r, what); };
    work.working_set = bytes_of(host);
    TimingAsk ask;
    ask.warmup = req.warmup >= 0 ? req.warmup : in_.step.checks.warmup;
    ask.repeat = std::max(1, req.repeat >= 0 ? req.repeat : in_.step.checks.repeat);
    ask.warm_l2 = req.warm_l2;

    Timing quiet;
    wait_for_quiet_gpu(quiet, nvml_probe(ctx_.info().pci_bus_id));
    KernelTimer& timer = timer_.emplace(ctx_, work, ask);
    Timing t = timer.time();
    t.waited_ms = quiet.waited_ms;
    t.busy_processes = quiet.busy_processes;
    t.throttled_before = quiet.throttled_before;
    r.gpu_time = t;
    timing_ = t;
    // A last sample, taken as the others were, over poisoned outputs: a
    // kernel that stopped computing once it had an answer leaves the poison,
    // and the check after timing reads what it left.
    timer.sample_once_more(t, [&] {
        upload_inputs();
        poison_outputs(kPoisonA);
    });
    synchronize(r, "being timed");
    return download_outputs();
}

// The lesson's baseline, on the same inputs, checked and timed the same way.
void GpuExecutor::beside(RunResult& r) {
    const RunRequest& req = in_.req;
    if (!in_.step.baseline || !timer_ || !timing_) return;
    if (req.on_phase) req.on_phase("baseline");
    BaselineRun run{*in_.step.baseline, r.params, r.bytes, r.flops, r.compile.arch, in_.host, dev_, in_.reference_out,
                    in_.compare, [&] { upload_inputs(); }, [&](const char* what) { synchronize(r, what); }};
    r.baseline = run_baseline(ctx_, run, *timer_, *timing_);
}

}  // namespace

std::unique_ptr<StepExecutor> make_gpu_executor(const StepInputs& in, const GpuContext& ctx,
                                                std::shared_ptr<GpuModule> module) {
    return std::make_unique<GpuExecutor>(in, ctx, std::move(module));
}

}  // namespace wb
