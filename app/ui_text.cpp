// app/ui_text.cpp — the English and Chinese labels (ui_text.hpp).
#include "ui_text.hpp"

#include "widgets/widget_text.hpp"

#include "core/phrase.hpp"

#include <array>
#include <cstddef>

namespace wb::app {
namespace {

struct Entry {
    const char* en;
    const char* zh;
};

constexpr std::array<Entry, static_cast<std::size_t>(UiText::Count_)> kTable{{
    {"Lessons", "课程"},
    {"Language", "语言"},
    {"English", "English"},
    {"中文", "中文"},  // each language names itself, so it can be found from the other
    {"Step", "步骤"},
    {"Instructions", "说明"},
    {"Starter code", "初始代码"},
    {"This lesson could not be loaded:", "此课程无法加载："},
    {"No lessons found in this folder.", "此文件夹中没有课程。"},
    {"This lesson has no steps.", "此课程没有步骤。"},
    {"Lessons folder", "课程文件夹"},
    {"lessons", "个课程"},
    {"with problems", "个有问题"},
    {"read-only for now", "暂为只读"},
    {"View", "视图"},
    {"Run", "运行"},
    {"Stop", "停止"},
    {"Reset to starter", "恢复初始代码"},
    {"Show solution", "显示答案"},
    {"Compare with solution", "与答案比较"},
    {"Check memory", "检查内存访问"},
    {"Check races", "检查数据竞争"},
    {"Open in external editor", "在外部编辑器中打开"},
    {"Replace your code with the solution? Your code is kept in the work folder's history, and Ctrl+Z brings it back.", "用答案替换你的代码吗？你的代码会保存在工作文件夹的 history 中，按 Ctrl+Z 也能恢复。"},
    {"Yes", "是"},
    {"Cancel", "取消"},
    {"Diagnostics", "诊断"},
    {"Log", "日志"},
    {"Launch", "启动配置"},
    {"Block", "线程块"},
    {"Grid", "网格"},
    {"Dynamic shared memory (bytes)", "动态共享内存（字节）"},
    {"Time limit (s)", "时间限制（秒）"},
    {"Automatic grid", "自动计算网格"},
    {"Parameters", "参数"},
    {"Test case", "测试用例"},
    {"threads", "线程"},
    {"blocks", "线程块"},
    {"warps per block", "每块线程束"},
    {"Results", "结果"},
    {"No run yet. Press Run (Ctrl+Enter).", "尚未运行。按“运行”（Ctrl+Enter）。"},
    {"Device", "设备"},
    {"compile only", "仅编译"},
    {"Theme", "主题"},
    {"Dark", "深色"},
    {"Light", "浅色"},
    {"compiling", "编译中"},
    {"running", "运行中"},
    {"saved", "已保存"},
    {"unsaved", "未保存"},
    {"done", "已完成"},
    {"No compiler messages.", "没有编译信息。"},
    {"only in yours", "仅在你的代码中"},
    {"only in the solution", "仅在答案中"},
    {"Close", "关闭"},
    {"Buffers", "缓冲区"},
    {"waiting for the device check", "正在检查设备"},
    // Past the runtime's cap on one compile's diagnostics (kMaxDiagnostics).
    {"%zu listed, and %zu more not shown", "列出 %zu 条，另有 %zu 条未显示"},
    // The banner over the editor when a changed lesson file does not load.
    {"The lesson file has errors. You are working with the last version that loaded; save a fixed file and it reloads.",
     "课程文件有错误。当前使用的是上次成功加载的版本；保存修正后的文件即可重新加载。"},
    {"%zu problems", "共 %zu 个问题"},
    // The launch panel's list of every launch of a step with more than one.
    {"Every launch of this step, in order", "本步骤的全部启动（按顺序）"},
    {"edited below", "在下方设置"},
    {"passes", "轮"},
    {"Hide the lesson list (Ctrl+Shift+L)", "隐藏课程列表（Ctrl+Shift+L）"},
    {"Show the lesson list (Ctrl+Shift+L)", "显示课程列表（Ctrl+Shift+L）"},
    // A run's phases, as the results panel shows them while it works.
    {"starting", "正在启动"},
    {"compiling the kernel", "正在编译核函数"},
    {"building and running the CPU reference", "正在构建并运行 CPU 参考实现"},
    {"running on the GPU", "正在 GPU 上运行"},
    {"timing the kernel", "正在计时"},
    // The Help menu's list of keyboard shortcuts.
    {"Help", "帮助"},
    {"Run", "运行"},
    {"Save now", "立即保存"},
    {"Find in the editor", "在编辑器中查找"},
    {"Next diagnostic", "下一条诊断"},
    {"Show or hide the lesson list", "显示或隐藏课程列表"},
    // The results panel's details; several are printf formats.
    {"ok", "正确"},
    {"wrong", "错误"},
    {"max abs error %.3g, max rel error %.3g (atol %.3g, rtol %.3g)", "最大绝对误差 %.3g，最大相对误差 %.3g（atol %.3g，rtol %.3g）"},
    {"%zu of %zu mismatched (%zu unwritten, %zu nondeterministic)", "%zu / %zu 个元素不匹配（%zu 个未写入，%zu 个两次运行不同）"},
    {"GPU %.4f ms median (%.4f - %.4f), %zu samples%s", "GPU 中位数 %.4f ms（%.4f - %.4f），%zu 次采样%s"},
    {", near the timer's resolution", "，接近计时精度"},
    {"GPU: not run (compile only)", "GPU：未运行（仅编译）"},
    {"CPU reference %.4f ms", "CPU 参考实现 %.4f ms"},
    {"speed-up %.1fx", "加速比 %.1fx"},
    {"GPU: not run", "GPU：未运行"},
    {"case %s", "用例 %s"},
    {"Check", "检查"},
    {"Timings", "计时"},
    {" (GPU %.1fx faster)", "（GPU 快 %.1f 倍）"},
    {"%s: got %.6g, want %.6g (%s)", "%s：得到 %.6g，应为 %.6g（%s）"},
    {"Run is disabled: %s", "无法运行：%s"},
    {"no lesson step is open", "没有打开任何课程步骤"},
    {"the device check has not finished yet", "设备检查还没有完成"},
    {"a run is in progress", "正在运行"},
    // History caption: runs of this case, the case, runs of the step, then one of the two notes below.
    {"%zu run(s) of case %s (%zu of this step this session)%s", "用例 %2$s 共运行 %1$zu 次（本次会话中这一步共 %3$zu 次）%4$s"},
    {", CPU reference time: no run of this case was timed (only right kernels are)", "，显示 CPU 参考实现的时间：这个用例还没有被计时的运行（只有结果正确的核函数才计时）"},
    {", CPU reference time: no GPU ran", "，显示 CPU 参考实现的时间：没有 GPU 运行"},
    {"GPU time", "GPU 时间"},
    {"CPU reference", "CPU 参考实现"},
    {"no buffer '%s' in this run", "这次运行没有缓冲区 '%s'"},
    {"no buffer '%s' in this run (it stopped before the buffers were filled)", "这次运行没有缓冲区 '%s'（运行在填充缓冲区之前就停止了）"},
    {"GPU: not run (compile only); this is the CPU reference", "GPU：未运行（仅编译）；这里显示的是 CPU 参考实现的结果"},
    {"the CPU reference has no buffer '%s'", "CPU 参考实现没有缓冲区 '%s'"},
    // The device panel.
    {"target %s", "目标架构 %s"},
    {"compute capability %d.%d (%s), %d SMs", "计算能力 %d.%d（%s），%d 个 SM"},
    {"memory %.1f GiB (%.1f free)", "显存 %.1f GiB（可用 %.1f）"},
    {"max %d threads/block, block %lldx%lldx%lld", "每个线程块最多 %d 个线程，线程块最大 %lldx%lldx%lld"},
    {"shared %lld KiB/block (%lld opt-in), %d regs/block", "共享内存 %lld KiB/线程块（可申请到 %lld），%d 个寄存器/线程块"},    // Results tabs, the View menu, pop-out and enlarge.
    {"Views", "视图"},
    {"This step names no buffers to show.", "这一步没有指定要显示的缓冲区。"},
    {"This run compared no buffers.", "这次运行没有比较任何缓冲区。"},
    {"Hint %d", "提示 %d"},
    {"input", "输入"},
    {"Enlarge", "放大"},
    {"Shrink", "缩小"},
    {"Pop out", "弹出"},
    {"Dock", "停靠"},
    {"View", "视图"},
    {"Larger text", "放大文字"},
    {"Smaller text", "缩小文字"},
    {"Reset text size", "恢复文字大小"},
    {"Lesson list", "课程列表"},
    {"Instructions in a window of their own", "说明放在独立窗口中"},
    {"Results enlarged", "放大结果"},
    {"text %d%%", "文字 %d%%"},
    // The widgets' own words (widgets/widget_text.hpp) and the views' notes.
    {"wheel: zoom   drag: pan   double-click: fit", "滚轮：缩放   拖动：平移   双击：适应窗口"},
    {"(no picture for this shape)", "（这个形状画不成图）"},
    {"mismatch", "不一致"},
    {"row %zu, column %zu", "第 %zu 行，第 %zu 列"},
    {"index", "下标"},
    {"first %zu of %zu values", "前 %zu 个值，共 %zu 个"},
    {"Find", "查找"},
    {"No runs yet.", "还没有运行。"},
    {"run", "运行"},
    {"value", "值"},
    {"largest difference %.4g", "最大差值 %.4g"},
    {"input", "输入"},
    {"CPU reference", "CPU 参考实现"},
    {"the outline marks the first %zu stretches of mismatches only", "轮廓只标出了前 %zu 段不一致的元素"},
    // Resources, PTX and SASS (panels/inside_views.cpp).
    {"Compiling to look inside...", "正在编译以查看内部……"},
    {"From an earlier version of the text; updating.", "这是文本早先版本的结果；正在更新。"},
    {"The text does not compile: see Diagnostics.", "代码无法编译：请看“诊断”。"},
    {"Occupancy with the limits of %s.", "占用率按 %s 的限制计算。"},
    {"Occupancy with %s's published limits (no GPU of it here).", "占用率按 %s 公布的限制计算（这里没有这种 GPU）。"},
    {"%s: %d registers/thread, %lld B static shared, %lld B constant, %lld B stack/thread", "%s：每线程 %d 个寄存器，静态共享内存 %lld B，常量内存 %lld B，每线程栈 %lld B"},
    {"spills: %lld B stored, %lld B loaded (registers ran out; these go to local memory)", "寄存器溢出：写出 %lld B，读回 %lld B（寄存器不够用，溢出到局部内存）"},
    {"its registers allow blocks of up to %d threads", "按它的寄存器用量，线程块最多 %d 个线程"},
    {"at %d threads/block and %lld B dynamic shared: %d blocks/SM, %d of %d warps, %.0f%% occupancy, limited by %s", "每块 %d 个线程、动态共享内存 %lld B 时：每个 SM %d 个线程块，%d/%d 个线程束，占用率 %.0f%%，受限于 %s"},
    {"%d threads: %.0f%% (%d blocks/SM)", "%d 个线程：%.0f%%（每个 SM %d 个线程块）"},
    {"occupancy by block size, %d to %d threads; yours is marked", "不同线程块大小的占用率，%d 到 %d 个线程；当前的已标出"},
    {"warps", "线程束数"},
    {"registers", "寄存器"},
    {"shared memory", "共享内存"},
    {"blocks per SM", "每个 SM 的线程块数"},
    {"barriers", "屏障"},
    {"editor line %d: %d instructions", "编辑器第 %d 行：%d 条指令"},
    {"Resources", "资源"},
    // The progress line under compute-sanitizer.
    {"checking memory (compute-sanitizer memcheck)", "检查内存访问（compute-sanitizer memcheck）"},
    {"checking for races (compute-sanitizer racecheck)", "检查数据竞争（compute-sanitizer racecheck）"},
    // The measured ceilings beside a run's figures.
    {"%.0f%% of this GPU's measured device-to-device copy (%.0f GB/s)", "达到这块 GPU 实测显存拷贝带宽的 %.0f%%（%.0f GB/s）"},
    {"%.1f%% of its measured FP32 FMA peak (%.0f GFLOP/s)", "达到实测 FP32 FMA 峰值的 %.1f%%（%.0f GFLOP/s）"},
    {"ceilings of %s, measured here: copy %.0f GB/s, FP32 %.0f GFLOP/s, FP16 %.0f GFLOP/s (%s)", "%s 的实测上限：拷贝 %.0f GB/s，FP32 %.0f GFLOP/s，FP16 %.0f GFLOP/s（%s）"},
    {"cuBLAS SGEMM 4096^3: %.0f GFLOP/s", "cuBLAS SGEMM 4096^3：%.0f GFLOP/s"},
    {" (%.0f%% of copy)", "（拷贝带宽的 %.0f%%）"},
    {" (%.1f%% of FP32 peak)", "（FP32 峰值的 %.1f%%）"},
    {"measuring this GPU's ceilings (once)", "正在测量这块 GPU 的性能上限（只测一次）"},
    // The Sweep tab.
    {"Sweep", "参数扫描"},
    {"Sweep over", "参数扫描对象"},
    {"block size", "线程块大小"},
    {"Values", "取值"},
    {"FROM:TO:xFACTOR, FROM:TO:+STEP or V1,V2,...  e.g. 1024:1048576:x4", "起:止:x倍数、起:止:+步长 或 值1,值2,...  例如 1024:1048576:x4"},
    {"Run sweep", "运行参数扫描"},
    {"%d of %d points run", "已运行 %d / %d 个点"},
    {"Runs this step at every block size that fits the GPU, or across a param's values. Each point is checked against the CPU reference and timed like a run.", "在 GPU 能容纳的每种线程块大小下，或在某个参数的一系列取值下运行这一步。每个点都会与 CPU 参考实现比对，并像普通运行一样计时。"},
    {"point", "取值点"},
    {"status", "状态"},
    {"fastest", "最快"},
    {"Use", "采用"},
    {"left out: %s", "未包含：%s"},
    {"%d points: %d passed, %d failed", "%d 个点：%d 个通过，%d 个失败"},
    {"compile-only: no GPU ran these points", "仅编译：没有 GPU 运行这些点"},
    {"GPU ms", "GPU 毫秒"},
    // The GPU monitor window.
    {"GPU monitor", "GPU 监视器"},
    {"No GPU here: nothing to monitor. %s", "这里没有 GPU：没有可监视的设备。%s"},
    {"NVML cannot read this GPU: %s", "NVML 无法读取这块 GPU：%s"},
    {"reading the GPU...", "正在读取 GPU……"},
    {"memory used %.2f of %.1f GB", "已用显存 %.2f / %.1f GB"},
    {"utilisation %d%% (memory %d%%)", "利用率 %d%%（显存 %d%%）"},
    {"SM clock %d of %d MHz", "SM 时钟 %d / %d MHz"},
    {"temperature %d C", "温度 %d C"},
    {"power %.0f of %.0f W", "功耗 %.0f / %.0f W"},
    {"the clock is slowed: %s", "时钟被降频：%s"},
    {"Read through NVML twice a second, as the tutorials' pyNVML notebook does. Run a kernel and watch utilisation, clock and power move.", "通过 NVML 每秒读取两次，和教程里的 pyNVML 笔记本一样。运行一个核函数，看利用率、时钟和功耗如何变化。"},
    // The Roofline tab.
    {"Roofline", "屋顶线"},
    {"Arithmetic intensity (FLOPs per byte moved, from the lesson's metrics) across, GFLOP/s reached up. The roofs are this GPU's measured copy bandwidth and FP32 peak: left of the ridge a kernel is limited by memory, right of it by arithmetic.", "横轴是算术强度（每搬运一个字节做多少次浮点运算，来自课程的 metrics），纵轴是达到的 GFLOP/s。屋顶是这块 GPU 实测的拷贝带宽和 FP32 峰值：拐点左边的核函数受内存限制，右边的受算力限制。"},
    {"This step's metrics do not count both bytes and FLOPs, so it has no place on a roofline.", "这一步的 metrics 没有同时给出字节数和浮点运算数，所以无法放到屋顶线上。"},
    {"Intensity %.3g FLOP/byte. The roofs are measured on a GPU, and no GPU ran this step.", "算术强度 %.3g FLOP/字节。屋顶要在 GPU 上测量，而这一步没有在 GPU 上运行。"},
    {"Intensity %.3g FLOP/byte, left of the ridge at %.1f: memory-bound.", "算术强度 %.3g FLOP/字节，在拐点 %.1f 左边：受内存带宽限制。"},
    {"Intensity %.3g FLOP/byte, right of the ridge at %.1f: compute-bound.", "算术强度 %.3g FLOP/字节，在拐点 %.1f 右边：受算力限制。"},
    {"This run: %.1f GFLOP/s, %.0f%% of the %.1f GFLOP/s the roof allows here.", "本次运行：%1$.1f GFLOP/s，达到此处屋顶上限 %3$.1f GFLOP/s 的 %2$.0f%%。"},
    {"copy %.0f GB/s", "拷贝 %.0f GB/s"},
    {"FP32 %.0f GFLOP/s", "FP32 %.0f GFLOP/s"},
    {"cuBLAS SGEMM %.0f GFLOP/s", "cuBLAS SGEMM %.0f GFLOP/s"},
    {"run %d (case %s): %.3g FLOP/byte, %.1f GFLOP/s", "第 %d 次运行（用例 %s）：%.3g FLOP/字节，%.1f GFLOP/s"},
    // The lesson's baseline beside the student's kernel.
    {"  |  %s %.4f ms: yours %.0f%% of its speed", "  |  %s %.4f ms：你的达到它速度的 %.0f%%"},
    {"  |  %s %.1f GB/s: yours %.0f%% of it", "  |  %s %.1f GB/s：你的达到它的 %.0f%%"},
    {"Baseline %s: %.4f ms median of %d samples, %.1f GB/s, %.1f GFLOP/s; its output checked against the CPU reference. Yours reaches %.0f%% of its speed.", "基准 %1$s：%3$d 个样本的中位数 %2$.4f ms，%4$.1f GB/s，%5$.1f GFLOP/s；它的输出已与 CPU 参考实现比对。你的核函数达到它速度的 %6$.0f%%。"},
    {"Baseline %s: %.4f ms median of %d samples, %.1f GB/s; the copy was checked. Yours reaches %.0f%% of its GB/s.", "基准 %1$s：%3$d 个样本的中位数 %2$.4f ms，%4$.1f GB/s；拷贝结果已检查。你的核函数达到它 GB/s 的 %5$.0f%%。"},
    {"Baseline %s did not run: %s", "基准 %s 没有运行：%s"},
    {"Baseline %s gave a wrong result: %s", "基准 %s 的结果不对：%s"},
    // A buffer too large to send whole, drawn from a sample (runtime's sample_buffer).
    {"a sample of the %zu values, one in %zu; the indices are the whole buffer's", "这是 %zu 个值的抽样：每 %zu 个取一个；索引是完整缓冲区中的位置"},
    {"Drawn from one element in %zu along each side of %s; the whole buffer stays in the worker. A cell is outlined when any element it stands for failed the check, and the hover shows where in the whole each cell was taken.", "按每边每 %zu 个元素取一个绘制，完整大小为 %s；完整缓冲区留在工作进程中。只要一个单元格代表的任何元素没通过检查，它就会被描边；悬停时显示该单元格取自完整缓冲区的哪个位置。"},
    // The CPU emulator (runtime/emulate/).
    {"Run on the CPU emulator", "在 CPU 模拟器上运行"},
    {"Runs the kernel's threads on this computer's CPU: every check works (poisoned outputs, two runs, the reference, out-of-bounds accesses), but the times are CPU times and say nothing about a GPU's. Inline PTX, textures, tensor cores and grid-wide sync need a GPU.", "在这台计算机的 CPU 上运行核函数的各个线程：所有检查照常进行（输出预先填充毒值、运行两次、与参考实现比对、越界访问），但时间是 CPU 时间，与 GPU 的速度无关。内联 PTX、纹理、张量核心和网格级同步需要 GPU。"},
    {"CPU emulator: %.1f ms for the launches (not a GPU time)", "CPU 模拟器：启动共 %.1f ms（不是 GPU 时间）"},
    // The Timeline tab of a host step (widgets/timeline_view.hpp, panels/timeline_tab.cpp).
    {"GPU %d · stream %u", "GPU %d · 流 %u"},
    {"kernel", "核函数"},
    {"%s copy", "%s 拷贝"},
    {"start %s, duration %s", "开始于 %s，持续 %s"},
    {"%s at %.1f GB/s", "%s，%.1f GB/s"},
    {"grid %d×%d×%d, block %d×%d×%d", "网格 %d×%d×%d，线程块 %d×%d×%d"},
    {"launched in a CUDA Graph", "在 CUDA Graph 中启动"},
    {"pageable host memory: the driver stages it, so it cannot overlap a kernel", "可分页主机内存：由驱动程序中转，因此不能与核函数重叠"},
    {"pageable", "可分页"},
    {"still running when run() returned", "run() 返回时仍在运行"},
    {"run() returned", "run() 返回"},
    {"run() made no kernel, copy or memset on a GPU.", "run() 没有在 GPU 上执行任何核函数、拷贝或 memset。"},
    {"Timeline", "时间线"},
    {"run() %s median of %zu calls (%s – %s, noise %.1f%%)", "run() 中位数 %s（%zu 次调用，%s – %s，噪声 %.1f%%）"},
    {"run() %s (one call, not timed)", "run() %s（单次调用，未计时）"},
    {"kernels %s", "核函数 %s"},
    {"copies %s, %s", "拷贝 %s，%s"},
    {"copy/kernel overlap %s", "拷贝与核函数重叠 %s"},
    {"%d GPU(s)", "%d 块 GPU"},
    {"No timeline: %s", "没有时间线：%s"},
    {"GPU work ran %s past run()'s return (shaded red).", "run() 返回之后，GPU 上的工作又运行了 %s（红色阴影部分）。"},
    {"CUPTI dropped %llu activity records: the timeline is incomplete.", "CUPTI 丢弃了 %llu 条活动记录：时间线不完整。"},
    {"target: ≤ %.2g × %s's %s — yours %s vs %s = %.2f×", "目标：≤ %2$s 的%3$s × %1$.2g — 你的 %4$s，对比 %5$s，= %6$.2f×"},
    {" ✓ met", " ✓ 已达到"},
    {" ✗ not met", " ✗ 未达到"},
    {"target: ≤ %.2g × %s's %s — does not apply here: %s", "目标：≤ %2$s 的%3$s × %1$.2g — 此处不适用：%4$s"},
    {"wall time", "运行时间"},
    {"copy time", "拷贝时间"},
    {"kernel time", "核函数时间"},
    {"This step's run() makes its own launches: grid, block and streams are in your code.", "这一步的 run() 自己发起启动：网格、线程块和流都写在你的代码里。"},
    {"run() %.4f ms median (%.4f - %.4f), %zu samples", "run() 中位数 %.4f ms（%.4f - %.4f），%zu 次采样"},
    {"run() %.4f ms, one call (not timed)", "run() %.4f ms，单次调用（未计时）"},
    {"run() time", "run() 时间"},
    {"A host step's run() is timed as a whole (its copies, launches and waits), not as one kernel, so it has no place on the roofline. The Timeline tab shows where its time went.", "主机端步骤的 run() 是整体计时的（包括拷贝、启动和等待），而不是单个核函数，所以它不能放到屋顶线上。“时间线”标签页显示了时间花在哪里。"},
    {"This step's run() makes its own launches, so there is no block size to sweep, and the step has no params.", "这一步的 run() 自己发起启动，所以没有线程块大小可以扫描；这一步也没有参数。"},
    {"run() ms", "run() 毫秒"},
    {"No timeline: the run stopped before run() was traced (the message above says why).", "没有时间线：运行在跟踪 run() 之前就停止了（原因见上方的信息）。"},
    {"Replace your code with the starter? Your code is kept in the work folder's history, and Ctrl+Z brings it back.",
     "用初始代码替换你的代码吗？你的代码会保存在工作文件夹的 history 中，按 Ctrl+Z 也能恢复。"},
    {"Not saved: %s. Retrying every few seconds; your code stays in the editor.",
     "没有保存：%s。每隔几秒会重试；你的代码仍在编辑器里。"},
    {"CPU emulator: kernels run on this computer's CPU", "CPU 模拟器：核函数在这台电脑的 CPU 上运行"},
    {"Check all cases", "检查所有用例"},
    {"All cases: %d of %d passed", "所有用例：通过 %d 个，共 %d 个"},
    {"%d/%d cases", "%d/%d 个用例"},
    {"running on the CPU emulator", "正在 CPU 模拟器上运行"},
    {"(last run)", "（上一次运行）"},
    {"Stopped before a result. Press Run to try again.", "在得出结果前已停止。按“运行”再试一次。"},
    {"Stopped before a result; below is the last run that finished.", "在得出结果前已停止；下面是上一次完成的运行。"},
    {"GPU", "GPU"},
    {"CPU emulator", "CPU 模拟器"},
    {"CPU", "CPU"},
    {"%zu values, drawn 1 in %zu (each bucket's extreme kept)", "共 %zu 个值，每 %zu 个画 1 个（保留每段的极值）"},
    {"  %zu mismatched", "  %zu 个不一致"},
    {"%zu mismatched cells (outlined when zoomed in)", "%zu 个单元格不一致（放大后描出轮廓）"},
    {"1 mismatched cell (outlined when zoomed in)", "1 个单元格不一致（放大后描出轮廓）"},
    {"Your code: %s (began as %s)", "你的代码：%s（从 %s 开始）"},
    {"Keep in its own window next time", "下次启动时仍放在独立窗口中"},
}};

}  // namespace

const char* tr(UiText id, const std::string& lang) {
    const Entry& e = kTable[static_cast<std::size_t>(id)];
    return lang == "zh" ? e.zh : e.en;
}

WidgetText widget_text_in(const std::string& lang) {
    WidgetText w;
    w.zoom_help = tr(UiText::WZoomHelp, lang);
    w.no_picture = tr(UiText::WNoPicture, lang);
    w.mismatch = tr(UiText::WMismatch, lang);
    w.row_column = tr(UiText::WRowColumn, lang);
    w.index = tr(UiText::WIndex, lang);
    w.first_values = tr(UiText::WFirstValues, lang);
    w.sampled_values = tr(UiText::WSampledValues, lang);
    w.find = tr(UiText::WFind, lang);
    w.no_runs = tr(UiText::WNoRuns, lang);
    w.run = tr(UiText::WRun, lang);
    w.value = tr(UiText::WValue, lang);
    w.values_drawn = tr(UiText::WValuesDrawn, lang);
    w.mismatched_pixels = tr(UiText::WMismatchedPixels, lang);
    w.mismatched_cells = tr(UiText::WMismatchedCells, lang);
    w.mismatched_cell = tr(UiText::WMismatchedCell, lang);
    w.timeline_lane = tr(UiText::WTimelineLane, lang);
    w.timeline_kernel = tr(UiText::WTimelineKernel, lang);
    w.timeline_copy = tr(UiText::WTimelineCopy, lang);
    w.timeline_start_duration = tr(UiText::WTimelineStartDuration, lang);
    w.timeline_bytes_rate = tr(UiText::WTimelineBytesRate, lang);
    w.timeline_grid_block = tr(UiText::WTimelineGridBlock, lang);
    w.timeline_in_graph = tr(UiText::WTimelineInGraph, lang);
    w.timeline_pageable = tr(UiText::WTimelinePageable, lang);
    w.timeline_pageable_short = tr(UiText::WTimelinePageableShort, lang);
    w.timeline_past_return = tr(UiText::WTimelinePastReturn, lang);
    w.timeline_returned = tr(UiText::WTimelineReturned, lang);
    w.timeline_nothing = tr(UiText::WTimelineNothing, lang);
    return w;
}

std::string all_ui_text() {
    std::string all;
    for (const Entry& e : kTable) {
        all += e.en;
        all += e.zh;
    }
    // What the runtime says (core/phrase.hpp) is drawn too.
    for (std::string_view key : phrase_keys()) all += render({{std::string(key), {}}}, "zh");
    return all;
}

}  // namespace wb::app
