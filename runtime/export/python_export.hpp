// runtime/export/python_export.hpp — a kernel step, written as a runnable
// Python file for the student's own home: CuPy, PyTorch, Numba or NVIDIA's
// cuda.core (`cuda-workbook-cli export`, docs/export.md).
//
// The file holds the student's kernel as written; the case's params as
// variables; the step's inputs made as the lesson makes them (the same kinds
// and ranges, drawn by NumPy, so not the same numbers); the step's launches
// with block, grid, shared memory and passes computed from the params by the
// lesson's own expressions, written in Python; and the check: the step's
// NumPy reference (lesson.hpp's PythonSpec) compared with the kernel's
// outputs under the lesson's tolerance, printing "passed" or the first
// mismatch (exit status 1). Outputs start as NaN (floats) or the type's
// largest value, so an element the kernel never writes fails the check.
//
// The homes:
//   cupy       cupy.RawModule, which compiles with NVRTC as the workbook does;
//              the standard headers the workbook gives NVRTC (<cmath>...) are
//              written beside it, so the same source compiles.
//   torch      torch.utils.cpp_extension.load_inline: nvcc builds the kernel
//              and a launcher per launch; tensors are passed by data_ptr.
//   numba      numba-cuda's link= of CUDA C++: each __global__ kernel becomes
//              a __device__ function behind an extern "C" shim that a
//              @cuda.jit kernel calls from every thread, with the same grid,
//              block and dynamic shared memory.
//   cuda-core  cuda.core's Program (NVRTC), LaunchConfig and launch, with
//              CuPy arrays for the buffers.
// Each file names the library versions it was written for.
//
// A host step (its run() is the host side already) cannot be exported; a
// step with __constant__ variables can be for cupy and torch only.
// Both are refused with wb::Error (Usage) whose said() is the catalogue's
// sentence ("export.*"), so the window says it in the student's language.
#pragma once

#include "lesson/lesson.hpp"

#include <map>
#include <string>
#include <vector>

namespace wb {

enum class PythonHome { CuPy, Torch, Numba, CudaCore };

// "cupy", "torch", "numba", "cuda-core"
const char* python_home_name(PythonHome home);
// Throws wb::Error (Usage) naming the homes for another name.
PythonHome python_home_from_name(const std::string& name);
inline const std::vector<PythonHome>& python_homes() {
    static const std::vector<PythonHome> all = {PythonHome::CuPy, PythonHome::Torch, PythonHome::Numba,
                                                PythonHome::CudaCore};
    return all;
}

struct PythonExportRequest {
    const Lesson* lesson = nullptr;
    const Step* step = nullptr;
    const TestCase* test_case = nullptr;      // its params, inputs and block; null: the defaults
    std::map<std::string, double> params;     // overrides, as a run's
    SourceText source;                        // the kernel: the student's, the starter or the solution
    PythonHome home = PythonHome::CuPy;
};

struct PythonExport {
    std::string text;       // the file
    std::string file_name;  // "vector_add_one_thread_per_element_cupy.py": lesson, step, home
};

// Throws wb::Error (Usage) for a host step, a home the step cannot go to, or
// a lesson expression the export cannot write in Python (with its JSON path).
PythonExport export_python(const PythonExportRequest& request);

// A buffer's or param's name as a Python variable: a keyword gets a trailing
// underscore (lesson 09's `in` is `in_`), as the NumPy reference sees it.
std::string python_name(const std::string& name);

// A lesson expression ("ceil_div(N, block.x)") in Python ("ceil_div(N, block_x)"),
// over the helpers every exported file defines. Throws wb::Error (Expression)
// for what it cannot write.
std::string python_expr(const std::string& expr);

}  // namespace wb
