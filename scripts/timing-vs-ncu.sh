#!/usr/bin/env bash
# scripts/timing-vs-ncu.sh — the workbook's kernel medians against Nsight
# Compute's gpu__time_duration (clocks not locked, as the workbook runs).
#
#   scripts/timing-vs-ncu.sh [BIN_DIR] [LESSON_PATTERN]
#       BIN_DIR: build (default) or a devbundle/; LESSON_PATTERN: a grep -E
#       pattern over the lesson files (default: every lesson)
#
# One timing case per kernel lesson: its last kernel step's solution on its
# largest case ("large", else the lesson's last case). Host-step lessons are
# timed by run()'s wall time, which Nsight Compute does not measure, and are
# left out. For each case it runs `cuda-workbook-cli run --in-process --json`
# once on its own (the workbook's median) and once under
#   ncu --clock-control none --metrics gpu__time_duration.sum
# (ncu flushes the caches before every kernel). A step of several kernels
# or passes is compared as a sequence: ncu's kernels are cut into runs of
# the step (every launch, every pass, in order), each run summed, and the
# median of those sums taken. Prints a table row per case and a closing
# line "timing-vs-ncu: N within 2%, M over (of kernels >= 20 us), K not measured".
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${1:-$ROOT/build}"
PATTERN="${2:-.}"
if [[ -x "$BIN/bin/cuda-workbook-cli" ]]; then
  CLI="$BIN/bin/cuda-workbook-cli"
  export LD_LIBRARY_PATH="$BIN/lib:${CUDA_HOME:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
else
  CLI="$BIN/cli/cuda-workbook-cli"
fi
NCU="${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}"
cd "$ROOT"
export XDG_CACHE_HOME="${XDG_CACHE_HOME:-$(mktemp -d)}"
WORK="$(mktemp -d)"

# "lesson step case" for every kernel lesson, from the lessons themselves.
python3 - "$PATTERN" >"$WORK/cases" <<'EOF'
import glob, json, re, sys
for f in sorted(glob.glob("lessons/[0-9]*.json")):
    if not re.search(sys.argv[1], f):
        continue
    j = json.load(open(f))
    kernel_steps = [(i + 1, s) for i, s in enumerate(j.get("steps", []))
                    if "host" not in s and not ("host" in j and "launches" not in s)]
    if not kernel_steps:
        continue
    n, s = kernel_steps[-1]
    checks = s.get("checks") if isinstance(s.get("checks"), dict) and s["checks"].get("cases") else j.get("checks", {})
    cases = [c["name"] for c in checks.get("cases", [])]
    case = "large" if "large" in cases else (cases[-1] if cases else "")
    print(f, n, case)
EOF

printf '| lesson | step | case | kernels a run | workbook | ncu | difference | method |\n|---|---|---|---|---|---|---|---|\n'
within=0; over=0; missing=0
while read -r lesson step tc; do
  name=$(basename "$lesson" .json)
  "$CLI" run --trust "$lesson" --step "$step" --case "$tc" --solution --in-process --json >"$WORK/ours.json" 2>/dev/null
  ours=$(python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
t = j.get("gpu_time") or {}
per_run = sum(max(0, l.get("passes", 1)) for l in j.get("launches", []))
print(t.get("median_ms", ""), per_run, t.get("method", "").replace("|", "/"))' "$WORK/ours.json" 2>/dev/null)
  read -r our_ms per_run method <<<"$ours"
  if [[ -z "${our_ms:-}" || -z "${per_run:-}" || "$per_run" == 0 ]]; then
    echo "| $name | $step | $tc | | not timed | | | $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("message",""))' "$WORK/ours.json" 2>/dev/null) |"
    missing=$((missing + 1)); continue
  fi
  # The two validation runs, the warm-up runs and the first samples (NCU_RUNS, 12 unless set): enough whole runs for a median.
  runs=${NCU_RUNS:-12}
  "$NCU" --clock-control none --target-processes all --metrics gpu__time_duration.sum --csv -c $((runs * per_run)) \
      "$CLI" run --trust "$lesson" --step "$step" --case "$tc" --solution --in-process >"$WORK/ncu.csv" 2>/dev/null
  theirs=$(python3 - "$WORK/ncu.csv" "$per_run" <<'EOF'
import csv, statistics, sys
rows = list(csv.reader(open(sys.argv[1])))
per_run = int(sys.argv[2])
start = next(i for i, r in enumerate(rows) if r and r[0] == "ID")
head = rows[start]; v = head.index("Metric Value"); u = head.index("Metric Unit"); k = head.index("Kernel Name")
scale = {"ns": 1e-6, "nsecond": 1e-6, "us": 1e-3, "usecond": 1e-3, "ms": 1.0, "msecond": 1.0}
ms = [float(r[v].replace(",", "")) * scale[r[u]] for r in rows[start + 1:] if len(r) == len(head)
      and not r[k].startswith(("cub_", "wb_"))]
sums = [sum(ms[i:i + per_run]) for i in range(0, len(ms) - per_run + 1, per_run)]
print(statistics.median(sums), len(sums))
EOF
  )
  read -r ncu_ms ncu_n <<<"$theirs"
  if [[ -z "${ncu_ms:-}" ]]; then
    echo "| $name | $step | $tc | $per_run | $our_ms ms | not measured | | $method |"
    missing=$((missing + 1)); continue
  fi
  verdict=$(python3 - "$name" "$step" "$tc" "$per_run" "$our_ms" "$ncu_ms" "$ncu_n" "$method" <<'EOF'
import sys
name, step, tc, per_run, o, n, runs, method = sys.argv[1:]
o, n = float(o), float(n)
d = 100 * (o - n) / n
flag = "" if n < 0.020 or abs(d) <= 2 else " **over 2%**"
print(f"| {name} | {step} | {tc} | {per_run} | {o*1e3:.2f} us | {n*1e3:.2f} us ({runs} runs) | {d:+.1f}%{flag} | {method} |")
print("counted" if n >= 0.020 else "short", "ok" if abs(d) <= 2 else "over")
EOF
  )
  echo "$verdict" | head -1
  read -r size ok <<<"$(echo "$verdict" | tail -1)"
  if [[ "$size" == counted ]]; then
    if [[ "$ok" == ok ]]; then within=$((within + 1)); else over=$((over + 1)); fi
  fi
done <"$WORK/cases"
echo
echo "timing-vs-ncu: $within within 2%, $over over (of kernels >= 20 us), $missing not measured"
rm -rf "$WORK"
