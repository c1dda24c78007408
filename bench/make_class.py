#!/usr/bin/env python3
"""bench/make_class.py — a generated class for `cuda-workbook-cli grade`: N students'
submissions of a lesson, a mix of correct, wrong, crashing, endless and hostile ones.

    bench/make_class.py LESSON.json OUT_FOLDER N [--marker DIR] [--only KIND]

Writes OUT_FOLDER/<student>/step<K>.cu and OUT_FOLDER/expected.csv (student,step,kind).
Kinds, in turn by student number:
  correct   the lesson's solution
  wrong     the solution with its sum turned into a difference (a mismatch)
  missing   no file for the last step
  crash     the solution, plus a write far outside the output buffer from thread 0
  endless   the solution, plus an endless loop in thread 0 (needs grade --timeout)
  hostile   the solution, plus host-only code (#ifndef __CUDA_ARCH__) calling system()
            to write into MARKER, append to the lesson file and touch $HOME/wb-pwned (the
            CPU emulator compiles the device side, __CUDA_ARCH__ defined, and a GPU runs
            only device code: it must never run), a printf flood from thread 0, and a
            write through a forged pointer into the worker's own memory
  snoop     the solution with #include "/etc/passwd" first (the include policy refuses it)
After a grade, MARKER (default /tmp/wb-hostile-marker) and $HOME/wb-pwned must not
exist and the lesson must be unchanged.
"""
import json, os, re, sys

KINDS = ["correct", "wrong", "correct", "crash", "missing", "endless", "correct", "hostile", "wrong", "snoop"]


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    lesson_path, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    marker = sys.argv[sys.argv.index("--marker") + 1] if "--marker" in sys.argv else "/tmp/wb-hostile-marker"
    lesson = json.load(open(lesson_path))
    folder = os.path.dirname(os.path.abspath(lesson_path))
    solutions = []
    for s in lesson["steps"]:
        sol = s["solution"]
        solutions.append(open(os.path.join(folder, sol["file"])).read() if isinstance(sol, dict) else sol)
    os.makedirs(out, exist_ok=True)
    expected = ["student,step,kind"]
    for i in range(n):
        kind = only or KINDS[i % len(KINDS)]
        student = "s%03d" % i
        os.makedirs(os.path.join(out, student), exist_ok=True)
        for k, src in enumerate(solutions, 1):
            if kind == "missing" and k == len(solutions):
                expected.append("%s,%d,missing" % (student, k))
                continue
            body = variant(kind, src, os.path.abspath(lesson_path), marker)
            open(os.path.join(out, student, "step%d.cu" % k), "w").write(body)
            expected.append("%s,%d,%s" % (student, k, kind))
    open(os.path.join(out, "expected.csv"), "w").write("\n".join(expected) + "\n")


def first_kernel_body(src):
    m = re.search(r"__global__[^{]*\{", src)
    return m.end() if m else None


def variant(kind, src, lesson_path, marker):
    at = first_kernel_body(src)
    if kind in ("correct", "missing") or at is None:
        return src
    if kind == "snoop":
        return '#include "/etc/passwd"\n' + src
    if kind == "wrong":
        # An accumulation turned into a subtraction ("sum += x" -> "sum -= x",
        # "acc[i][j] += a" -> "-="), or an elementwise sum into a difference:
        # the output is wrong, every index stays in bounds.
        m = re.search(r"((?:sum|acc\[[^\]]*\]\[[^\]]*\])\s*)\+=", src[at:])
        if m:
            rest = src[at:]
            return src[:at] + rest[:m.start()] + rest[m.start():].replace("+=", "-=", 1)
        m = re.search(r"(\w+\[\w+\]) \+ (\w+\[\w+\])", src[at:])
        return src[:at] + src[at:].replace(m.group(0), m.group(1) + " - " + m.group(2), 1) if m else src
    if kind == "crash":
        inject = "\n    if (threadIdx.x == 0 && blockIdx.x == 0 && blockIdx.y == 0) { volatile float* p = (float*)0x10; *p = 1.0f; }\n"
    elif kind == "endless":
        # clock64() is volatile: nvcc cannot drop the loop, as it dropped a spin on a volatile local.
        inject = "\n    if (threadIdx.x == 0 && blockIdx.x == 0 && blockIdx.y == 0) { long long t0 = clock64(); while (clock64() >= t0) {} }\n"
    else:  # hostile
        cmd = "mkdir -p %s; echo pwned > %s/pwned.txt; echo pwned >> %s; touch $HOME/wb-pwned" % (marker, marker, lesson_path)
        head = ("#ifndef __CUDA_ARCH__\nextern \"C\" int system(const char*);\n#endif\n"
                "__host__ __device__ inline void wb_hostile() {\n#ifndef __CUDA_ARCH__\n    system(\"%s\");\n#endif\n}\n" % cmd)
        inject = ("\n    if (threadIdx.x == 0 && blockIdx.x == 0 && blockIdx.y == 0) { wb_hostile();"
                  " for (int k = 0; k < 2000; ++k) printf(\"flood %d\\n\", k);"
                  " volatile unsigned long long* wild = (unsigned long long*)((unsigned long long)&k_wild_target + (1ull << 33));"
                  " *wild = 0xdeadbeefull; }\n")
        head += "__device__ unsigned long long k_wild_target;\n"
        return head + src[:at] + inject + src[at:]
    return src[:at] + inject + src[at:]


if __name__ == "__main__":
    main()
