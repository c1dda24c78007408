#!/bin/bash
# tests/slurm/cluster_test.sh — grading as a Slurm job array on a one-node cluster this
# test starts itself (cluster.sh), with the CPU emulator backend:
#   1. the script grade/slurm.hpp writes (wb_slurm_tool script) for 5 submissions in
#      chunks of 2 is submitted through submit_with_sbatch: 3 array tasks;
#   2. squeue is polled until the job has left the queue (no sacct: this cluster keeps
#      no accounting), then each task's folder must hold `done`, its students' rows and
#      logs, with the four solutions passed and the one starter not;
#   3. `collect` (merge_task_folders) merges them; with one task's `done` removed it
#      refuses, naming the task and `sbatch --array=1`, and after exactly that
#      resubmission it merges again.
# The tasks run tests/slurm/stand_in_grade.sh as their CLI's `grade` (it runs the real
# `cuda-workbook-cli run` per student) until `cuda-workbook-cli grade --task/--chunk` exists.
#
#   cluster_test.sh SOURCE_DIR WB_SLURM_TOOL CUDA_WORKBOOK_CLI
#
# Exits 77 (ctest's SKIP_RETURN_CODE) when not root or when slurm-wlm/munge are not
# installed, saying which; with CI set in the environment missing packages fail instead.
set -euo pipefail
(($# == 3)) || { echo "usage: $0 SOURCE_DIR WB_SLURM_TOOL CUDA_WORKBOOK_CLI" >&2; exit 2; }
src=$1 tool=$2 cli=$3
here=$src/tests/slurm
PATH=$PATH:/usr/sbin

if ((EUID != 0)); then
  echo "SKIPPED: the one-node Slurm cluster needs root (slurmd runs as root here); run ctest as root"
  exit 77
fi
missing=()
for prog in munged slurmctld slurmd sbatch squeue sinfo; do command -v "$prog" >/dev/null || missing+=("$prog"); done
if ((${#missing[@]})); then
  echo "SKIPPED: ${missing[*]} not found: apt-get install slurm-wlm munge (scripts/workbook.sh deps installs them)"
  [[ -n "${CI:-}" ]] && { echo "FAIL: CI is set, so a missing Slurm is a failure, not a skip"; exit 1; }
  exit 77
fi

tmp=$(mktemp -d /tmp/wb_slurm_test.XXXXXX)
cleanup() {
  "$here/cluster.sh" stop "$tmp/cluster" || true
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*"
  for f in "$tmp"/out/tasks/*/slurm.log; do [[ -s "$f" ]] && { echo "----- $f"; tail -n 20 "$f"; }; done
  echo "----- slurmctld.log"; tail -n 20 "$tmp/cluster/slurmctld.log" 2>/dev/null || true
  exit 1
}
now() { echo "$EPOCHREALTIME"; }
took() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

t0=$(now)
"$here/cluster.sh" start "$tmp/cluster"
# shellcheck source=/dev/null # written by cluster.sh start
source "$tmp/cluster/env"
echo "measured: cluster up in $(took "$t0") s"

# Five students, in id order: ana..dan hand in lesson 01's solution, eve its starter.
subs=$tmp/submissions
for s in ana ben cat dan; do mkdir -p "$subs/$s" && cp "$src/lessons/01_vector_add/solution_step1.cu" "$subs/$s/step1.cu"; done
mkdir -p "$subs/eve" && cp "$src/lessons/01_vector_add/starter_step1.cu" "$subs/eve/step1.cu"

# The tasks find the real CLI through the environment sbatch passes on (--export=ALL).
export WB_CLI=$cli WB_DISABLE_CUDA_DRIVER=1
out=$tmp/out
script=$("$tool" script "$here/stand_in_grade.sh" "$src/lessons/01_vector_add.json" "$subs" "$out" 5 2 cpu wb-slurm-test)
grep -qx '#SBATCH --array=0-2' "$script" || fail "5 submissions in chunks of 2 did not make the array 0-2: $(grep array "$script")"

# Waits until job $1 has left the queue (squeue prints nothing, or no longer knows it).
wait_for() {
  local deadline=$((SECONDS + 45)) left
  while ((SECONDS < deadline)); do
    left=$(squeue -h -j "$1" 2>/dev/null || true)
    [[ -z "$left" ]] && return 0
    sleep 0.25
  done
  fail "job $1 is still queued or running after 45 s: $left"
}

t1=$(now)
job=$("$tool" submit "$script")
[[ "$job" =~ ^[0-9]+$ ]] || fail "submit printed '$job', not a job id"
wait_for "$job"
echo "measured: 3-task array job $job submitted, run and gone from the queue in $(took "$t1") s"

expect_task() {  # task students...
  local t=$1 s
  shift
  [[ -f "$out/tasks/$t/done" ]] || fail "task $t did not finish (no done)"
  for s in "$@"; do
    grep -q "^$s,vector_add,1," "$out/tasks/$t/gradebook.csv" || fail "task $t has no row for $s"
    [[ -f "$out/tasks/$t/$s/log.txt" ]] || fail "task $t has no log for $s"
  done
  [[ $(($(wc -l <"$out/tasks/$t/gradebook.csv") - 1)) == "$#" ]] || fail "task $t graded other students than $*"
}
expect_task 0 ana ben
expect_task 1 cat dan
expect_task 2 eve
for s in ana ben cat dan; do
  t=$(grep -l "^$s," "$out"/tasks/*/gradebook.csv)
  grep -q "^result  passed" "$(dirname "$t")/$s/log.txt" || fail "$s's solution did not pass: $(tail -n 3 "$(dirname "$t")/$s/log.txt")"
done
grep -q "^result  passed" "$out/tasks/2/eve/log.txt" && fail "eve's starter passed"
echo "ok: 3 tasks graded their chunks; 4 solutions passed and the starter did not"

count=$("$tool" collect "$out") || fail "collect failed"
[[ "$count" == 5 ]] || fail "collect merged $count rows, not 5"
[[ "$(cut -d, -f1,7 "$out/gradebook.csv" | tr '\n' ' ')" == "student,verdict ana,passed ben,passed cat,passed dan,passed eve,mismatch " ]] ||
  fail "the merged gradebook is not the 5 students in order with their verdicts: $(cat "$out/gradebook.csv")"
for s in ana ben cat dan eve; do [[ -f "$out/$s/results.json" ]] || fail "collect did not copy $s's folder"; done
grep -q '<testsuites name="cuda-workbook-cli grade" tests="5" failures="1"' "$out/junit.xml" || fail "junit.xml: $(head -n 2 "$out/junit.xml")"
echo "ok: collect merged 5 rows in student order, the students' folders and junit.xml"

# An unfinished task stops collect with the resubmission to run, which then works.
rm "$out/tasks/1/done"
if msg=$("$tool" collect "$out" 2>&1); then fail "collect merged with task 1 unfinished"; fi
grep -q "task 1: not finished" <<<"$msg" || fail "collect's error does not name task 1: $msg"
grep -q "sbatch --array=1 $out/grade.sbatch" <<<"$msg" || fail "collect's error does not say how to resubmit: $msg"
t2=$(now)
job2=$(sbatch --parsable --array=1 "$script")
wait_for "$job2"
echo "measured: resubmitted task 1 ran in $(took "$t2") s"
[[ -f "$out/tasks/1/done" ]] || fail "the resubmitted task 1 did not finish"
[[ "$("$tool" collect "$out")" == 5 ]] || fail "collect after the resubmission did not merge 5 rows"
echo "ok: an unfinished task is named with 'sbatch --array=1', and that resubmission completes the grade"
echo "measured: whole test $(took "$t0") s"
