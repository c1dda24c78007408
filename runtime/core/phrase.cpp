// runtime/core/phrase.cpp — the catalogue of what the runtime says, in English
// and Simplified Chinese.
//
// The Chinese is written for a student reading Chinese, with the course's
// terms: 线程, 线程块, 网格, 共享内存, 核函数, CPU 参考实现, 竞争. Identifiers
// (buffer names, __launch_bounds__, command-line options) stay as they are.
#include "core/phrase.hpp"

#include <algorithm>
#include <cstdlib>

namespace wb {

namespace {

struct Entry {
    std::string_view key, en, zh;
};

// Sorted by key (checked by phrase_keys' test): looked up by binary search.
constexpr Entry kCatalogue[] = {
    {"check.requires_memcheck", "the lesson requires a clean memory check: ", "课程要求内存检查不报任何错误："},
    {"check.requires_racecheck", "the lesson requires a clean race check: ", "课程要求竞争检查不报任何错误："},
    {"cli.emulator", "CPU emulator", "CPU 模拟器"},
    {"cli.no_device", "none: {0}", "无：{0}"},
    {"cli.no_gpu", " (no GPU: {0})", "（没有 GPU：{0}）"},
    {"compare.after_timing", "after timing: ", "计时之后："},
    {"compare.bytes_differ", "{0} holds {1} bytes, but its shape needs {2}", "{0}有 {1} 字节，但它的形状需要 {2} 字节"},
    {"compare.float_order",
     "{0} elements changed between the two validation runs, each within tolerance: float atomics add in a different order each run (a lesson can forbid this with \"deterministic\": true)",
     "{0} 个元素在两次验证运行之间变了，但都在容差之内：浮点原子操作每次运行的相加顺序不同（课程可以用 \"deterministic\": true 禁止这种情况）"},
    {"compare.float_order_one",
     "1 element changed between the two validation runs, within tolerance: float atomics add in a different order each run (a lesson can forbid this with \"deterministic\": true)",
     "1 个元素在两次验证运行之间变了，但在容差之内：浮点原子操作每次运行的相加顺序不同（课程可以用 \"deterministic\": true 禁止这种情况）"},
    {"compare.shape_differs", "{0} shape differs: got {1}, want {2}", "{0}的形状不同：得到 {1}，应为 {2}"},
    {"compare.type_differs", "{0} type differs: got {1}, want {2}", "{0}的类型不同：得到 {1}，应为 {2}"},
    {"compare.what.output", "output", "输出"},
    {"compare.what.reference", "reference output", "参考实现的输出"},
    {"compare.what.second", "second run's output", "第二次运行的输出"},
    {"cpu.from_cache", "; outputs and time kept from an earlier run on the same inputs", "；输出和时间沿用之前相同输入的一次运行"},
    {"cpu.method_cold", "one cold call, {0} thread(s), {1}", "单次冷调用，{0} 个线程，{1}"},
    {"cpu.method_warm", "median of {0} warm calls after a cold one, {1} thread(s), {2}", "冷调用之后 {0} 次热调用的中位数，{1} 个线程，{2}"},
    {"deadline.case", "case '{0}''s timeout_s in the lesson", "课程中用例 '{0}' 的 timeout_s"},
    {"deadline.default", "the default time limit", "默认的时间限制"},
    {"deadline.given", "the time limit given for this run (--timeout, or Time limit in the launch panel)",
     "这次运行给定的时间限制（--timeout，或启动配置面板中的“时间限制”）"},
    {"deadline.lesson", "the lesson's checks.timeout_s (a case may set its own)", "课程的 checks.timeout_s（用例可以设置自己的）"},
    {"detail", ": {0}", "：{0}"},
    {"device.none", "The CUDA driver found no GPU.",
     "CUDA 驱动没有找到 GPU。"},
    {"driver.disabled", "The CUDA driver is disabled (WB_DISABLE_CUDA_DRIVER is set).",
     "CUDA 驱动已被关闭（设置了 WB_DISABLE_CUDA_DRIVER）。"},
    {"driver.failed", "The CUDA driver failed to start ({0}).",
     "CUDA 驱动启动失败（{0}）。"},
    {"driver.no_gpu", "The CUDA driver is installed but found no GPU.",
     "已安装 CUDA 驱动，但没有找到 GPU。"},
    {"driver.not_found",
     "No CUDA driver was found (libcuda.so.1 is not on the loader's path, in WB_CUDA_DRIVER_DIR or in WSL2's "
     "/usr/lib/wsl/lib), so nothing runs on a GPU here.",
     "没有找到 CUDA 驱动（加载器的搜索路径、WB_CUDA_DRIVER_DIR 和 WSL2 的 /usr/lib/wsl/lib 中都没有 libcuda.so.1），"
     "所以这台电脑不能在 GPU 上运行。"},
    {"driver.too_old",
     "The CUDA driver is too old for this program (missing {0}): update the NVIDIA driver.",
     "CUDA 驱动版本太旧（缺少 {0}）：请更新 NVIDIA 驱动。"},
    {"emu.at", " at {0}", "，在 {0}"},
    {"emu.deadlock", "block ({0}, {1}, {2}) cannot go on: ", "线程块 ({0}, {1}, {2}) 无法继续："},
    {"emu.deadlock.warp",
     "{0} of its threads wait at a warp operation (a shuffle, vote or __syncwarp) whose lanes will not all arrive, while {1} wait at __syncthreads()",
     "其中 {0} 个线程在一个线程束操作（洗牌、投票或 __syncwarp）处等待，而它的线程束中的通道（lane）不会全部到达；另有 {1} 个线程在 __syncthreads() 处等待"},
    {"emu.divide_by_zero", "integer division by zero", "整数除以零"},
    {"emu.divide_by_zero.gpu", " (a GPU gives an undefined result here; the CPU stops)", "（GPU 在这里给出未定义的结果；CPU 会停下）"},
    {"emu.in_kernel", "in kernel '{0}', ", "在核函数 '{0}' 中，"},
    {"emu.read_before", "the kernel read outside buffer '{0}' ({1} elements): element [{2}], before its start",
     "核函数读取了缓冲区 '{0}'（{1} 个元素）之外的元素 [{2}]，在它的开头之前"},
    {"emu.read_nowhere", "the kernel read from an address that is no buffer's ({0})", "核函数从一个不属于任何缓冲区的地址（{0}）读取"},
    {"emu.read_past", "the kernel read outside buffer '{0}' ({1} elements): element [{2}], past its end",
     "核函数读取了缓冲区 '{0}'（{1} 个元素）之外的元素 [{2}]，越过了它的末尾"},
    {"emu.trap", "the kernel stopped itself: ", "核函数自己停止了："},
    {"emu.trap.assert", "assert({0}) failed", "assert({0}) 失败"},
    {"emu.trap.brkpt", "__brkpt() was called", "调用了 __brkpt()"},
    {"emu.trap.trap", "__trap() was called", "调用了 __trap()"},
    {"emu.undefined",
     "the kernel reached code whose behaviour is undefined, where the host compiler put a trap (a division by zero it could see, or a function that ends without returning its value)",
     "核函数执行到了行为未定义的代码，主机编译器在那里放了一个陷阱（例如它能看出的除以零，或没有返回值就结束的函数）"},
    {"emu.who", ", in block ({0}, {1}, {2}), thread ({3}, {4}, {5})", "，位于线程块 ({0}, {1}, {2}) 的线程 ({3}, {4}, {5})"},
    {"emu.wrote_before", "the kernel wrote outside buffer '{0}' ({1} elements): element [{2}], before its start",
     "核函数写到了缓冲区 '{0}'（{1} 个元素）之外的元素 [{2}]，在它的开头之前"},
    {"emu.wrote_nowhere", "the kernel wrote to an address that is no buffer's ({0})", "核函数写入了一个不属于任何缓冲区的地址（{0}）"},
    {"emu.wrote_past", "the kernel wrote outside buffer '{0}' ({1} elements): element [{2}], past its end",
     "核函数写到了缓冲区 '{0}'（{1} 个元素）之外的元素 [{2}]，越过了它的末尾"},
    {"hint.changed_while_timed", "A kernel must compute its result every time it runs. Look for state kept between launches (a __device__ flag, a counter, a cached answer) or code that behaves differently when run many times.", "kernel 每次运行都必须重新算出结果。检查是否有在多次启动之间保留的状态（__device__ 标志、计数器、缓存的答案），或多次运行时行为不同的代码。"},
    {"hint.context_lost", "restart the program, or run through the worker process, which is replaced after a fault",
     "重新启动程序，或者通过工作进程运行：出错后它会被自动替换"},
    {"hint.deadline", "the deadline is {0}", "时限来自{0}"},
    {"hint.deadlock",
     "every thread of a block must reach the same __syncthreads(), and every lane a warp operation names must reach it: one inside an if that only some threads take never completes",
     "一个线程块的每个线程都必须到达同一个 __syncthreads()，线程束操作点名的每个线程束中的通道（lane）也都必须到达它：放在只有部分线程进入的条件分支里的同步永远完成不了"},
    {"hint.divide_by_zero", "a divisor on the marked line is zero for some thread: check the values it can take", "标出的那一行里，有线程的除数是零：检查除数可能取哪些值"},
    {"hint.emulator_refused", "run this step on a computer with an NVIDIA GPU",
     "请在装有 NVIDIA GPU 的计算机上运行这一步"},
    {"hint.endless",
     "the kernel did not finish: look for a loop whose condition never becomes false, or a __syncthreads() that "
     "not every thread reaches",
     "核函数没有结束：找一找条件永远不会变为假的循环，或者不是所有线程都能到达的 __syncthreads()"},
    {"hint.host_crashed", "run() crashed the worker: often a device pointer read or written on the host (it holds a GPU address), or a host buffer indexed past its end; the next run starts a fresh worker",
     "run() 让工作进程崩溃了：常见原因是在主机上读写设备指针（它存的是 GPU 地址），或者主机缓冲区的下标越界；下一次运行会换一个新的工作进程"},
    {"hint.host_endless", "run() did not return: a kernel that never ends, or a wait (cudaStreamSynchronize, cudaEventSynchronize) on work that never finishes",
     "run() 没有返回：可能是核函数永不结束，或者在等待（cudaStreamSynchronize、cudaEventSynchronize）永远完成不了的工作"},
    {"hint.host_failed", "WB_CHECK records the failing call and its line; look there first, then at the sizes you passed it",
     "WB_CHECK 会记下失败的调用和行号；先看那一行，再看传给它的大小"},
    {"hint.host_leaked", "every cudaMalloc needs a cudaFree, cudaMallocHost a cudaFreeHost, cudaStreamCreate a cudaStreamDestroy and cublasCreate a cublasDestroy before run() returns",
     "run() 返回前，每个 cudaMalloc 都要有 cudaFree，cudaMallocHost 要有 cudaFreeHost，cudaStreamCreate 要有 cudaStreamDestroy，cublasCreate 要有 cublasDestroy"},
    {"hint.host_sticky", "look for an index past a buffer's end, or a device pointer used on the host or a host pointer on the device; the next run starts a fresh worker",
     "检查是否有下标越过缓冲区末尾，或者在主机上使用了设备指针、在设备上使用了主机指针；下一次运行会换一个新的工作进程"},
    {"hint.host_synchronize", "asynchronous copies and launches return at once; wait for them with cudaStreamSynchronize or cudaDeviceSynchronize before returning",
     "异步拷贝和核函数启动会立即返回；返回之前用 cudaStreamSynchronize 或 cudaDeviceSynchronize 等它们完成"},
    {"hint.host_unchecked", "wrap every CUDA call in WB_CHECK, and after a launch check cudaGetLastError(): a bad launch configuration fails only there",
     "用 WB_CHECK 包住每个 CUDA 调用，核函数启动之后检查 cudaGetLastError()：错误的启动配置只会在那里报告"},
    {"hint.memcheck",
     "an access outside its buffer: check the bounds test (i < n, not i <= n) and the index arithmetic",
     "有访问越出了缓冲区：检查边界判断（是 i < n，不是 i <= n）和下标计算"},
    {"hint.mismatch", "the kernel ran but its output is wrong; the first mismatches are listed with their indices",
     "核函数运行了，但输出不对；下面列出了最先出错的元素和它们的下标"},
    {"hint.out_of_bounds",
     "a thread wrote where no element is: a missing or wrong bounds test (if (i < n)), or index arithmetic that "
     "overshoots; Check memory shows the line",
     "有线程写到了没有元素的地方：缺少边界判断或判断写错了（if (i < n)），或者下标计算越界；“检查内存”会指出是哪一行"},
    {"hint.out_of_bounds_access",
     "a thread touched memory where no element is: a missing or wrong bounds test (if (i < n)), or index arithmetic "
     "that overshoots; the line is named above",
     "有线程访问了没有元素的地方：缺少边界判断或判断写错了（if (i < n)），或者下标计算越界；上面已指出是哪一行"},
    {"hint.racecheck",
     "threads of a block read and write the same shared memory without a __syncthreads() between them",
     "同一个线程块的线程读写同一块共享内存，中间却没有 __syncthreads()"},
    {"hint.reference_unwritten",
     "this is the lesson's error, not the student's: the reference must write every element of each output it is compared on",
     "这是课程的错误，不是学生的：参考实现必须写出每个参与比较的输出的全部元素"},
    {"hint.refused.arguments",
     "the kernel's parameters must be the ones the lesson passes, in order: compare your __global__ line with the "
     "starter's",
     "核函数的参数必须和课程传入的一致，顺序也要相同：把你的 __global__ 那一行和初始代码对照一下"},
    {"hint.refused.constants",
     "declare the constant at file scope with the name and size the lesson fills, e.g. __constant__ float mask[9];",
     "在文件作用域声明常量，名字和大小要和课程填入的一致，例如 __constant__ float mask[9];"},
    {"hint.refused.dims", "change the block or grid size (launch panel, or --block/--grid on the command line)",
     "修改线程块或网格的大小（在启动面板里，或用命令行的 --block/--grid）"},
    {"hint.refused.registers",
     "use a smaller block, or cap the kernel's registers with __launch_bounds__(threads per block)",
     "用小一些的线程块，或者用 __launch_bounds__(每块线程数) 限制核函数的寄存器用量"},
    {"hint.refused.shared",
     "use less shared memory per block: smaller tiles, or less dynamic shared memory (the launch panel's Shared "
     "memory, or --shared on the command line)",
     "让每个线程块少用一些共享内存：用更小的分块，或减少动态共享内存（启动面板的“共享内存”，或命令行的 --shared）"},
    {"hint.sanitizer_slow", "kernels run 10-100x slower under compute-sanitizer: try a smaller case",
     "在 compute-sanitizer 下核函数会慢 10 到 100 倍：换一个小一些的用例试试"},
    {"hint.trap", "a thread called __trap() or failed an assert(): the condition it checked did not hold; the line is marked in the editor",
     "有线程调用了 __trap() 或者 assert() 失败了：它检查的条件不成立；编辑器里标出了那一行"},
    {"hint.undefined",
     "look at the marked line for a division whose divisor can be zero, or a function that can end without returning a value",
     "在标出的那一行找一找：除数可能为零的除法，或者可能没有返回值就结束的函数"},
    {"hint.worker_corrupt", "this is a bug in CUDA Workbook; the worker was replaced, so running again may work",
     "这是 CUDA Workbook 的缺陷；工作进程已被替换，再运行一次也许就好了"},
    {"hint.worker_killed",
     "something outside CUDA Workbook ended it, often the out-of-memory killer when memory runs short; the worker "
     "was replaced, so run again",
     "是 CUDA Workbook 之外的东西结束了它，常见的是内存不足时系统的 OOM killer；工作进程已被替换，请再运行一次"},
    {"host.failed", "run() returned {0}: {1}",
     "run() 返回了 {0}：{1}"},
    {"host.failed_silently", "run() returned {0} without saying why",
     "run() 返回了 {0}，但没有说明原因"},
    {"host.leaked", "run() returned with {0} still allocated ({1})",
     "run() 返回时仍有 {0} 内存没有释放（{1}）"},
    {"host.no_emulator", "The CPU emulator runs kernels, not a host step's run(): this step's copies, streams and libraries need a GPU. Its CPU reference ran; its file compiled.",
     "CPU 模拟器只运行核函数，不运行主机代码步骤的 run()：这一步的拷贝、流和库调用需要 GPU。它的 CPU 参考实现已运行，文件已编译。"},
    {"host.ran_past_return", "run() returned while the GPU was still working: the {0} ended {1} µs after it returned",
     "run() 返回时 GPU 还在工作：{0} 在它返回 {1} 微秒之后才结束"},
    {"host.sticky_error", "a kernel or copy that run() started faulted: {0}. The GPU context is lost; the next run starts a fresh worker",
     "run() 启动的核函数或拷贝出错：{0}。GPU 上下文已失效；下一次运行会换一个新的工作进程"},
    {"host.timed", "; run() takes {0} ms",
     "；run() 耗时 {0} 毫秒"},
    {"host.unchecked_error", "a CUDA call in run() failed and nothing checked it: {0}",
     "run() 中有一个 CUDA 调用失败了，但没有被检查：{0}"},
    {"limits.target_arch", "for sm_{0}, the target architecture (no GPU here)", "（目标架构 sm_{0} 的限制；这里没有 GPU）"},
    {"limits.this_gpu", "on this GPU", "（这块 GPU 的限制）"},
    {"paren", " ({0})", "（{0}）"},
    {"paren.close", ")", "）"},
    {"paren.open", " (", "（"},
    {"phase.baseline", "while timing the baseline", "为基准计时时"},
    {"phase.ceilings", "while measuring the GPU's ceilings", "测量 GPU 的上限时"},
    {"phase.compile", "while compiling the kernel", "编译核函数时"},
    {"phase.emulate", "while running the kernel on the CPU emulator", "用 CPU 模拟器运行核函数时"},
    {"phase.gpu", "while running the kernel", "运行核函数时"},
    {"phase.host", "while run() was running", "运行 run() 时"},
    {"phase.reference", "while building or running the CPU reference", "构建或运行 CPU 参考实现时"},
    {"phase.running", "while running", "运行时"},
    {"phase.start", "while starting", "启动时"},
    {"phase.timing", "while timing the kernel", "为核函数计时时"},
    {"race.needs_gpu",
     "; this case also requires a clean race check (compute-sanitizer racecheck), which needs a GPU: it was not run "
     "here, so a race is not ruled out",
     "；这个用例还要求竞争检查（compute-sanitizer racecheck）不报任何错误，但它需要 GPU：这里没有运行，所以不能排除竞争"},
    {"reason.infinite", "infinity", "无穷大"},
    {"reason.nan", "NaN", "NaN（非数）"},
    {"reason.nondeterministic", "differs between runs", "两次运行结果不同"},
    {"reason.tolerance", "outside tolerance", "超出容差"},
    {"reason.unwritten", "never written", "从未写入"},
    {"reference.unwritten",
     "the CPU reference {0}() in {1} left {3} of {4} elements of output '{2}' unwritten (the first at [{5}]); the lesson's {6} must write them all",
     "CPU 参考实现 {0}()（{1}）没有写出输出 '{2}' 的 {4} 个元素中的 {3} 个（第一个在 [{5}]）；课程的 {6} 必须把它们全部写出"},
    {"refuse.arg_count", "kernel '{0}' takes {1} parameters, but the lesson passes {2} ({3})",
     "核函数 '{0}' 有 {1} 个参数，但课程传入了 {2} 个（{3}）"},
    {"refuse.arg_count_one", "kernel '{0}' takes 1 parameter, but the lesson passes {2} ({3})",
     "核函数 '{0}' 有 1 个参数，但课程传入了 {2} 个（{3}）"},
    {"refuse.arg_size", "kernel '{0}' parameter {1} is {2} bytes, but the lesson passes '{3}' there, which is {4} bytes",
     "核函数 '{0}' 的第 {1} 个参数是 {2} 字节，但课程在那里传入的 '{3}' 是 {4} 字节"},
    {"refuse.block_axis", "{0} is {1}, over the limit of {2} threads in that dimension {3}",
     "{0} 是 {1}，超过了这一维 {2} 个线程的上限{3}"},
    {"refuse.block_min", "{0} is {1}; every block dimension must be at least 1", "{0} 是 {1}；线程块的每一维至少是 1"},
    {"refuse.constant_size", "__constant__ '{0}' is {1} bytes, but the lesson fills it from {2} of {3} bytes",
     "__constant__ '{0}' 是 {1} 字节，但课程用 {3} 字节的{2}填充它"},
    {"refuse.from_buffer", "buffer '{0}'", "缓冲区 '{0}'"},
    {"refuse.from_values", "{0} values", "{0} 个值"},
    {"refuse.grid_axis", "{0} is {1}, over the limit of {2} blocks in that dimension {3}",
     "{0} 是 {1}，超过了这一维 {2} 个线程块的上限{3}"},
    {"refuse.grid_min", "{0} is {1}; every grid dimension must be at least 1", "{0} 是 {1}；网格的每一维至少是 1"},
    {"refuse.kernel_threads", "this kernel can run at most {0} threads per block (its register use limits it), and the block has {1}",
     "这个核函数每个线程块最多只能运行 {0} 个线程（受它的寄存器用量限制），而这个线程块有 {1} 个"},
    {"refuse.no_constant", "the kernel declares no __constant__ '{0}', which the lesson fills from {1}",
     "核函数没有声明 __constant__ '{0}'，而课程要用{1}填充它"},
    {"refuse.pass", " (pass {0})", "（第 {0} 遍）"},
    {"refuse.registers", "each thread uses {0} registers, so a block of {1} threads needs {2}, over the {3} registers a block may use {4}",
     "每个线程用 {0} 个寄存器，所以 {1} 个线程的线程块需要 {2} 个，超过了一个线程块可用的 {3} 个寄存器{4}"},
    {"refuse.shared", "the block asks for {0} of shared memory ({1} static + {2} dynamic); a block may have at most {3} {4}",
     "线程块要用 {0} 共享内存（静态 {1} + 动态 {2}）；一个线程块最多只能有 {3}{4}"},
    {"refuse.shared_negative", "dynamic shared memory cannot be negative", "动态共享内存不能是负数"},
    {"refuse.sizes_min", "every block and grid size must be at least 1", "线程块和网格的每一维都至少是 1"},
    {"refuse.threads", "a block of {0} x {1} x {2} has {3} threads; a block may have at most {4} threads {5}",
     "{0} × {1} × {2} 的线程块有 {3} 个线程；一个线程块最多只能有 {4} 个线程{5}"},
    {"run.and", "; and ", "；另外，"},
    {"run.changed_while_timed", "its result changed while it was timed: '{0}' differs from the reference in {1} of {2} elements after the timed runs, though it matched before", "计时过程中结果变了：计时运行之后，'{0}' 的 {2} 个元素中有 {1} 个与参考结果不同，而计时之前是一致的"},
    {"run.compile_error_one", "1 error in {0}", "{0} 中有 1 个错误"},
    {"run.compile_errors", "{0} errors in {1}", "{1} 中有 {0} 个错误"},
    {"run.compile_only_asked", "compiled and checked; not run (compile-only was asked for)",
     "已编译并检查；按要求只编译，没有运行"},
    {"run.compile_only_no_gpu", "compiled and checked; nothing ran on a GPU (see the device line)",
     "已编译并检查；没有在 GPU 上运行（见设备一栏）"},
    {"run.compile_only_typing",
     "compiled and checked the launch limits; the CPU reference is built and run when you run",
     "已编译并检查了启动限制；点“运行”时才会构建并运行 CPU 参考实现"},
    {"run.context_lost",
     "the GPU context was lost after an earlier kernel fault, so nothing more can run in this process",
     "之前的核函数故障使 GPU 上下文失效，这个进程里不能再运行任何东西"},
    {"run.emulated",
     "; ran on the CPU emulator, whose time ({0} ms for the launches) says nothing about a GPU's",
     "；在 CPU 模拟器上运行，其用时（启动共 {0} ms）与 GPU 的速度无关"},
    {"run.emulator_compile_error", "the host compiler could not build the kernel for the CPU emulator: {0}",
     "主机编译器无法为 CPU 模拟器构建这个核函数：{0}"},
    {"run.emulator_refused", "the CPU emulator cannot run this step: {0}", "CPU 模拟器无法运行这一步：{0}"},
    {"run.mismatch", "output '{0}': {1} of {2} elements differ from the CPU reference",
     "输出 '{0}'：{2} 个元素中有 {1} 个和 CPU 参考实现的结果不同"},
    {"run.mismatch.must_be_same",
     " ({0} changed between two runs, and this output must be the same every time: a race?)",
     "（两次运行之间有 {0} 个变了，而这个输出每次都应该一样：是竞争吗？）"},
    {"run.mismatch.race_likely", " ({0} of the wrong elements changed between two runs: a race is the likely cause)",
     "（出错的元素里有 {0} 个在两次运行之间变了：很可能是竞争）"},
    {"run.mismatch.unwritten", " ({0} never written)", "（其中 {0} 个从未写入）"},
    {"run.on_emulator", "on the CPU emulator, ", "在 CPU 模拟器上，"},
    {"run.out_of_bounds_after",
     "the kernel wrote outside buffer '{0}' ({1} elements): first at element [{2}], past its end",
     "核函数写到了缓冲区 '{0}'（{1} 个元素）之外：第一处在元素 [{2}]，越过了末尾"},
    {"run.out_of_bounds_before",
     "the kernel wrote outside buffer '{0}' ({1} elements): first at element [{2}], before its start",
     "核函数写到了缓冲区 '{0}'（{1} 个元素）之外：第一处在元素 [{2}]，在开头之前"},
    {"run.passed", "all {0} compared outputs match the CPU reference", "比较的 {0} 个输出全部和 CPU 参考实现一致"},
    {"run.passed_one", "all 1 compared output match the CPU reference", "比较的 1 个输出和 CPU 参考实现一致"},
    {"run.reference_no_compile", "the CPU reference did not compile", "CPU 参考实现没有编译通过"},
    {"run.refused", "launch of '{0}' refused: ", "'{0}' 的启动被拒绝："},
    {"sanitizer.clean", "; {0} found no errors", "；{0} 没有发现错误"},
    {"sanitizer.first", ", first: {0}", "，第一个：{0}"},
    {"sanitizer.found", "{0} found {1} errors", "{0} 发现了 {1} 个错误"},
    {"sanitizer.found_one", "{0} found 1 error", "{0} 发现了 1 个错误"},
    {"sanitizer.needs_gpu", "{0} needs a GPU, so nothing ran under it; ", "{0} 需要 GPU，所以没有在它下面运行任何东西；"},
    {"sanitizer.run_itself", " (the run itself: {0}: ", "（运行本身：{0}："},
    {"sanitizer.run_itself_end", ")", "）"},
    {"signal.11", "signal 11 (Segmentation fault)", "信号 11（段错误）"},
    {"signal.15", "signal 15 (Terminated)", "信号 15（被终止）"},
    {"signal.4", "signal 4 (Illegal instruction)", "信号 4（非法指令）"},
    {"signal.6", "signal 6 (Aborted)", "信号 6（中止）"},
    {"signal.7", "signal 7 (Bus error)", "信号 7（总线错误）"},
    {"signal.8", "signal 8 (Floating point exception)", "信号 8（算术异常）"},
    {"signal.9", "signal 9 (Killed)", "信号 9（被强制结束）"},
    {"signal.other", "signal {0}", "信号 {0}"},
    {"status.compile-error", "compile-error", "编译错误"},
    {"status.compile-only", "compile-only", "仅编译"},
    {"status.crashed", "crashed", "崩溃"},
    {"status.cuda-error", "cuda-error", "CUDA 错误"},
    {"status.host-error", "host-error", "主机代码出错"},
    {"status.input-error", "input-error", "输入错误"},
    {"status.mismatch", "mismatch", "结果不符"},
    {"status.passed", "passed", "通过"},
    {"status.reference-error", "reference-error", "参考实现错误"},
    {"status.refused", "refused", "拒绝启动"},
    {"status.sanitizer-errors", "sanitizer-errors", "内存检查出错"},
    {"status.stopped", "stopped", "已停止"},
    {"status.timed-out", "timed-out", "超时"},
    {"target.fewer_gpus", "this machine has {0} GPU(s); the target needs {1}",
     "这台机器有 {0} 块 GPU；这个目标需要 {1} 块"},
    {"target.needs_gpu", "the speed target needs a GPU; here the step is judged on its cases alone",
     "速度目标需要 GPU；这里只按用例评判这一步"},
    {"target.other_failed", "the solution of step '{0}' did not run here ({1})",
     "步骤 '{0}' 的参考解法在这里没能运行（{1}）"},
    {"timing.batched", ", each a CUDA Graph replay of {0} launches, divided by {0}",
     "，每个样本是一次 CUDA Graph 重放 {0} 次启动的时间除以 {0}"},
    {"timing.busy", "; {0} other process(es) were busy on the GPU: these times may be slower than its best", "；有 {0} 个其他进程正在使用这块 GPU：这些时间可能比它的最佳水平慢"},
    {"timing.clock", ", SM clock {0} of {1} MHz", "，SM 时钟 {0}/{1} MHz"},
    {"timing.cold_l2", ", L2 flushed before each", "，每次之前清空 L2"},
    {"timing.flushed_batch",
     ", each a CUDA Graph replay of {0} launches with L2 flushed before each, less a replay of the {0} flushes alone, divided by {0}",
     "，每个样本是一次 CUDA Graph 重放 {0} 次启动（每次之前清空 L2）的时间，减去只重放这 {0} 次清空的时间，再除以 {0}"},
    {"timing.not_batched",
     "; under 10 us, but not batched: its inputs are restored before every launch, so event timing's 1-2 us show",
     "；短于 10 微秒，但没有批量计时：每次启动前都要恢复输入，所以事件计时的 1-2 微秒误差会显现"},
    {"timing.samples", "{0} samples, spread {1}% (stopped at {2})", "{0} 个样本，离散度 {1}%（停在{2}）"},
    {"timing.slow.hw_slowdown", "hardware slowdown", "硬件降频"},
    {"timing.slow.hw_thermal", "thermal, hardware", "硬件过热保护"},
    {"timing.slow.power_brake", "power brake", "功率制动"},
    {"timing.slow.power_cap", "power cap", "功耗上限"},
    {"timing.slow.sw_thermal", "thermal, software", "软件过热保护"},
    {"timing.stop.budget", "the time budget", "时间预算用完时"},
    {"timing.stop.noise", "the median known to 0.5%", "中位数精确到 0.5% 时"},
    {"timing.stop.samples", "the sample cap", "样本数上限时"},
    {"timing.throttled", "; the GPU was slowed ({0}", "；GPU 被降频了（{0}"},
    {"timing.throttled.end", "): these times are slower than its best", "）：这些时间比它的最佳水平慢"},
    {"timing.throttled.more", "; {0}", "；{0}"},
    {"timing.throttled_before", "; the GPU was still slowed when timing began", "；开始计时时 GPU 仍在降频"},
    {"timing.traced", ", each the kernels' own time on the GPU (CUPTI's records) after L2 was flushed clean", "，每个样本是 kernel 在 GPU 上的实际运行时间（来自 CUPTI 记录），每次之前先把 L2 清空"},
    {"timing.waited", "; it first waited {0} ms for the GPU to be idle and at full clock", "；计时前先等了 {0} ms，等 GPU 空闲并恢复全速"},
    {"timing.warm_l2", ", L2 warm", "，L2 保持热"},
    {"trust.explanation",
     "this lesson's CPU reference is C++ that would be compiled and run on this computer, and its kernels would run "
     "too",
     "这个课程的 CPU 参考实现是 C++ 代码，会在这台电脑上编译并运行，它的核函数也会运行"},
    {"trust.not_trusted", "lessons in {0} are not trusted: {1} (Trust... in the status bar asks again)",
     "{0} 中的课程未被信任：{1}（点状态栏的“信任...”可以重新选择）"},
    {"worker.died", "{0} died of {1} {2}", "{0}在{2}因 {1} 而终止"},
    {"worker.exited", "{0} exited unexpectedly (status {1}) {2}", "{0}在{2}意外退出（状态 {1}）"},
    {"worker.killed", "{0} was killed from outside ({1}) {2}", "{0}在{2}被外部结束（{1}）"},
    {"worker.no_answer", "the worker did not answer: {0}", "工作进程没有应答：{0}"},
    {"worker.process", "the worker process", "工作进程"},
    {"worker.process_under", "the worker under {0}", "{0} 下的工作进程"},
    {"worker.stopped", "stopped {0}", "在{0}被停止"},
    {"worker.stopped_before_start", "stopped before it started", "还没开始就被停止了"},
    {"worker.timed_out", "timed out after {0} s {1}", "在{1}超时（{0} 秒）"},
    {"worker.timed_out_tool", "timed out after {0} s under {1} {2}", "在{2}超时（{0} 秒，在 {1} 下）"},
    {"worker.unreadable", "{0} sent an answer that could not be read {1}", "{0}在{1}发回了无法读取的应答"},
};

const Entry* find_entry(std::string_view key) {
    const auto* end = std::end(kCatalogue);
    const auto* it = std::lower_bound(std::begin(kCatalogue), end, key,
                                      [](const Entry& e, std::string_view k) { return e.key < k; });
    return it != end && it->key == key ? it : nullptr;
}

std::string_view pick(const Entry& e, std::string_view lang) { return lang == "zh" ? e.zh : e.en; }

std::string fill(std::string_view tmpl, const std::vector<std::string>& args, std::string_view lang);

// An "@key" argument, or "@key|a|b": a catalogue entry with arguments of its own.
std::string fill_reference(std::string_view ref, std::string_view lang) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t bar; (bar = ref.find('|', start)) != std::string_view::npos; start = bar + 1)
        parts.emplace_back(ref.substr(start, bar - start));
    parts.emplace_back(ref.substr(start));
    const Entry* e = find_entry(parts.front());
    if (!e) return {};
    parts.erase(parts.begin());
    return fill(pick(*e, lang), parts, lang);
}

// Fills {0}, {1}, ... of `tmpl`; "@key" and "@key|arg|..." arguments are catalogue entries.
std::string fill(std::string_view tmpl, const std::vector<std::string>& args, std::string_view lang) {
    std::string out;
    for (std::size_t i = 0; i < tmpl.size(); ++i) {
        if (tmpl[i] == '{' && i + 2 < tmpl.size() && tmpl[i + 2] == '}' && tmpl[i + 1] >= '0' && tmpl[i + 1] <= '9') {
            const std::size_t n = std::size_t(tmpl[i + 1] - '0');
            if (n < args.size()) {
                const std::string& a = args[n];
                if (a.size() > 1 && a[0] == '@') {
                    out += fill_reference(std::string_view(a).substr(1), lang);
                } else {
                    out += a;
                }
            }
            i += 2;
            continue;
        }
        out += tmpl[i];
    }
    return out;
}

}  // namespace

Phrase verbatim(std::string text) { return Phrase{"", {std::move(text)}}; }

std::string render(const Sentence& s, std::string_view lang) {
    std::string out;
    for (const Phrase& p : s) {
        if (p.key.empty()) {
            if (!p.args.empty()) out += p.args[0];
        } else if (const Entry* e = find_entry(p.key)) {
            out += fill(pick(*e, lang), p.args, lang);
        }
    }
    return out;
}

std::string render_checked(const std::string& english, const Sentence& s, std::string_view lang) {
    if (s.empty() || lang == "en" || render(s, "en") != english) return english;
    return render(s, lang);
}

std::string language_from_environment() {
    for (const char* name : {"LC_ALL", "LC_MESSAGES", "LANG"}) {
        const char* value = std::getenv(name);
        if (value == nullptr || *value == '\0') continue;
        return std::string_view(value).starts_with("zh") ? "zh" : "en";
    }
    return "en";
}

bool phrase_known(std::string_view key) { return key.empty() || find_entry(key) != nullptr; }

std::vector<std::string_view> phrase_keys() {
    std::vector<std::string_view> keys;
    for (const Entry& e : kCatalogue) keys.push_back(e.key);
    return keys;
}

}  // namespace wb
