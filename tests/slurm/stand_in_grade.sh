#!/bin/bash
# tests/slurm/stand_in_grade.sh — stands in for `cuda-workbook-cli grade` in cluster_test.sh
# until that command exists: it takes the same arguments the Slurm script passes
#   grade LESSON SUBMISSIONS --out DIR --task I --chunk K --backend B --jobs N
# grades the submissions [I*K, (I+1)*K) of the student folders sorted by name, each
# with `cuda-workbook-cli run LESSON --step 1 --source SUBMISSIONS/<student>/step1.cu
# --no-timing` (the real CLI: $WB_CLI), and writes DIR/gradebook.csv (one row per
# student, step 1 only), DIR/junit.xml and DIR/<student>/{log.txt,results.json}.
set -euo pipefail
[[ "${1:-}" == grade && $# -ge 3 ]] || { echo "stand_in_grade.sh: usage: grade LESSON SUBMISSIONS --out DIR --task I --chunk K ..." >&2; exit 2; }
lesson=$2 subs=$3
shift 3
out="" task="" chunk="" backend=auto
while (($#)); do
  case "$1" in
    --out) out=$2; shift 2 ;;
    --task) task=$2; shift 2 ;;
    --chunk) chunk=$2; shift 2 ;;
    --backend) backend=$2; shift 2 ;;
    --jobs | --seed | --hidden) shift 2 ;;
    *) echo "stand_in_grade.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[[ -n "$out" && -n "$task" && -n "$chunk" ]] || { echo "stand_in_grade.sh: --out, --task and --chunk are needed" >&2; exit 2; }

mapfile -t all < <(find "$subs" -mindepth 1 -maxdepth 1 -printf '%f\n' | LC_ALL=C sort)
mine=("${all[@]:task * chunk:chunk}")
mkdir -p "$out"
csv="student,lesson,step,step_id,cases_passed,cases_total,verdict,score,max_score,time_ms,device,share,share_of"
junit=""
failures=0
for s in "${mine[@]}"; do
  mkdir -p "$out/$s"
  status=0
  "$WB_CLI" run "$lesson" --step 1 --source "$subs/$s/step1.cu" --backend "$backend" --no-timing \
    >"$out/$s/log.txt" 2>&1 || status=$?
  # The run's last line: "result  passed: ..." or "result  mismatch: ...".
  verdict=$(sed -n 's/^result  \([a-z-]*\):.*/\1/p' "$out/$s/log.txt" | tail -n 1)
  [[ -n "$verdict" ]] || verdict="exit-$status"
  passed=0
  [[ "$verdict" == passed ]] && passed=1
  csv+=$'\n'"$s,vector_add,1,one_thread_per_element,$passed,1,$verdict,$passed,1,,CPU emulator,,"
  printf '{"score": %d, "max_score": 1}\n' "$passed" >"$out/$s/results.json"
  if ((passed)); then
    junit+="  <testsuite name=\"$s\" tests=\"1\" failures=\"0\"><testcase classname=\"$s\" name=\"step 1\"/></testsuite>"$'\n'
  else
    failures=$((failures + 1))
    junit+="  <testsuite name=\"$s\" tests=\"1\" failures=\"1\"><testcase classname=\"$s\" name=\"step 1\"><failure message=\"$verdict\"/></testcase></testsuite>"$'\n'
  fi
done
printf '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="stand-in grade" tests="%d" failures="%d" errors="0" skipped="0" time="0">\n%s</testsuites>\n' \
  "${#mine[@]}" "$failures" "$junit" >"$out/junit.xml"
printf '%s\n' "$csv" >"$out/gradebook.csv"
