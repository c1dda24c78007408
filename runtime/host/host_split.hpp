// runtime/host/host_split.hpp — a host step's file split into its kernels and its host code.
//
// nvcc builds a host step as a whole program in about a second, most of it
// spent on cuda_runtime.h (its front end and the host compiler both parse it).
// Split, the kernels compile with NVRTC like a kernel step's (tens of ms), and
// the host code with the host compiler, cached on the host code alone, so an
// edit to a kernel rebuilds only the kernel, and an edit to run() skips nvcc.
//
// The split is made on the file's text, at namespace scope:
//   - kernels (__global__), __device__/__constant__ functions and variables,
//     and what they name (structs, typedefs, constants) go to the device part;
//   - the host part keeps everything but the device-only code; each kernel is
//     replaced by a host function of the same name and parameters that
//     launches the NVRTC kernel (cudaLaunchKernel with a cudaKernel_t from
//     cudaLibraryLoadData), and each `k<<<grid, block, shared, stream>>>(args)`
//     becomes `(wb_launch_config_(grid, block, shared, stream), k)(args)`, as
//     nvcc lowers it. Comments are blanked in the host part, so a change to a
//     comment does not rebuild it.
// Both parts keep the file's lines where they were, so every diagnostic names
// the student's line. What the split does not understand (templates of
// kernels, a namespace, a kernel named other than in a launch, a raw string)
// is not split: the file is built whole by nvcc, as before, and `why` says so.
#pragma once
#include <string>
#include <vector>

namespace wb {

struct HostSplit {
    bool ok = false;
    std::string why;                   // when !ok: what kept the file whole
    std::string device;                // NVRTC's source; empty when the file has no device code
    std::string host;                  // the host compiler's source, after host_split_prelude()
    std::vector<std::string> kernels;  // the kernels, in the host part's wb_kernels_ order
};

HostSplit split_host_step(const std::string& text);

// What the host part is compiled after (and after wb_host.h): the launchers'
// definitions (wb_host_split.h) for `kernels` kernels.
std::string host_split_prelude(std::size_t kernels);

}  // namespace wb
