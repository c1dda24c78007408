// runtime/export/python_export.cpp — a kernel step as a Python file (python_export.hpp).
//
// The file is written in four parts: what every home shares first (the
// header, imports, helpers, params and inputs), then the home's own compile,
// copies and launches, then the shared check. Every launch value is written
// as the lesson's expression in Python, so a student who changes N in the
// file gets the launch the lesson would make.
#include "export/python_export.hpp"

#include "compile/nvrtc.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/phrase.hpp"
#include "lesson/expr.hpp"
#include "lesson/resolve.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <set>
#include <sstream>

namespace wb {

namespace {

const std::set<std::string> kPythonKeywords = {
    "False", "None",   "True",    "and",      "as",       "assert", "async",  "await", "break",
    "class", "continue", "def",   "del",      "elif",     "else",   "except", "finally", "for",
    "from",  "global", "if",      "import",   "in",       "is",     "lambda", "nonlocal", "not",
    "or",    "pass",   "raise",   "return",   "try",      "while",  "with",   "yield"};

// Lesson functions (lesson/expr.hpp and muparser's) and their Python.
const std::map<std::string, std::string> kFunctions = {
    {"ceil_div", "ceil_div"}, {"floor", "math.floor"}, {"ceil", "math.ceil"}, {"round", "round_half_away"},
    {"pow2", "pow2"},         {"min", "min"},          {"max", "max"},        {"sqrt", "math.sqrt"},
    {"log2", "math.log2"},    {"log10", "math.log10"}, {"log", "math.log"},   {"ln", "math.log"},
    {"exp", "math.exp"},      {"abs", "abs"},          {"sin", "math.sin"},   {"cos", "math.cos"},
    {"tan", "math.tan"},      {"sign", "sign"},        {"rint", "round_half_away"}};

std::string np_dtype(DType t) {
    switch (t) {
    case DType::U8: return "np.uint8";
    case DType::I32: return "np.int32";
    case DType::U32: return "np.uint32";
    case DType::F32: return "np.float32";
    case DType::F64: return "np.float64";
    case DType::F16: return "np.float16";
    }
    return "np.float32";
}

std::string c_type(DType t) {
    switch (t) {
    case DType::U8: return "unsigned char";
    case DType::I32: return "int";
    case DType::U32: return "unsigned int";
    case DType::F32: return "float";
    case DType::F64: return "double";
    case DType::F16: return "__half";
    }
    return "float";
}

bool is_float(DType t) { return t == DType::F32 || t == DType::F64 || t == DType::F16; }

std::string num(double v) {
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
    // The shortest of %.15g, %.16g and %.17g that reads back as `v`: 1e-06, not 9.9999999999999995e-07.
    char buf[40];
    for (int digits = 15; digits <= 17; ++digits) {
        std::snprintf(buf, sizeof buf, "%.*g", digits, v);
        if (std::strtod(buf, nullptr) == v) break;
    }
    return buf;
}

// A Python string literal of `text`: a raw triple-quoted one when that can hold it, so the
// kernel reads as written; else an escaped one.
std::string py_literal(const std::string& text) {
    for (const char* q : {"'''", "\"\"\""}) {
        if (text.find(q) != std::string::npos || (!text.empty() && (text.back() == '\\' || text.back() == q[0])))
            continue;
        return std::string("r") + q + text + q;
    }
    std::string out = "\"";
    for (unsigned char c : text) {
        if (c == '\\' || c == '"') out += '\\', out += char(c);
        else if (c == '\n') out += "\\n";
        else if (c < 0x20) {
            char b[8];
            std::snprintf(b, sizeof b, "\\x%02x", c);
            out += b;
        } else out += char(c);
    }
    return out + "\"";
}

std::string quoted(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '\\' || c == '"') out += '\\';
        out += c;
    }
    return out + "\"";
}

std::string indent(const std::string& code, const std::string& pad) {
    std::string out;
    std::istringstream in(code);
    for (std::string line; std::getline(in, line);) out += (line.empty() ? "" : pad) + line + "\n";
    return out;
}

[[noreturn]] void refuse(Phrase why, const std::string& json_path = {}) {
    throw Error::said(ErrorKind::Usage, {std::move(why)}, {"", json_path});
}

// The standard headers the workbook gives NVRTC that `source` includes, and the ones they include.
std::vector<const NvrtcHeader*> headers_for(const std::string& source) {
    std::vector<const NvrtcHeader*> out;
    std::vector<std::string> todo = {source};
    while (!todo.empty()) {
        const std::string text = todo.back();
        todo.pop_back();
        std::istringstream in(text);
        for (std::string line; std::getline(in, line);) {
            const auto hash = line.find_first_not_of(" \t");
            if (hash == std::string::npos || line[hash] != '#') continue;
            const auto inc = line.find("include", hash);
            if (inc == std::string::npos) continue;
            const auto open = line.find_first_of("<\"", inc);
            if (open == std::string::npos) continue;
            const auto close = line.find_first_of(">\"", open + 1);
            if (close == std::string::npos) continue;
            const std::string name = line.substr(open + 1, close - open - 1);
            for (const NvrtcHeader& h : nvrtc_builtin_headers())
                if (name == h.name && std::find(out.begin(), out.end(), &h) == out.end()) {
                    out.push_back(&h);
                    todo.push_back(h.text);
                }
        }
    }
    return out;
}

struct Writer {
    const PythonExportRequest& q;
    const Lesson& lesson;
    const Step& step;
    const TestCase* tc;
    std::map<std::string, double> params;
    std::ostringstream py;

    explicit Writer(const PythonExportRequest& r)
        : q(r), lesson(*r.lesson), step(*r.step), tc(r.test_case), params(resolve_params(*r.step, r.test_case, r.params)) {}

    const Buffer* buffer(const std::string& name) const {
        for (const Buffer& b : step.buffers)
            if (b.name == name) return &b;
        return nullptr;
    }

    std::string expr(const std::string& e, const std::string& json_path) const {
        try {
            return python_expr(e);
        } catch (const Error& err) {
            refuse({"export.expression", {"'" + e + "'", err.message()}}, json_path);
        }
    }

    // ---- shared: header, imports, helpers, params, inputs ----

    void header(const std::string& versions, const std::string& run_with) {
        const std::string case_name = tc ? tc->name : "defaults";
        py << "#!/usr/bin/env python3\n"
           << "# " << lesson.title.get("en") << " (" << lesson.id << "), step " << step.id << ": "
           << step.title.get("en") << "\n"
           << "# Exported by CUDA Workbook (cuda-workbook-cli export) for " << python_home_name(q.home) << ", with the\n"
           << "# params of the case '" << case_name << "' and the kernel from " << q.source.origin << ".\n"
           << "# Written for " << versions << ": these APIs have changed between releases.\n"
           << "# Run: " << run_with << "\n"
           << "#\n"
           << "# The launches below compute block, grid and shared memory from the params with the\n"
           << "# lesson's own expressions: change a param and they follow. The inputs are made as\n"
           << "# the lesson makes them (same kinds and ranges; NumPy draws other random numbers).\n"
           << "# Outputs start as NaN (or the type's largest value), so an element the kernel never\n"
           << "# writes fails the check at the end, which compares with NumPy under the lesson's\n"
           << "# tolerance and prints \"passed\" or the first mismatch (exit status 1).\n";
    }

    void helpers() {
        py << R"PY(

def ceil_div(a, b):
    return -(-int(a) // int(b))


def pow2(x):
    return 2 ** int(x)


def round_half_away(x):
    return math.floor(x + 0.5) if x >= 0 else -math.floor(-x + 0.5)


def sign(x):
    return (x > 0) - (x < 0)


def whole(x, what):
    if x != int(x) or x < 0:
        sys.exit(f"{what} is {x}: it must be a whole number >= 0")
    return int(x)


def identity(shape, dtype):
    out = np.zeros(shape, dtype)
    for i in range(min(shape)):
        out[i, i] = 1
    return out


def load_image(path, shape, layout, channels, dtype):
    """The lesson's image as an array of `shape`, or uniform noise when it cannot be read here."""
    pixels = None
    try:
        import png  # pypng (Debian's python3-png)
        w, h, rows, _ = png.Reader(filename=path).asRGB8()
        pixels = np.vstack([np.asarray(r, np.uint8) for r in rows]).reshape(h, w, 3)
    except Exception:
        try:
            from PIL import Image
            pixels = np.asarray(Image.open(path).convert("RGB"), np.uint8)
        except Exception:
            pass
    if pixels is not None and channels == "Gray":
        pixels = np.rint(pixels @ np.array([0.299, 0.587, 0.114])).astype(np.uint8)
    if pixels is not None and channels == "RGB" and layout == "CHW":
        pixels = pixels.transpose(2, 0, 1)
    if pixels is None or pixels.size != math.prod(shape):
        print(f"note: {path} cannot be read as {shape} here (install python3-png): using noise instead")
        return np.random.default_rng(0).integers(0, 256, size=shape).astype(dtype)
    return pixels.reshape(shape).astype(dtype)


def poisoned(shape, dtype):
    """An output before the kernel runs: NaN, or the type's largest value."""
    if np.issubdtype(dtype, np.floating):
        return np.full(shape, np.nan, dtype)
    return np.full(shape, np.iinfo(dtype).max, dtype)
)PY";
    }

    void params_section() {
        py << "\n\n# The params (the case '" << (tc ? tc->name : "defaults") << "')\n";
        for (const Param& p : step.params) {
            const auto v = params.find(p.name);
            const double value = v == params.end() ? p.default_value : v->second;
            py << python_name(p.name) << " = " << (is_float(p.type) ? num(value) + (value == std::floor(value) ? ".0" : "") : num(value));
            const std::string d = p.description.get("en");
            if (!d.empty()) py << "  # " << d.substr(0, d.find('\n'));
            py << "\n";
        }
    }

    std::string shape_of(const Buffer& b) const {
        std::string s = "(";
        for (std::size_t i = 0; i < b.shape.size(); ++i)
            s += "whole(" + expr(b.shape[i], b.json_path + ".shape[" + std::to_string(i) + "]") + ", " +
                 quoted(b.name + "'s dimension " + std::to_string(i)) + "), ";
        if (b.shape.size() == 1) s = s.substr(0, s.size() - 1);
        else if (!b.shape.empty()) s = s.substr(0, s.size() - 2);
        return s + ")";
    }

    void inputs_section() {
        py << "\n# The buffers, on the host\n";
        for (const Buffer& b : step.buffers) {
            const std::string name = python_name(b.name), shape = shape_of(b), dt = np_dtype(b.type);
            BufferInit init = b.init;
            if (tc) {
                const auto o = tc->inputs.find(b.name);
                if (o != tc->inputs.end()) init = o->second;
            }
            if (b.role == BufferRole::Output) {
                if (b.fill) py << name << " = np.full(" << shape << ", " << num(*b.fill) << ", " << dt << ")  # the lesson fills it\n";
                else py << name << " = poisoned(" << shape << ", " << dt << ")\n";
                continue;
            }
            switch (init.kind) {
            case InitKind::Zero: py << name << " = np.zeros(" << shape << ", " << dt << ")\n"; break;
            case InitKind::Constant: py << name << " = np.full(" << shape << ", " << num(init.value) << ", " << dt << ")\n"; break;
            case InitKind::Ramp:
                py << name << " = (" << num(init.start) << " + " << num(init.step) << " * np.arange(math.prod(" << shape
                   << "))).reshape(" << shape << ").astype(" << dt << ")\n";
                break;
            case InitKind::Uniform:
                py << name << " = np.random.default_rng(" << init.seed << ").uniform(" << num(init.min) << ", " << num(init.max)
                   << ", size=" << shape << ")" << (is_float(b.type) ? "" : ".round()") << ".astype(" << dt << ")\n";
                break;
            case InitKind::Normal:
                py << name << " = np.random.default_rng(" << init.seed << ").normal(" << num(init.mean) << ", "
                   << num(init.stddev) << ", size=" << shape << ").astype(" << dt << ")\n";
                break;
            case InitKind::Identity: py << name << " = identity(" << shape << ", " << dt << ")\n"; break;
            case InitKind::Image:
                py << name << " = load_image(" << quoted(init.image.string()) << ", " << shape << ", "
                   << (init.layout == ImageLayout::CHW ? "\"CHW\"" : "\"HWC\"") << ", "
                   << (init.channels == ImageChannels::Gray ? "\"Gray\"" : "\"RGB\"") << ", " << dt << ")\n";
                break;
            }
        }
    }

    // ---- the launches, for every home: block, grid, shared memory, passes, args ----

    // The Python statements that set block_x.., grid_x.., shared for launch `k` (and pass_ when it has passes).
    std::string dims(std::size_t k, const std::string& pad) const {
        const LaunchSpec& l = step.launches[k];
        std::string out;
        const char* axis[3] = {"x", "y", "z"};
        const bool case_block = tc && tc->block && k == step.tuned_launch();
        for (int i = 0; i < 3; ++i) {
            const std::string e = case_block ? std::to_string((*tc->block)[i]) : expr(l.block[i], l.json_path + ".block");
            out += pad + "block_" + axis[i] + " = whole(" + e + ", \"block." + axis[i] + "\")" +
                   (case_block && i == 0 ? "  # the case's block" : "") + "\n";
        }
        for (int i = 0; i < 3; ++i)
            out += pad + "grid_" + axis[i] + " = whole(" + expr(l.grid[i], l.json_path + ".grid") + ", \"grid." + axis[i] + "\")\n";
        out += pad + "shared = whole(" + expr(l.shared_bytes, l.json_path + ".shared_bytes") + ", \"shared_bytes\")\n";
        return out;
    }

    // The value of a scalar argument, typed for the kernel.
    std::string scalar(const Arg& a) const {
        const std::string v = a.kind == Arg::Kind::Param ? python_name(a.name) : "(" + expr(a.name, a.json_path) + ")";
        return np_dtype(a.type) + "(" + v + ")";
    }

    // Writes the launches: for each, its dims, then `launch_line(k)` (the home's call),
    // inside a pass loop with the swaps when it has passes.
    template <class LaunchLine>
    void launches(const std::string& pad, LaunchLine launch_line) {
        for (std::size_t k = 0; k < step.launches.size(); ++k) {
            const LaunchSpec& l = step.launches[k];
            py << pad << "# launch " << k + 1 << ": " << l.entry << "\n";
            std::string inner = pad;
            if (l.multi_pass()) {
                py << pad << "passes = whole(" << expr(l.passes, l.json_path + ".passes") << ", \"passes\")\n"
                   << pad << "for pass_ in range(passes):\n";
                inner = pad + "    ";
            }
            py << dims(k, inner) << launch_line(k, inner);
            if (l.multi_pass() && !l.swap.empty()) {
                py << inner << "if pass_ < passes - 1:  # these buffers trade places between passes\n";
                for (const auto& [a, b] : l.swap)
                    py << inner << "    d_" << python_name(a) << ", d_" << python_name(b) << " = d_" << python_name(b)
                       << ", d_" << python_name(a) << "\n";
            }
        }
    }

    // ---- the check, for every home ----

    void check_section() {
        py << "\n\n# The check: the step's NumPy reference, under the lesson's tolerance\n";
        if (!step.python.present()) {
            py << "print(\"this step has no NumPy reference in its lesson, so nothing was checked\")\n";
            return;
        }
        py << "scope = {\"np\": np}\n";
        py << "scope.update({name: value for name, value in globals().items() if name in PARAMS})\n";
        for (const Buffer& b : step.buffers)
            if (b.role != BufferRole::Output)
                py << "scope[" << quoted(python_name(b.name)) << "] = " << python_name(b.name) << "_in\n";
        py << "exec(compile(NUMPY_REFERENCE, \"numpy reference\", \"exec\"), scope)\n";
        py << "failed = False\n";
        std::vector<CompareSpec> compare = step.checks.compare;
        for (const CompareSpec& c : compare) {
            const std::string n = python_name(c.buffer);
            const std::string atol = c.atol_expr.empty() ? num(c.atol) : expr(c.atol_expr, c.json_path);
            const std::string rtol = c.rtol_expr.empty() ? num(c.rtol) : expr(c.rtol_expr, c.json_path);
            py << "failed |= not check(" << quoted(c.buffer) << ", " << n << ", scope[" << quoted(n) << "], atol=" << atol
               << ", rtol=" << rtol << ")\n";
        }
        py << "sys.exit(1 if failed else 0)\n";
    }

    void check_helper() {
        py << R"PY(

def check(name, got, want, atol, rtol):
    """Prints whether `got` matches `want` within atol + rtol * |want|; the first mismatch when not."""
    g = np.asarray(got, np.float64).reshape(-1)
    w = np.asarray(want, np.float64).reshape(-1)
    if g.size != w.size:
        print(f"{name}: {g.size} elements, NumPy has {w.size}")
        return False
    bad = ~(np.abs(g - w) <= atol + rtol * np.abs(w)) | (np.isnan(g) != np.isnan(w))
    if not bad.any():
        print(f"{name}: passed ({w.size} elements within atol {atol:g} + rtol {rtol:g})")
        return True
    i = int(np.argmax(bad))
    at = np.unravel_index(i, np.shape(got))
    print(f"{name}: {int(bad.sum())} of {w.size} elements differ; the first at {tuple(int(x) for x in at)}: "
          f"kernel {g[i]!r}, NumPy {w[i]!r}")
    return False
)PY";
    }

    void common_tail_defs() {
        py << "\nKERNEL = " << py_literal(q.source.text) << "\n";
        py << "\nNUMPY_REFERENCE = " << py_literal(step.python.present() ? step.python.reference.text : "") << "\n";
        py << "PARAMS = {";
        for (const Param& p : step.params) py << quoted(python_name(p.name)) << ", ";
        py << "}\n";
    }

    // The inputs' values before the kernel runs (an inout buffer is changed by it).
    void keep_inputs() {
        for (const Buffer& b : step.buffers)
            if (b.role != BufferRole::Output) py << python_name(b.name) << "_in = " << python_name(b.name) << ".copy()\n";
    }

    std::vector<std::string> args_of(const LaunchSpec& l, const std::string& buffer_prefix,
                                      const std::function<std::string(const Arg&)>& scalar_of) const {
        std::vector<std::string> out;
        for (const Arg& a : l.args)
            out.push_back(a.kind == Arg::Kind::Buffer ? buffer_prefix + python_name(a.name) : scalar_of(a));
        return out;
    }

    static std::string join(const std::vector<std::string>& v, const std::string& sep = ", ") {
        std::string s;
        for (const auto& x : v) s += (s.empty() ? "" : sep) + x;
        return s;
    }

    std::string headers_literal(const std::string& source) const {
        std::string out = "{";
        for (const NvrtcHeader* h : headers_for(source)) out += "\n    " + quoted(h->name) + ": " + py_literal(h->text) + ",";
        return out + (out.size() > 1 ? "\n}" : "}");
    }

    std::vector<std::string> outputs() const {
        std::vector<std::string> out;
        for (const Buffer& b : step.buffers)
            if (b.role != BufferRole::Input) out.push_back(b.name);
        return out;
    }

    // ---- the homes ----

    void cupy() {
        header("CuPy 13 with NumPy 1.24 or later", "python3 this_file.py   (pip install cupy-cuda12x, or cupy-cuda13x)");
        py << "import math\nimport os\nimport sys\nimport tempfile\n\nimport numpy as np\nimport cupy as cp\n";
        helpers();
        check_helper();
        common_tail_defs();
        py << "HEADERS = " << headers_literal(q.source.text) << "  # what the workbook gives NVRTC beside CUDA's own\n";
        params_section();
        inputs_section();
        keep_inputs();
        py << "\n# Compile with NVRTC, as the workbook does\n"
           << "include_dir = tempfile.mkdtemp()\n"
           << "for name, text in HEADERS.items():\n"
           << "    with open(os.path.join(include_dir, name), \"w\") as f:\n"
           << "        f.write(text)\n"
           << "# A toolkit's headers after CuPy's own: CuPy 14's CUDA 13 wheel ships <mma.h> without the crt/mma.h it\n"
           << "# includes, so the first toolkit that has crt/mma.h (CuPy's, $CUDA_PATH, /usr/local/cuda) fills the gap\n"
           << "toolkit = ()\n"
           << "for root in (cp.cuda.get_cuda_path(), os.environ.get(\"CUDA_PATH\"), \"/usr/local/cuda\"):\n"
           << "    if root and os.path.isfile(os.path.join(root, \"include\", \"crt\", \"mma.h\")):\n"
           << "        toolkit = (\"-I\" + os.path.join(root, \"include\"),)\n"
           << "        break\n"
           << "module = cp.RawModule(code=KERNEL, options=(\"--std=" << step.compile.std << "\", \"-I\" + include_dir";
        for (const auto& o : step.compile.options) py << ", " << quoted(o);
        std::set<std::string> entries;
        for (const LaunchSpec& l : step.launches) entries.insert(quoted(l.entry));
        py << ") + toolkit, name_expressions=(" << join({entries.begin(), entries.end()}) << (entries.size() == 1 ? "," : "") << "))\n";
        for (const ConstantSpec& c : step.constants) {
            py << "constant = module.get_global(" << quoted(c.name) << ")  # __constant__ " << c.name << "\n";
            if (!c.buffer.empty()) py << "constant_src = np.ascontiguousarray(" << python_name(c.buffer) << ")\n";
            else {
                py << "constant_src = np.array([";
                for (std::size_t i = 0; i < c.values.size(); ++i)
                    py << (i ? ", " : "") << expr(c.values[i], c.json_path + ".values[" + std::to_string(i) + "]");
                py << "], " << np_dtype(c.type) << ")\n";
            }
            py << "cp.cuda.runtime.memcpy(constant.ptr, constant_src.ctypes.data, constant_src.nbytes, cp.cuda.runtime.memcpyHostToDevice)\n";
        }
        py << "\n# The buffers, on the GPU\n";
        for (const Buffer& b : step.buffers) py << "d_" << python_name(b.name) << " = cp.asarray(" << python_name(b.name) << ")\n";
        py << "\n";
        launches("", [&](std::size_t k, const std::string& pad) {
            const LaunchSpec& l = step.launches[k];
            return pad + "module.get_function(" + quoted(l.entry) + ")((grid_x, grid_y, grid_z), (block_x, block_y, block_z), (" +
                   join(args_of(l, "d_", [&](const Arg& a) { return scalar(a); })) + (l.args.size() == 1 ? "," : "") +
                   "), shared_mem=shared)\n";
        });
        py << "cp.cuda.Device().synchronize()\n";
        for (const std::string& o : outputs()) py << python_name(o) << " = cp.asnumpy(d_" << python_name(o) << ")\n";
        check_section();
    }

    void torch() {
        header("PyTorch 2.4 or later (torch.utils.cpp_extension.load_inline, which needs nvcc and ninja)",
               "python3 this_file.py   (the first run builds the extension, about a minute)");
        py << "import math\nimport sys\n\nimport numpy as np\nimport torch\nfrom torch.utils.cpp_extension import load_inline\n";
        helpers();
        check_helper();
        common_tail_defs();
        // One launcher per launch: dims, shared memory, then the kernel's arguments.
        std::string launchers = "\n#include <cuda_fp16.h>\n#include <c10/cuda/CUDAException.h>\n#include <c10/cuda/CUDAStream.h>\n#include <torch/extension.h>\n";
        std::string decls;
        for (std::size_t k = 0; k < step.launches.size(); ++k) {
            const LaunchSpec& l = step.launches[k];
            std::string params_list = "int64_t gx, int64_t gy, int64_t gz, int64_t bx, int64_t by, int64_t bz, int64_t shared";
            std::vector<std::string> call;
            for (std::size_t i = 0; i < l.args.size(); ++i) {
                const Arg& a = l.args[i];
                const std::string n = "a" + std::to_string(i);
                if (a.kind == Arg::Kind::Buffer) {
                    params_list += ", torch::Tensor " + n;
                    call.push_back("(" + c_type(a.type) + "*)" + n + ".data_ptr()");
                } else {
                    params_list += std::string(", ") + (is_float(a.type) ? "double " : "int64_t ") + n;
                    call.push_back("(" + c_type(a.type) + ")" + n);
                }
            }
            const std::string fn = "launch_" + std::to_string(k + 1);
            launchers += "\nvoid " + fn + "(" + params_list + ") {\n    " + l.entry +
                         "<<<dim3(gx, gy, gz), dim3(bx, by, bz), shared, c10::cuda::getCurrentCUDAStream()>>>(" + join(call) +
                         ");\n    C10_CUDA_KERNEL_LAUNCH_CHECK();\n}\n";
            decls += "void " + fn + "(" + params_list + ");\n";
        }
        for (const ConstantSpec& c : step.constants) {
            launchers += "\nvoid set_" + c.name + "(torch::Tensor t) {\n    C10_CUDA_CHECK(cudaMemcpyToSymbol(" + c.name +
                         ", t.data_ptr(), t.numel() * t.element_size()));\n}\n";
            decls += "void set_" + c.name + "(torch::Tensor t);\n";
        }
        std::vector<std::string> functions;
        for (std::size_t k = 0; k < step.launches.size(); ++k) functions.push_back(quoted("launch_" + std::to_string(k + 1)));
        for (const ConstantSpec& c : step.constants) functions.push_back(quoted("set_" + c.name));
        py << "LAUNCHERS = " << py_literal(launchers) << "\n";
        params_section();
        inputs_section();
        keep_inputs();
        py << "\n# Build the kernel and its launchers with nvcc\n"
           << "ext = load_inline(name=" << quoted("wb_" + lesson.id + "_" + step.id) << ", cpp_sources=" << py_literal(decls)
           << ", cuda_sources=KERNEL + LAUNCHERS,\n"
           << "                  functions=[" << join(functions) << "], extra_cuda_cflags=[\"-std=" << step.compile.std << "\"";
        for (const auto& o : step.compile.options) py << ", " << quoted(o);
        py << "], verbose=False)\n";
        py << "\n# The buffers, on the GPU\n";
        for (const Buffer& b : step.buffers)
            py << "d_" << python_name(b.name) << " = torch.from_numpy(" << python_name(b.name) << ").cuda()\n";
        for (const ConstantSpec& c : step.constants) {
            if (!c.buffer.empty()) py << "ext.set_" << c.name << "(d_" << python_name(c.buffer) << ")\n";
            else {
                py << "ext.set_" << c.name << "(torch.from_numpy(np.array([";
                for (std::size_t i = 0; i < c.values.size(); ++i)
                    py << (i ? ", " : "") << expr(c.values[i], c.json_path + ".values[" + std::to_string(i) + "]");
                py << "], " << np_dtype(c.type) << ")).cuda())\n";
            }
        }
        py << "\n";
        launches("", [&](std::size_t k, const std::string& pad) {
            const LaunchSpec& l = step.launches[k];
            return pad + "ext.launch_" + std::to_string(k + 1) + "(grid_x, grid_y, grid_z, block_x, block_y, block_z, shared, " +
                   join(args_of(l, "d_", [&](const Arg& a) {
                       return std::string(is_float(a.type) ? "float(" : "int(") +
                              (a.kind == Arg::Kind::Param ? python_name(a.name) : expr(a.name, a.json_path)) + ")";
                   })) +
                   ")\n";
        });
        py << "torch.cuda.synchronize()\n";
        for (const std::string& o : outputs()) py << python_name(o) << " = d_" << python_name(o) << ".cpu().numpy()\n";
        check_section();
    }

    void numba() {
        if (!step.constants.empty())
            refuse({"export.constants", {step.id, "Numba"}}, step.json_path + ".constants");
        header("numba-cuda 0.15 or later (cuda.jit's link= of CUDA C++ sources, compiled with NVRTC)",
               "python3 this_file.py   (pip install numba-cuda[cu12] cffi)");
        py << "import math\nimport os\nimport re\nimport sys\nimport tempfile\n\nimport cffi\nimport numpy as np\nfrom numba import cuda, types\n";
        helpers();
        check_helper();
        common_tail_defs();
        // Each kernel becomes a __device__ function; a shim with Numba's calling convention
        // (int f(int* return_value, args...)) calls it from every thread of the Numba kernel.
        std::string shims;
        std::set<std::string> done;
        for (const LaunchSpec& l : step.launches) {
            if (!done.insert(l.entry).second) continue;
            std::vector<std::string> decl, call;
            for (std::size_t i = 0; i < l.args.size(); ++i) {
                const Arg& a = l.args[i];
                decl.push_back(c_type(a.type) + (a.kind == Arg::Kind::Buffer ? "* a" : " a") + std::to_string(i));
                call.push_back("a" + std::to_string(i));
            }
            shims += "\nextern \"C\" __device__ int wb_" + l.entry + "(int* ret" + (decl.empty() ? "" : ", ") + join(decl) + ") {\n    " +
                     l.entry + "(" + join(call) + ");\n    *ret = 0;\n    return 0;\n}\n";
        }
        py << "SHIMS = " << py_literal(shims) << "\n";
        py << "HEADERS = " << headers_literal(q.source.text) << "\n";
        params_section();
        inputs_section();
        keep_inputs();
        py << R"PY(
# The kernels as __device__ functions (the headers the workbook gives NVRTC inlined), with the shims
source = re.sub(r"__launch_bounds__\s*\([^)]*\)", "", KERNEL).replace("__global__", "__device__")
for name, text in HEADERS.items():
    source = source.replace(f"#include <{name}>", text).replace(f'#include "{name}"', text)
cu_file = os.path.join(tempfile.mkdtemp(), "kernel.cu")
with open(cu_file, "w") as f:
    f.write(source + SHIMS)
ffi = cffi.FFI()
)PY";
        done.clear();
        for (const LaunchSpec& l : step.launches) {
            if (!done.insert(l.entry).second) continue;
            std::vector<std::string> sig, args, pars;
            for (std::size_t i = 0; i < l.args.size(); ++i) {
                const Arg& a = l.args[i];
                const std::string nb = a.type == DType::U8 ? "uint8" : a.type == DType::I32 ? "int32" : a.type == DType::U32 ? "uint32"
                                       : a.type == DType::F64 ? "float64" : a.type == DType::F16 ? "float16" : "float32";
                sig.push_back(a.kind == Arg::Kind::Buffer ? "types.CPointer(types." + nb + ")" : "types." + nb);
                pars.push_back("a" + std::to_string(i));
                args.push_back(a.kind == Arg::Kind::Buffer ? "ffi.from_buffer(a" + std::to_string(i) + ")" : "a" + std::to_string(i));
            }
            py << "wb_" << l.entry << " = cuda.declare_device(" << quoted("wb_" + l.entry) << ", types.int32(" << join(sig)
               << "))\n\n\n"
               << "@cuda.jit(link=[cu_file])\n"
               << "def " << l.entry << "_numba(" << join(pars) << "):\n"
               << "    wb_" << l.entry << "(" << join(args) << ")\n\n\n";
        }
        py << "# The buffers, on the GPU\n";
        for (const Buffer& b : step.buffers) py << "d_" << python_name(b.name) << " = cuda.to_device(" << python_name(b.name) << ".reshape(-1))\n";
        py << "\n";
        launches("", [&](std::size_t k, const std::string& pad) {
            const LaunchSpec& l = step.launches[k];
            return pad + l.entry + "_numba[(grid_x, grid_y, grid_z), (block_x, block_y, block_z), 0, shared](" +
                   join(args_of(l, "d_", [&](const Arg& a) { return scalar(a); })) + ")\n";
        });
        py << "cuda.synchronize()\n";
        for (const std::string& o : outputs())
            py << python_name(o) << " = d_" << python_name(o) << ".copy_to_host().reshape(" << python_name(o) << ".shape)\n";
        check_section();
    }

    void cuda_core() {
        if (!step.constants.empty())
            refuse({"export.constants", {step.id, "cuda.core"}}, step.json_path + ".constants");
        header("cuda-core 0.3 (cuda.core.experimental) with CuPy 13 for the arrays",
               "python3 this_file.py   (pip install cuda-core cupy-cuda12x)");
        py << "import math\nimport os\nimport sys\nimport tempfile\n\nimport numpy as np\nimport cupy as cp\n"
           << "from cuda.core.experimental import Device, LaunchConfig, Program, ProgramOptions, launch\n";
        helpers();
        check_helper();
        common_tail_defs();
        py << "HEADERS = " << headers_literal(q.source.text) << "  # what the workbook gives NVRTC beside CUDA's own\n";
        params_section();
        inputs_section();
        keep_inputs();
        std::set<std::string> entries;
        for (const LaunchSpec& l : step.launches) entries.insert(l.entry);
        std::vector<std::string> names;
        for (const auto& e : entries) names.push_back(quoted(e));
        py << "\n# Compile with NVRTC through cuda.core\n"
           << "dev = Device()\ndev.set_current()\nstream = dev.create_stream()\n"
           << "include_dir = tempfile.mkdtemp()\n"
           << "for name, text in HEADERS.items():\n"
           << "    with open(os.path.join(include_dir, name), \"w\") as f:\n"
           << "        f.write(text)\n"
           << "options = ProgramOptions(std=\"" << step.compile.std << "\", arch=f\"sm_{dev.arch}\", include_path=include_dir)\n"
           << "module = Program(KERNEL, code_type=\"c++\", options=options).compile(\"cubin\", name_expressions=(" << join(names)
           << (names.size() == 1 ? "," : "") << "))\n";
        py << "\n# The buffers, on the GPU\n";
        for (const Buffer& b : step.buffers) py << "d_" << python_name(b.name) << " = cp.asarray(" << python_name(b.name) << ")\n";
        py << "dev.sync()\n\n";
        launches("", [&](std::size_t k, const std::string& pad) {
            const LaunchSpec& l = step.launches[k];
            std::vector<std::string> args;
            for (const Arg& a : l.args)
                args.push_back(a.kind == Arg::Kind::Buffer ? "d_" + python_name(a.name) + ".data.ptr" : scalar(a));
            return pad + "launch(stream, LaunchConfig(grid=(grid_x, grid_y, grid_z), block=(block_x, block_y, block_z), shmem_size=shared), module.get_kernel(" +
                   quoted(l.entry) + ")" + (args.empty() ? "" : ", ") + join(args) + ")\n";
        });
        py << "stream.sync()\n";
        for (const std::string& o : outputs()) py << python_name(o) << " = cp.asnumpy(d_" << python_name(o) << ")\n";
        check_section();
    }
};

}  // namespace

const char* python_home_name(PythonHome home) {
    switch (home) {
    case PythonHome::CuPy: return "cupy";
    case PythonHome::Torch: return "torch";
    case PythonHome::Numba: return "numba";
    case PythonHome::CudaCore: return "cuda-core";
    }
    return "cupy";
}

PythonHome python_home_from_name(const std::string& name) {
    for (PythonHome h : python_homes())
        if (name == python_home_name(h)) return h;
    throw Error(ErrorKind::Usage, "unknown Python home '" + name + "'; expected cupy, torch, numba or cuda-core");
}

std::string python_name(const std::string& name) { return kPythonKeywords.count(name) ? name + "_" : name; }

namespace {

// muparser's `c ? a : b` (lowest precedence, right-associative) as Python's
// `(a if c else b)`: the first `?` outside parentheses splits the condition
// from the rest, and the `:` that matches it splits the two values.
std::string python_expr_part(const std::string& e);

std::string trimmed(const std::string& s) {
    const auto a = s.find_first_not_of(' '), b = s.find_last_not_of(' ');
    return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

std::string python_ternary(const std::string& e) {
    int depth = 0;
    for (std::size_t i = 0; i < e.size(); ++i) {
        if (e[i] == '(') ++depth;
        else if (e[i] == ')') --depth;
        else if (e[i] == '?' && depth == 0) {
            int open = 1, d = 0;
            for (std::size_t j = i + 1; j < e.size(); ++j) {
                if (e[j] == '(') ++d;
                else if (e[j] == ')') --d;
                else if (d == 0 && e[j] == '?') ++open;
                else if (d == 0 && e[j] == ':' && --open == 0)
                    return "(" + trimmed(python_ternary(e.substr(i + 1, j - i - 1))) + " if " +
                           trimmed(python_expr_part(e.substr(0, i))) + " else " + trimmed(python_ternary(e.substr(j + 1))) + ")";
            }
            throw Error(ErrorKind::Expression, "a ? without its :");
        }
    }
    return python_expr_part(e);
}

std::string python_expr_part(const std::string& e) {
    std::string out;
    for (std::size_t i = 0; i < e.size();) {
        const char c = e[i];
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            std::size_t j = i;
            while (j < e.size() && (std::isalnum(static_cast<unsigned char>(e[j])) || e[j] == '_' || e[j] == '.')) ++j;
            std::string name = e.substr(i, j - i);
            std::size_t k = j;
            while (k < e.size() && e[k] == ' ') ++k;
            if (k < e.size() && e[k] == '(') {
                const auto f = kFunctions.find(name);
                if (f == kFunctions.end()) throw Error(ErrorKind::Expression, "the function " + name + "() has no Python form here");
                out += f->second;
            } else if (name == "_pi") out += "math.pi";
            else if (name == "_e") out += "math.e";
            else {
                for (char& ch : name)
                    if (ch == '.') ch = '_';  // block.x is block_x
                out += name == "pass" ? "pass_" : python_name(name);
            }
            i = j;
        } else if (c == '^') out += "**", ++i;
        else if (c == '&' && i + 1 < e.size() && e[i + 1] == '&') out += " and ", i += 2;
        else if (c == '|' && i + 1 < e.size() && e[i + 1] == '|') out += " or ", i += 2;
        else if (c == '!' && (i + 1 >= e.size() || e[i + 1] != '=')) out += " not ", ++i;
        else if (c == '(') {  // a parenthesised part may hold its own ?:
            int depth = 1;
            std::size_t j = i + 1;
            for (; j < e.size() && depth > 0; ++j) depth += e[j] == '(' ? 1 : e[j] == ')' ? -1 : 0;
            out += "(" + python_ternary(e.substr(i + 1, j - i - 2)) + ")";
            i = j;
        } else if (c == '?' || c == ':') throw Error(ErrorKind::Expression, "a ?: in a place the export cannot read");
        else out += c, ++i;
    }
    return out;
}

}  // namespace

std::string python_expr(const std::string& e) {
    expr_names(e);  // throws for what does not parse, naming where
    return python_ternary(e);
}

PythonExport export_python(const PythonExportRequest& q) {
    if (!q.lesson || !q.step) throw Error(ErrorKind::Usage, "no lesson or step to export");
    if (q.step->is_host())
        refuse({"export.host_step", {q.step->id}}, q.step->json_path);
    Writer w(q);
    switch (q.home) {
    case PythonHome::CuPy: w.cupy(); break;
    case PythonHome::Torch: w.torch(); break;
    case PythonHome::Numba: w.numba(); break;
    case PythonHome::CudaCore: w.cuda_core(); break;
    }
    std::string home = python_home_name(q.home);
    std::replace(home.begin(), home.end(), '-', '_');
    return {w.py.str(), q.lesson->id + "_" + q.step->id + "_" + home + ".py"};
}

}  // namespace wb
