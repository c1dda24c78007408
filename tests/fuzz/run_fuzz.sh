#!/bin/sh
# tests/fuzz/run_fuzz.sh — builds one libFuzzer target with clang and runs it
# for a bounded time; any crash, leak, sanitizer report or input slower than
# 10 s fails (libFuzzer exits non-zero and leaves the input as
# WORK_DIR/TARGET/crash-* / leak-* / timeout-*; replay one with
# `WORK_DIR/TARGET/TARGET_fuzz FILE`).
#
#   run_fuzz.sh TARGET SOURCE_DIR WORK_DIR [SECONDS]
#
# Targets (tests/fuzz/TARGET_fuzz.cpp):
#   lesson_loader     lesson/loader.hpp on any bytes; seeds: every shipped and test lesson
#   wire              pipeline/wire.hpp: read_frame, decode_result, decode_request;
#                     seeds: frames the target encodes at start-up, and tests/fuzz/seeds/wire/
#   diagnostics       compile/diagnostics.hpp: the NVRTC and GCC log parsers;
#                     seeds: real compiler logs in tests/fuzz/seeds/diagnostics/
#   sanitizer_report  sanitizer/sanitizer.hpp: parse_sanitizer_report; seeds: the
#                     compute-sanitizer captures in tests/data/sanitizer/, and
#                     tests/fuzz/seeds/sanitizer_report/
# tests/fuzz/seeds/TARGET/ also holds inputs that found bugs, so each is
# tried on every run rather than only when the fuzzer happens to find it again.
#
# CMake's compiler is fixed per project (g++ here), so this script compiles
# the runtime sources a target needs straight with clang++ and
# -fsanitize=fuzzer,address,undefined. $FUZZ_CXX picks the compiler (default
# clang++). Objects are shared between targets in WORK_DIR/obj (under flock,
# so targets run by a parallel ctest do not build over each other); new
# inputs are kept in WORK_DIR/TARGET/corpus, so later runs start where earlier
# ones stopped. lesson_loader uses tests/fuzz/lesson.dict; the other targets
# get a dictionary made from the string literals of the code they test.
#
# When the fuzzer cannot be built (no clang, no libFuzzer runtime, a compile
# or link error): exit 77 (ctest: skipped) with the reason, except with $CI
# set (not "0" or "false"), where a build failure with clang installed is a
# test failure (exit 1), so CI cannot go green by skipping. No clang at all
# is a skip everywhere (CMake registers these tests only when it finds one).
set -eu
if [ $# -lt 3 ]; then
    echo "usage: run_fuzz.sh TARGET SOURCE_DIR WORK_DIR [SECONDS]" >&2
    exit 2
fi
target=$1 seconds=${4:-60}
mkdir -p "$3"
src=$(cd "$2" && pwd) work=$(cd "$3" && pwd)  # absolute: the fuzzer runs in another folder
cxx=${FUZZ_CXX:-clang++}

in_ci() {
    case "${CI:-}" in
    "" | 0 | false | FALSE | False | no) return 1 ;;
    *) return 0 ;;
    esac
}

# A fuzzer that does not build: a failure in CI, a skip elsewhere.
cannot_build() {
    if in_ci; then
        echo "FAILED: $target fuzzer does not build: $1 (CI is set, so this is a failure, not a skip)"
        exit 1
    fi
    echo "SKIPPED: $target fuzzer does not build: $1 (with CI set this fails)"
    exit 77
}

# phrase.cpp looks Traditional Chinese up in a table the build makes (runtime/CMakeLists.txt): this
# script makes its own copy in WORK_DIR/obj with the same generator (it needs opencc, as the build does).
zh_table="$work/obj/zh_hant_table.cpp"
core="runtime/core/error.cpp runtime/core/fs.cpp runtime/core/data_dirs.cpp runtime/core/phrase.cpp
      runtime/core/zh_hant.cpp $zh_table"
loader="runtime/lesson/loader.cpp runtime/lesson/load_values.cpp runtime/lesson/load_data.cpp
        runtime/lesson/load_launches.cpp runtime/lesson/load_checks.cpp runtime/lesson/json_guards.cpp
        runtime/lesson/json_parse.cpp runtime/lesson/lesson.cpp runtime/lesson/expr.cpp $core"
libs=""
dict=""
literals_of=""
max_len=65536
case "$target" in
lesson_loader)
    sources="$loader"
    libs="-lmuparser"
    dict="$src/tests/fuzz/lesson.dict"
    seeds="$src/lessons $src/tests/data/lessons_good $src/tests/data/lessons_bad $src/tests/data/lessons_fault"
    export WB_FUZZ_PNG="$src/tests/data/assets/test_pattern.png"
    ;;
wire)
    # A result crosses in its one form (result_json.cpp), which names enums
    # with the functions beside them (diagnostics, compare, sanitizer).
    sources="runtime/pipeline/wire.cpp runtime/pipeline/result_json.cpp runtime/host/timeline.cpp
             runtime/compile/diagnostics.cpp runtime/compile/compile_meta.cpp runtime/sandbox/start_folder.cpp runtime/sanitizer/sanitizer.cpp runtime/lesson/lesson_files.cpp
             runtime/data/bytes.cpp $loader"
    libs="-lmuparser"
    literals_of="runtime/pipeline/wire.cpp runtime/pipeline/result_json.cpp runtime/pipeline/result_json.hpp"
    # These names are defined beside what the fuzzer does not build (the
    # pipeline with the driver and the emulator; the comparison with the
    # buffers and images): it compiles those functions alone, taken from the
    # files that define them, against pipeline/run.hpp.
    extract_functions="run_status_name limit_verdict_name mismatch_reason_name"
    seeds="$work/wire/seeds $src/tests/fuzz/seeds/wire"
    export WB_FUZZ_SEEDS="$work/wire/seeds"
    export WB_FUZZ_LESSON="$src/lessons/01_vector_add.json"
    ;;
diagnostics)
    sources="runtime/compile/diagnostics.cpp"
    literals_of="runtime/compile/diagnostics.cpp"
    seeds="$src/tests/fuzz/seeds/diagnostics"
    ;;
sanitizer_report)
    sources="runtime/sanitizer/sanitizer.cpp $core"
    literals_of="runtime/sanitizer/sanitizer.cpp"
    seeds="$src/tests/data/sanitizer $src/tests/fuzz/seeds/sanitizer_report"
    ;;
*)
    echo "run_fuzz.sh: unknown target '$target' (lesson_loader, wire, diagnostics, sanitizer_report)" >&2
    exit 2
    ;;
esac

mkdir -p "$work/obj" "$work/$target/corpus"
if ! command -v "$cxx" >/dev/null 2>&1; then
    echo "SKIPPED: no $cxx (install clang and the libclang-rt-N-dev of its version N)"
    exit 77
fi

# One build at a time in the shared object folder.
if command -v flock >/dev/null 2>&1; then
    exec 9>"$work/obj/.lock"
    flock 9
fi
probe="$work/obj/probe.cpp"
echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' >"$probe"
if ! "$cxx" -fsanitize=fuzzer,address,undefined "$probe" -o "$work/obj/probe" 2>"$work/obj/probe.log"; then
    cat "$work/obj/probe.log"
    cannot_build "$cxx cannot build with -fsanitize=fuzzer (is libclang-rt-N-dev installed, N being clang's version?)"
fi

flags="-std=c++20 -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -I$src/runtime"
bin="$work/$target/${target}_fuzz"
objs=""
if [ -n "${extract_functions:-}" ]; then
    extracted="$work/obj/$target-extracted.cpp"
    {
        echo '#include "pipeline/run.hpp"'
        echo "namespace wb {"
        for f in $extract_functions; do
            def=$(grep -l "^const char\* $f(" "$src"/runtime/*/*.cpp | head -1)
            [ -n "$def" ] || cannot_build "no runtime source defines $f"
            awk "/^const char\\* $f\\(/,/^}/" "$def"
        done
        echo "}"
    } >"$extracted.new"
    if cmp -s "$extracted.new" "$extracted"; then rm "$extracted.new"; else mv "$extracted.new" "$extracted"; fi
    o="$work/obj/$target-extracted.o"
    objs="$o"
    if [ ! -f "$o" ] || [ "$extracted" -nt "$o" ] || [ -n "$(find "$src/runtime" -name '*.hpp' -newer "$o" | head -1)" ]; then
        echo "compiling $extract_functions"
        "$cxx" $flags -c "$extracted" -o "$o" || { rm -f "$o"; cannot_build "compiling $extract_functions failed"; }
    fi
fi
case " $sources " in
*" $zh_table "*)
    # Rewritten only when its text changes, so its object is rebuilt only then.
    python3 "$src/scripts/zh-hant-table.py" --catalogue "$src/runtime/core/phrase.cpp" --lessons "$src/lessons" \
        --terms "$src/runtime/core/zh_hant_terms.tsv" --out "$zh_table" >/dev/null ||
        cannot_build "scripts/zh-hant-table.py failed (is opencc installed?)"
    ;;
esac
for s in $sources tests/fuzz/${target}_fuzz.cpp; do
    case "$s" in
    /*) path=$s o="$work/obj/$(basename "$s" .cpp).cpp.o" ;;  # made here (the zh-Hant table)
    *) path=$src/$s o="$work/obj/$(echo "$s" | tr / _).o" ;;
    esac
    objs="$objs $o"
    if [ ! -f "$path" ]; then
        # A runtime file the target lists but the checkout lacks (e.g. moved).
        cannot_build "$s is missing"
    fi
    # Rebuild what changed (a source or any runtime header) since the last run.
    if [ ! -f "$o" ] || [ "$path" -nt "$o" ] || [ -n "$(find "$src/runtime" -name '*.hpp' -newer "$o" | head -1)" ]; then
        echo "compiling $s"
        "$cxx" $flags -c "$path" -o "$o" || { rm -f "$o"; cannot_build "compiling $s failed"; }
    fi
done
"$cxx" -fsanitize=fuzzer,address,undefined $objs $libs -o "$bin" || cannot_build "linking $bin failed"
if command -v flock >/dev/null 2>&1; then
    exec 9>&-
fi

# A dictionary of the tested code's own string literals ("ERROR SUMMARY:",
# JSON keys, "warning #"), and of the members that nlohmann's
# NLOHMANN_DEFINE_TYPE_* lists make JSON keys, so mutations reach past its
# keyword checks.
if [ -n "$literals_of" ] && command -v python3 >/dev/null 2>&1; then
    dict="$work/$target/literals.dict"
    # shellcheck disable=SC2086  # $literals_of is a list of files
    python3 - $(for f in $literals_of; do echo "$src/$f"; done) >"$dict" <<'PY'
import re, sys
text = "".join(open(f, encoding="utf-8").read() for f in sys.argv[1:])
text = re.sub(r"//[^\n]*", "", text)  # comments hold prose, not tokens
seen = set()
members = []
for listed in re.findall(r"NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE\w*\(([^)]*)\)", text):
    members += ['"%s"' % m.strip() for m in listed.split(",")[1:]]
for lit in re.findall(r'"((?:[^"\\\n]|\\.)*)"', text + " ".join(members)):
    if len(lit) < 2 or "\\" in lit or not lit.isascii() or not lit.isprintable():
        continue
    for entry in (lit, '\\"' + lit + '\\"' if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", lit) else None):
        if entry and entry not in seen:
            seen.add(entry)
            print('"' + entry + '"')
PY
fi
# A seed folder that does not exist yet (wire writes its own) must still be
# a directory for libFuzzer.
for d in $seeds; do mkdir -p "$d" 2>/dev/null || true; done

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
cd "$work/$target"
# libFuzzer's own exit code for a crash or a slow input is 77, which ctest
# would read as "skipped" (SKIP_RETURN_CODE): make every finding exit 1.
set -- -max_total_time="$seconds" -rss_limit_mb=2048 -max_len="$max_len" -timeout=10 \
    -error_exitcode=1 -timeout_exitcode=1 -print_final_stats=1 -artifact_prefix="$work/$target/"
if [ -n "$dict" ]; then set -- "$@" -dict="$dict"; fi
# shellcheck disable=SC2086  # $seeds is a list of folders
exec "$bin" "$@" "$work/$target/corpus" $seeds
