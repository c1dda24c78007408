#!/bin/sh
# tests/app/chinese_window_test.sh — in Chinese, every message the window shows
# for what a student's kernel can do wrong is Chinese: a wrong value, an unwritten
# element, a write past the end (marked on its line), a read from no buffer, a
# division by zero the compiler sees (undefined behaviour), a trap, a block over
# the limit, a kernel that never ends (the timeout and its hint), a stopped run,
# "Check all cases", the Views' legends and captions and the Check tab. A barrier
# in divergent code and a non-atomic update of one element run too; the CPU
# emulator passes both today (its race and barrier detection is a later issue),
# so they show the passed state. Each state's whole frame is checked with
# expect-no-english (runtime/core/untranslated.hpp): every text widget, button,
# tab, menu and legend it drew. The lesson's own text is linted on its own, and
# compiler output is the compiler's, English in every language: the window
# draws both outside the record (TextRecordPause, app/widgets/draw_text.hpp).
# The starter's warning (its `i` is never used) is waited for and seen drawn,
# so the check after opening the lesson does not depend on whether the
# compile-as-you-type finished first.
# Without a GPU the kernels run on the CPU emulator; with one, on the GPU.
# LANG zh-Hant runs every state in Traditional Chinese (runtime/core/zh_hant.hpp),
# and checks that the window draws Traditional words and not their Simplified forms.
#
#   chinese_window_test.sh PATH/TO/cuda-workbook PATH/TO/lessons [zh|zh-Hant]
set -eu
. "$(dirname "$0")/script_lib.sh"
make_home
app=$1 lessons=$2 lang=${3:-zh}
# Run (运行 / 執行), thread (线程 / 執行緒) and code (代码 / 程式碼) in the script that is asked,
# in the texts the window records: the device line, the step's title and the editor's caption.
script_check=""
if [ "$lang" = zh-Hant ]; then
  script_check='expect-drawn-text 執行
expect-drawn-text 每個執行緒處理一個元素
expect-drawn-text 你的程式碼
expect-no-drawn-text 运行
expect-no-drawn-text 线程
expect-no-drawn-text 代码'
fi

# Lesson 01 with a 6 s deadline, so the endless kernel times out quickly while
# the other kernels finish on a busy 2-core machine; its "large" case keeps a
# deadline of its own, so Check all cases passes there too (16M elements on the
# emulator).
mkdir -p "$home/lessons"
cp -r "$lessons/01_vector_add" "$home/lessons/"
python3 - "$lessons/01_vector_add.json" "$home/lessons/01_vector_add.json" <<'PY'
import json, sys
lesson = json.load(open(sys.argv[1]))
lesson.setdefault("checks", {})["timeout_s"] = 6
for case in lesson["checks"].get("cases", []):
    if case.get("name") == "large":
        case["timeout_s"] = 120
json.dump(lesson, open(sys.argv[2], "w"), ensure_ascii=False, indent=2)
PY

kernel() {  # kernel NAME BODY: a vector_add with BODY
    cat >"$home/$1.cu" <<END
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
$2
}
END
}
kernel wrong '    if (i < n) c[i] = a[i] - b[i];'
kernel unwritten '    if (i < n / 2) c[i] = a[i] + b[i];'
kernel past_end '    c[i] = a[i] + b[i];'
kernel no_buffer '    if (i < n) c[i] = *(const float*)(0x10) + b[i];'
kernel divide '    int d = n / (i - i);
    if (i < n) c[i] = a[i] + b[i] + d;'
kernel trap '    if (i == 3) __trap();
    if (i < n) c[i] = a[i] + b[i];'
kernel barrier '    if (threadIdx.x == 0) __syncthreads();
    if (i < n) c[i] = a[i] + b[i];'
kernel endless '    volatile int spin = 1;
    while (spin) {}
    if (i < n) c[i] = a[i] + b[i];'
# A non-atomic read-modify-write of c[0] by every thread (the emulator passes it today; see above).
kernel race '    if (i < n) c[i] = a[i] + b[i];
    if (i < n && i > 0) { float v = c[0]; for (int k = 0; k < 50; ++k) v += 0.0f * k; c[0] = v + 0.0f; }'

# look: the whole frame, and the Check tab's frame, are Chinese.
look='frames 2
expect-no-english
results-tab check
frames 2
expect-no-english
results-tab views
frames 2
expect-no-english'
emulator="emulator on"
[ -e /dev/nvidiactl ] && emulator="emulator off"

run_script "$app" "$home/lessons" --lang "$lang" <<END
answer-trust yes
$emulator
open vector_add one_thread_per_element
frames 2
expect-no-english
wait
frames 2
expect-compiled
expect-drawn-text was declared but never referenced
expect-no-english
$script_check
set-source $home/wrong.cu
case ragged
run
wait
expect-status mismatch
$look
set-source $home/unwritten.cu
run
wait
expect-status mismatch
$look
set-source $home/past_end.cu
run
wait
expect-status cuda-error
frames 2
expect-drawn-marker 4
$look
$(for k in no_buffer divide trap barrier race; do printf 'set-source %s\nrun\nwait\n%s\n' "$home/$k.cu" "$look"; done)
set-source $home/endless.cu
run
wait 20
expect-status timed-out
$look
run
frames 5
stop
frames 3
expect-no-english
set-block 2048 1 1
frames 2
expect-no-english
run
expect-run-not-started 2048
frames 2
expect-no-english
set-block 256 1 1
set-source $lessons/01_vector_add/solution_step1.cu
check-all
expect-done on
$look
expand-results on
frames 2
expect-no-english
END
expect_ok "every state of the Chinese window ($lang) spoke Chinese"
