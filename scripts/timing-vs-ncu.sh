#!/usr/bin/env bash
# scripts/timing-vs-ncu.sh — the workbook's kernel medians against Nsight
# Compute's gpu__time_duration (clocks not locked, as the workbook runs).
#
#   scripts/timing-vs-ncu.sh [BIN_DIR]     (default: build; or a devbundle/)
#
# For each case it runs `cuda-workbook-cli run --in-process --json` once on its
# own (the workbook's median) and once under
#   ncu --clock-control none --metrics gpu__time_duration.sum
# and prints both medians of the lesson's kernel and their difference. Needs a
# GPU and ncu; prints one line per case, so runs can be compared.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${1:-$ROOT/build}"
if [[ -x "$BIN/bin/cuda-workbook-cli" ]]; then
  CLI="$BIN/bin/cuda-workbook-cli"
  export LD_LIBRARY_PATH="$BIN/lib:${CUDA_HOME:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
else
  CLI="$BIN/cli/cuda-workbook-cli"
fi
NCU="${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}"
cd "$ROOT"
export XDG_CACHE_HOME="${XDG_CACHE_HOME:-$(mktemp -d)}"
cases=(
  "lessons/01_vector_add.json 1 large vector_add"
  "lessons/03_rgb_to_gray.json 1 large rgb_to_gray"
  "lessons/06_matmul.json 3 large matmul_tiled"
  "lessons/06_matmul.json 1 large matmul$"
)
for c in "${cases[@]}"; do
  read -r lesson step tc kernel <<<"$c"
  name=${kernel%$}
  ours=$("$CLI" run --trust "$lesson" --step "$step" --case "$tc" --solution --in-process --json 2>/dev/null |
         python3 -c 'import json,sys; j=json.load(sys.stdin); t=j["gpu_time"]; print(t["median_ms"], t["method"])' 2>/dev/null)
  theirs=$("$NCU" --clock-control none --target-processes all --metrics gpu__time_duration.sum --csv -k "regex:^${kernel}" -c 12 \
             "$CLI" run --trust "$lesson" --step "$step" --case "$tc" --solution --in-process 2>/dev/null |
           python3 -c '
import csv, statistics, sys
rows = list(csv.reader(sys.stdin))
start = next(i for i, r in enumerate(rows) if r and r[0] == "ID")
head = rows[start]; v = head.index("Metric Value"); u = head.index("Metric Unit")
scale = {"ns": 1e-6, "nsecond": 1e-6, "us": 1e-3, "usecond": 1e-3, "ms": 1.0, "msecond": 1.0}
ms = [float(r[v].replace(",", "")) * scale[r[u]] for r in rows[start + 1:] if len(r) == len(head)]
print(statistics.median(ms), len(ms))' 2>/dev/null)
  read -r our_ms method <<<"$ours"
  read -r ncu_ms ncu_n <<<"$theirs"
  if [[ -z "${our_ms:-}" || -z "${ncu_ms:-}" ]]; then
    echo "timing-vs-ncu $name $tc: could not measure (ours '${our_ms:-}', ncu '${ncu_ms:-}')"
    continue
  fi
  python3 -c "
o, n = $our_ms, $ncu_ms
print(f'timing-vs-ncu $name $tc: workbook {o*1e3:.2f} us, ncu {n*1e3:.2f} us median of $ncu_n launches, {100*(o-n)/n:+.1f}%  ($method)')"
done
