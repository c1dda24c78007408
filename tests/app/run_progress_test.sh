#!/bin/sh
# tests/app/run_progress_test.sh — while a run works, the results panel says
# which phase it is in and for how long, with Stop beside it: a CPU
# reference that never returns shows "building and running the CPU
# reference" with its seconds counting up, and the lesson's 3 s deadline
# then ends the run as timed out. In Chinese, the phase is in Chinese. Stop
# says it stopped, and a run's progress greys the last run's verdict.
#
#   run_progress_test.sh PATH/TO/cuda-workbook PATH/TO/lessons
set -eu
. "$(dirname "$0")/script_lib.sh"
make_home
theirs="$home/theirs"
mkdir -p "$theirs"
cp "$(dirname "$0")/../data/lessons_fault/hang_reference.json" "$theirs/"

# The first start asks about the folder; the answer is remembered for the second.
trust="expect-trust-prompt
answer-trust yes"
for lang in en zh; do
    if [ "$lang" = en ]; then phase="building and running the CPU reference"; else phase="正在构建并运行 CPU 参考实现"; fi
    run_script "$1" "$theirs" --lang "$lang" <<END
$trust
open hang_reference
run-anyway
frames 30
expect-drawn-text $phase
wait
expect-status timed-out
END
    expect_ok "the phase was drawn in $lang while the reference hung, and the run timed out"
    if ! grep -q "drawn: . $phase  [0-9.]* s" "$home/stdout"; then
        echo "FAIL: the phase line had no spinner and seconds"
        exit 1
    fi
    trust="# trusted at the first start"
done

# Stop during a run: the panel says it stopped, not that nothing ran; after a run that finished,
# the next run's progress shows that run's verdict greyed as the last run, and a Stop says so.
for lang in en zh; do
    if [ "$lang" = en ]; then
        stopped="Stopped before a result" last="(last run)" shown="below is the last run that finished"
    else
        stopped="在得出结果前已停止" last="（上一次运行）" shown="下面是上一次完成的运行"
    fi
    run_script "$1" "$theirs" --lang "$lang" <<END
open hang_reference
run-anyway
frames 30
stop
wait
expect-drawn-text $stopped
run-anyway
wait
expect-status timed-out
run-anyway
frames 30
expect-drawn-text $last
stop
wait
expect-drawn-text $shown
END
    expect_ok "in $lang, a stopped run said so, and a running one greyed the last verdict"
done
