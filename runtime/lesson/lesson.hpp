// runtime/lesson/lesson.hpp — the in-memory model of a lesson file (formats 1 and 2).
//
// The loader (loader.hpp) turns a JSON file into these plain structs and
// resolves everything a later stage needs: step-level overrides are already
// merged over lesson-level defaults, source files are read, and every
// expression has been checked to name only known params. Nothing here
// evaluates expressions; see expr.hpp and data/buffers.hpp for that.
//
// docs/lesson-format.md is the instructor-facing description of the format;
// lessons/lesson.schema.json is its JSON Schema. Keep all three in step.
#pragma once

#include "core/dtype.hpp"

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wb {

// Text given as a plain string (language "") or per language ("en", "zh", ...).
struct LocalizedText {
    std::map<std::string, std::string> by_lang;

    bool empty() const { return by_lang.empty(); }
    // The text in `lang`, else English, else the plain string, else any.
    const std::string& get(const std::string& lang = "en") const;
};

// Kernel or reference source, with where it came from so diagnostics can name it.
struct SourceText {
    std::string text;
    std::string origin;     // display name: "kernel.cu" file path relative to the lesson, or "<inline>"
    std::string json_path;  // where in the lesson it was given, e.g. "steps[0].starter"
};

struct Param {
    std::string name;
    DType type = DType::I32;
    double default_value = 0;
    std::optional<double> min;
    std::optional<double> max;
    LocalizedText description;
    std::string json_path;  // "params.N"
};

enum class BufferRole { Input, Output, InOut };

enum class InitKind { Zero, Constant, Ramp, Uniform, Normal, Identity, Image };
enum class ImageLayout { HWC, CHW };
enum class ImageChannels { RGB, Gray };

struct BufferInit {
    InitKind kind = InitKind::Zero;
    double value = 0;                 // Constant
    double start = 0, step = 1;       // Ramp: start + i*step (i = flat index)
    double min = 0, max = 1;          // Uniform
    double mean = 0, stddev = 1;      // Normal
    uint64_t seed = 1;                // Uniform, Normal
    std::filesystem::path image;      // Image: absolute path, already checked to exist
    std::string image_name;           // Image: as written in the lesson
    ImageLayout layout = ImageLayout::HWC;
    ImageChannels channels = ImageChannels::RGB;
};

struct Buffer {
    std::string name;
    DType type = DType::F32;
    std::vector<std::string> shape;  // expressions over params, outermost first
    BufferRole role = BufferRole::Input;
    BufferInit init;
    // An output that kernels accumulate into ("init": {"fill": 0}): its
    // device copy holds this value before every validation run and every
    // timed sample instead of poison, and the reference starts from it too.
    std::optional<double> fill;
    std::string json_path;           // "steps[1].buffers[2]" or "buffers[2]"
};

// One kernel argument, bound in order.
struct Arg {
    enum class Kind { Buffer, Param, Expr };
    Kind kind = Kind::Param;
    std::string name;        // buffer or param name; for Expr, the expression
    DType type = DType::I32; // Param: the param's type; Expr: declared type; Buffer: element type
    std::string json_path;
};

// Each dimension is an expression. Block sees params; grid sees params and
// block.x/y/z; shared_bytes sees params, block.* and grid.*. A launch with
// "passes" runs that many times in a row (a reduction to one value, a scan);
// its block, grid, shared_bytes and args also see `pass` (0, 1, ...), and
// the buffers named in `swap` trade places between passes.
struct LaunchSpec {
    std::string entry;                  // kernel name as written in the source
    std::array<std::string, 3> grid{"1", "1", "1"};
    std::array<std::string, 3> block{"1", "1", "1"};
    std::string shared_bytes = "0";
    std::vector<Arg> args;
    std::string passes;                 // expression over params; "" = one pass, `pass` unknown
    std::vector<std::pair<std::string, std::string>> swap;  // buffer pairs exchanged after every pass but the last
    bool tuned = false;                 // the launch the student's block/grid/shared overrides change
    std::string json_path;              // "launches[0]"

    bool multi_pass() const { return !passes.empty(); }
};

// Passes of one launch are capped: a passes expression gone wrong must not
// queue millions of launches.
constexpr long long kMaxPasses = 4096;

struct ReferenceSpec {
    SourceText source;       // C++ for the host compiler
    std::string entry = "reference";
    std::vector<Arg> args;   // defaults to the first launch's args
    std::string json_path;
};

// The step's computation in NumPy, for the Python files `export` writes
// (export/python_export.hpp): code that sees each input buffer as a NumPy
// array of its shape and type (named as the buffer; a Python keyword such
// as `in` gets an underscore, `in_`), each param as a number, and `np`; it
// sets each compared output by name. Every kernel step of the shipped
// lessons has one, and tests/unit/python_reference_test.cpp runs each
// against the C++ reference on the same inputs; without one an export says
// that nothing was checked.
struct PythonSpec {
    SourceText reference;
    std::string json_path;  // "python" or "steps[1].python"
    bool present() const { return !reference.text.empty(); }
};

struct CompareSpec {
    std::string buffer;
    double atol = 0;                   // resolved; from atol_expr when that is set
    double rtol = 0;
    std::string atol_expr, rtol_expr;  // expressions over params ("1e-6 * N"), evaluated per case
    // A change between the two validation runs is a failure. Unset: true for
    // integer outputs, false for floats (atomics reorder float additions).
    std::optional<bool> deterministic;
    std::string json_path;
};

// Seconds a whole run (compile, reference, launches, timing) may take before
// it is stopped. Generous: a cold NVRTC compile of cub can take a few seconds.
constexpr double kDefaultRunTimeout = 30.0;

struct TestCase {
    std::string name;
    std::map<std::string, double> params;  // overrides of param defaults
    std::map<std::string, BufferInit> inputs;  // per-case init of input/inout buffers ("a constant image")
    bool timing = false;                   // the large case used for timing
    double timeout_s = 0;                  // > 0: this case's run deadline, over Checks::timeout_s
    std::optional<bool> memcheck;          // over Checks::memcheck
    std::optional<bool> racecheck;         // over Checks::racecheck
    // The block the step's tuned launch runs with in this case, instead of
    // the lesson's block expression ("block": [64]): a kernel that assumes
    // one block size fails the case. The grid and shared memory expressions
    // see it as block.x/y/z. A request's own block override still wins (the
    // student's experiment in the launch panel); Check all cases sends none.
    std::optional<std::array<long long, 3>> block;
    // false: too large for the CPU emulator in reasonable time; the CPU
    // backend's check leaves it out and says so (it still runs when asked for).
    bool emulate = true;
    // A grading case (grade/graded_lesson.hpp): a student's results.json shows
    // its name and score only.
    bool hidden = false;
    std::string json_path;
};

// A step's speed, relative to another step of the lesson: the run also times
// that step's solution on the same case, and this step's `measure` must be at
// most `at_most` times that one's (the streams lesson: at most 0.6 of the
// one-stream version's wall time, measured in one run). A host step compares
// with a host step; a kernel step with a kernel step, by their GPU times
// (measure Kernels, the only one a kernel step has). Judged on a GPU only.
enum class TargetMeasure { Wall, Copies, Kernels };
const char* target_measure_name(TargetMeasure m);  // "wall", "copies", "kernels"

struct TargetSpec {
    std::string step;                        // the other step's id
    double at_most = 1;
    TargetMeasure measure = TargetMeasure::Wall;
    int min_gpus = 1;                        // with fewer visible GPUs the target does not apply
    std::string json_path;                   // "steps[2].checks.target"
};

// One limit of `checks.access`: how often each thread (or each element of a
// global buffer) may read, write or atomically update memory, or how far from
// ideal the kernel's worst source line may be. Only the CPU emulator can judge
// them (it sees every access): a count over every thread of every launch of a
// case, a figure over the record's sampled blocks (emulate/access_record.hpp).
// On a GPU a case's limits are judged by an extra emulated run (run.cpp).
enum class AccessCount { GlobalReads, GlobalWrites, GlobalAtomics, SharedReads, SharedWrites, SharedAtomics };
const char* access_count_name(AccessCount c);  // "global_reads", ...
bool access_count_shared(AccessCount c);       // shared_reads, shared_writes, shared_atomics
enum class AccessFigure { SectorsPerRequest, BankConflictWays };
const char* access_figure_name(AccessFigure f);  // "sectors_per_request", "bank_conflict_ways"

// The most limits one step's checks.access holds (the emulator counts each thread's in a word).
constexpr std::size_t kMaxAccessLimits = 16;

struct AccessLimitSpec {
    bool is_figure = false;
    // A count: of `count`, per thread or per element of `buffer`. Per thread,
    // `buffer` (when set) keeps only that buffer's accesses.
    AccessCount count = AccessCount::GlobalReads;
    bool per_element = false;
    std::string buffer;
    // A figure: the worst source line's, of `op` ("load", "store", "atomic"; "" any).
    AccessFigure figure = AccessFigure::SectorsPerRequest;
    std::string op;
    // Bounds: a count's are expressions over params ("" = none), whole
    // numbers >= 0 for each case; `exactly` is at_most and at_least at once.
    // A figure has figure_at_most only.
    std::string at_most, at_least, exactly;
    double figure_at_most = 0;
    LocalizedText why;      // said after a broken limit's verdict
    std::string json_path;  // "steps[2].checks.access[1]"
};

struct Checks {
    std::vector<CompareSpec> compare;
    std::vector<TestCase> cases;
    int warmup = 2;
    int repeat = 10;
    double timeout_s = kDefaultRunTimeout;  // a run past this is stopped (the worker is replaced)
    // `check` also runs each case under compute-sanitizer memcheck and fails
    // it on any error (where the tool and a GPU exist). A case may say otherwise.
    bool memcheck = false;
    // The same with compute-sanitizer racecheck, which sees races on shared
    // memory (a missing __syncthreads(), a non-atomic shared update). The CPU
    // emulator cannot run it: there the run's message says it was not run.
    bool racecheck = false;
    std::string json_path;

    std::optional<TargetSpec> target;
    std::vector<AccessLimitSpec> access;  // checks.access, in the lesson's order

    bool requires_memcheck(const TestCase& c) const { return c.memcheck.value_or(memcheck); }
    bool requires_racecheck(const TestCase& c) const { return c.racecheck.value_or(racecheck); }
};

struct Metrics {
    std::string bytes;  // expression, may be empty
    std::string flops;  // expression, may be empty
};

// A vendor kernel timed beside the student's, on the same inputs:
//   cublas_sgemm    C = A B, row-major f32 (buffers a, b, c; sizes m, n, k)
//   memcpy          a device-to-device copy of buffer `from` into `to`
//   cub_reduce_sum  the sum of `n` f32 of buffer `in` into out[0], by
//                   cub::BlockReduce and one atomicAdd per block
// cublas_sgemm and cub_reduce_sum write the step's output buffer and are
// checked by the step's own compare rules; memcpy is right when `to` holds `from`.
enum class BaselineKind { CublasSgemm, Memcpy, CubReduceSum, CubScanSum };
const char* baseline_kind_name(BaselineKind k);  // "cublas_sgemm", "memcpy", "cub_reduce_sum"
const char* baseline_output_role(BaselineKind k);  // the role of the buffer it writes: "c", "to" or "out"

struct BaselineSpec {
    BaselineKind kind = BaselineKind::Memcpy;
    std::map<std::string, std::string> buffers;  // role → buffer name: a, b, c / from, to / in, out
    std::map<std::string, std::string> sizes;    // role → expression over params: m, n, k / n
    std::string json_path;
};

enum class ViewKind { Image, Matrix, Vector, Scalar };

struct View {
    std::string buffer;
    ViewKind kind = ViewKind::Vector;
    LocalizedText title;
    std::string json_path;
};

// The device heap a kernel's malloc and new take from (cudaLimitMallocHeapSize):
// CUDA's default, and the sizes a step's "limits.malloc_heap_bytes" may give.
// The most is kept at 1 GiB: on the CPU emulator the heap is reserved address
// space that counts against the worker's memory cap (sandbox/sandbox.hpp).
constexpr long long kDefaultMallocHeapBytes = 8ll << 20;
constexpr long long kMinMallocHeapBytes = 1ll << 20;
constexpr long long kMaxMallocHeapBytes = 1ll << 30;

// Per-context limits a step's launches run under, as cudaDeviceSetLimit sets
// them. Empty: CUDA's default. On a GPU the run sets the limit before the
// step's first launch (and puts the default back for a step that gives
// none); on the CPU emulator the run's device heap has that size.
struct LimitsSpec {
    std::string malloc_heap_bytes;  // expression over params; "" = kDefaultMallocHeapBytes
    std::string json_path;          // "steps[1].limits" or "limits"
};

struct CompileSpec {
    std::string std = "c++17";
    std::vector<std::string> options;  // extra NVRTC options, e.g. "--use_fast_math"
};

// A __constant__ variable of the kernel's source, filled from an input
// buffer before the launches (the convolution mask of the tutorials).
// A __constant__ variable is filled either from an input buffer's bytes or
// from a list of expressions over params, converted to `type`.
struct ConstantSpec {
    std::string name;                 // the __constant__ variable, at namespace scope
    std::string buffer;               // an input buffer: its bytes are copied in; or
    std::vector<std::string> values;  // expressions, one per element
    DType type = DType::F32;          // the element type of `values`
    std::string json_path;
};

// A host step: the student's file holds kernels and `extern "C" int
// run(wb_host_ctx*)` (host/include/wb_host.h), built by nvcc into a shared
// library that the worker loads and calls; run() makes its own allocations,
// copies and launches, so the step has no "launches".
struct HostSpec {
    std::vector<std::string> libraries;  // toolkit libraries to link: "cublas"
    // The buffers run() gets are page-locked (pinned) before it is called,
    // and the pinning is not part of its time: the streams lesson's copies
    // can overlap kernels only from pinned memory. Default: pageable, as
    // malloc'ed memory is (the memory lesson compares the two).
    bool pinned = false;
    std::string json_path;               // "steps[0].host"
};
const std::vector<std::string>& host_libraries_known();  // {"cublas", "curand", "cufft"}

// A step is one exercise. The loader has merged the lesson-level defaults
// into it, so every field here is complete.
struct Step {
    std::string id;
    LocalizedText title;
    LocalizedText instructions;  // Markdown
    SourceText starter;
    SourceText solution;
    std::vector<LocalizedText> hints;

    std::vector<Param> params;
    std::vector<Buffer> buffers;
    std::vector<LaunchSpec> launches;        // empty in a host step
    std::optional<HostSpec> host;            // set: a host step (see HostSpec)
    std::vector<ConstantSpec> constants;
    ReferenceSpec reference;
    PythonSpec python;
    Checks checks;
    Metrics metrics;
    std::optional<BaselineSpec> baseline;
    std::vector<View> views;
    CompileSpec compile;
    LimitsSpec limits;
    std::string json_path;  // "steps[1]"

    const Param* find_param(const std::string& name) const;
    const Buffer* find_buffer(const std::string& name) const;
    const TestCase* find_case(const std::string& name) const;
    // The launch marked "tuned", else the first: the one the launch panel and
    // --block/--grid/--shared change.
    std::size_t tuned_launch() const;
    bool is_host() const { return host.has_value(); }
};

struct Lesson {
    std::filesystem::path file;  // as opened
    std::filesystem::path dir;   // folder that file references are relative to
    // The JSON text this was loaded from. A run sends it to the worker, which
    // loads it instead of the file: the run uses the version the front end
    // shows, even while the file on disk is half-edited.
    std::string json_text;
    std::string schema;          // the "$schema" value
    int format = 1;
    std::string id;
    LocalizedText title;
    LocalizedText summary;
    std::vector<Step> steps;

    // Step by id, or by its 1-based number as the GUI shows it ("1" is the first step).
    const Step* find_step(const std::string& id_or_index) const;
};

}  // namespace wb
