#!/bin/sh
# tests/fuzz/run_fuzz.sh — builds the lesson loader's libFuzzer target with
# clang and runs it for a bounded time; any crash, leak, sanitizer report or
# input slower than 10 s fails (libFuzzer exits non-zero and leaves the input
# as WORK_DIR/crash-* / leak-* / timeout-*; replay one with
# `WORK_DIR/lesson_loader_fuzz FILE`).
#
#   run_fuzz.sh SOURCE_DIR WORK_DIR [SECONDS]
#
# CMake's compiler is fixed per project (g++ here), so this script compiles
# the loader's own sources (runtime/lesson, runtime/core) straight with
# clang++ and -fsanitize=fuzzer,address,undefined, and links the system
# muparser. $FUZZ_CXX picks the compiler (default clang++). Exit 77 (ctest:
# skipped) when it cannot build fuzzers. The seed corpus is every shipped
# lesson and every test lesson; new inputs are kept in WORK_DIR/corpus, so
# later runs start where earlier ones stopped.
set -eu
src=$1 work=$2 seconds=${3:-60}
cxx=${FUZZ_CXX:-clang++}
mkdir -p "$work/corpus" "$work/obj"
if ! command -v "$cxx" >/dev/null 2>&1; then
    echo "SKIPPED: no $cxx (install clang and libclang-rt-14-dev)"
    exit 77
fi
probe="$work/probe.cpp"
echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' >"$probe"
if ! "$cxx" -fsanitize=fuzzer,address,undefined "$probe" -o "$work/probe" 2>"$work/probe.log"; then
    echo "SKIPPED: $cxx cannot build with -fsanitize=fuzzer:"; cat "$work/probe.log"
    exit 77
fi

flags="-std=c++20 -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -I$src/runtime"
sources="$src/runtime/lesson/loader.cpp $src/runtime/lesson/lesson.cpp $src/runtime/lesson/expr.cpp
         $src/runtime/core/error.cpp $src/runtime/core/fs.cpp $src/runtime/core/data_dirs.cpp $src/tests/fuzz/lesson_loader_fuzz.cpp"
bin="$work/lesson_loader_fuzz"
objs=""
for s in $sources; do
    o="$work/obj/$(basename "$s").o"
    objs="$objs $o"
    # Rebuild what changed (a source or any runtime header) since the last run.
    if [ ! -f "$o" ] || [ "$s" -nt "$o" ] || [ -n "$(find "$src/runtime" -name '*.hpp' -newer "$o" | head -1)" ]; then
        echo "compiling $s"
        "$cxx" $flags -c "$s" -o "$o"
    fi
done
"$cxx" -fsanitize=fuzzer,address,undefined $objs -lmuparser -o "$bin"

export WB_FUZZ_PNG="$src/tests/data/assets/test_pattern.png"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
cd "$work"
exec "$bin" -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=65536 -timeout=10 \
    -print_final_stats=1 -artifact_prefix="$work/" -dict="$src/tests/fuzz/lesson.dict" \
    "$work/corpus" "$src/lessons" "$src/tests/data/lessons_good" "$src/tests/data/lessons_bad" \
    "$src/tests/data/lessons_fault"
