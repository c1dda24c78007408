#!/bin/bash
# tests/slurm/cluster_test.sh — grading as a Slurm job array on a one-node cluster this
# test starts itself (cluster.sh), with the CPU emulator backend:
#   1. `cuda-workbook-cli grade --slurm --dry-run` writes and prints the script for 5
#      submissions in chunks of 2 (3 array tasks), and `grade --slurm` submits it;
#   2. squeue is polled until the job has left the queue (no sacct: this cluster keeps
#      no accounting), then each task's folder must hold `done`, its students' rows and
#      logs, with the four solutions passed and the one starter a mismatch;
#   3. `grade --collect --html` merges them; with one task's `done` removed it refuses,
#      naming the task and `sbatch --array=1`, and after exactly that resubmission it
#      merges again;
#   4. a run through `--worker "srun ... cuda-workbook-worker --stdio"` passes and names
#      the node it ran on (the remote worker, docs/remote-worker.md).
#
#   cluster_test.sh SOURCE_DIR CUDA_WORKBOOK_CLI
#
# Exits 77 (ctest's SKIP_RETURN_CODE) when not root or when slurm-wlm/munge are not
# installed, saying which; with CI set in the environment missing packages fail instead.
set -euo pipefail
(($# == 2)) || { echo "usage: $0 SOURCE_DIR CUDA_WORKBOOK_CLI" >&2; exit 2; }
src=$1 cli=$2
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
script=$out/grade.sbatch
grade=("$cli" grade "$src/lessons/01_vector_add.json" "$subs" --out "$out" --backend cpu --chunk 2)
"${grade[@]}" --slurm --dry-run >"$tmp/dry.txt" 2>&1 || fail "grade --slurm --dry-run failed: $(cat "$tmp/dry.txt")"
grep -qx '#SBATCH --array=0-2' "$script" || fail "5 submissions in chunks of 2 did not make the array 0-2: $(grep array "$script")"
grep -qx '#SBATCH --array=0-2' "$tmp/dry.txt" || fail "--dry-run did not print the script: $(cat "$tmp/dry.txt")"

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
submitted=$("${grade[@]}" --slurm 2>&1) || fail "grade --slurm failed: $submitted"
job=$(sed -n 's/^submitted job \([0-9]*\):.*/\1/p' <<<"$submitted")
[[ "$job" =~ ^[0-9]+$ ]] || fail "grade --slurm printed '$submitted', not a job id"
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
  # Two rows a student: lesson 01's two steps (step 2 handed in by nobody: missing).
  [[ $(($(wc -l <"$out/tasks/$t/gradebook.csv") - 1)) == $((2 * $#)) ]] || fail "task $t graded other students than $*"
}
verdict() {  # task student step
  awk -F, -v s="$2" -v n="$3" '$1 == s && $3 == n {print $7}' "$out/tasks/$1/gradebook.csv"
}
expect_task 0 ana ben
expect_task 1 cat dan
expect_task 2 eve
for s in ana:0 ben:0 cat:1 dan:1; do
  [[ "$(verdict "${s#*:}" "${s%:*}" 1)" == passed ]] || fail "${s%:*}'s solution did not pass: $(cat "$out/tasks/${s#*:}/${s%:*}/log.txt")"
  [[ "$(verdict "${s#*:}" "${s%:*}" 2)" == missing ]] || fail "${s%:*}'s missing step 2 is not 'missing'"
done
[[ "$(verdict 2 eve 1)" == mismatch ]] || fail "eve's starter is not a mismatch: $(cat "$out/tasks/2/eve/log.txt")"
echo "ok: 3 tasks graded their chunks; 4 solutions passed and the starter did not"

collected=$("$cli" grade --collect "$out" --html 2>&1) || fail "grade --collect failed: $collected"
grep -q "^collected 5 student(s)" <<<"$collected" || fail "collect did not merge 5 students: $collected"
[[ "$(awk -F, 'NR > 1 && $3 == 1 {printf "%s,%s ", $1, $7}' "$out/gradebook.csv")" == "ana,passed ben,passed cat,passed dan,passed eve,mismatch " ]] ||
  fail "the merged gradebook is not the 5 students in order with their verdicts: $(cat "$out/gradebook.csv")"
for s in ana ben cat dan eve; do [[ -f "$out/$s/results.json" ]] || fail "collect did not copy $s's folder"; done
grep -q '<testsuites name="cuda-workbook-cli grade"' "$out/junit.xml" || fail "junit.xml: $(head -n 2 "$out/junit.xml")"
[[ -f "$out/leaderboard/step-1.html" ]] || fail "collect --html wrote no leaderboard"
echo "ok: collect merged 5 rows in student order, the students' folders and junit.xml"

# An unfinished task stops collect with the resubmission to run, which then works.
rm "$out/tasks/1/done"
if msg=$("$cli" grade --collect "$out" 2>&1); then fail "collect merged with task 1 unfinished"; fi
grep -q "task 1: not finished" <<<"$msg" || fail "collect's error does not name task 1: $msg"
grep -q "sbatch --array=1 $out/grade.sbatch" <<<"$msg" || fail "collect's error does not say how to resubmit: $msg"
t2=$(now)
job2=$(sbatch --parsable --array=1 "$script")
wait_for "$job2"
echo "measured: resubmitted task 1 ran in $(took "$t2") s"
[[ -f "$out/tasks/1/done" ]] || fail "the resubmitted task 1 did not finish"
"$cli" grade --collect "$out" | grep -q "^collected 5 student(s)" || fail "collect after the resubmission did not merge 5 students"
echo "ok: an unfinished task is named with 'sbatch --array=1', and that resubmission completes the grade"

# The remote worker through srun (docs/remote-worker.md): a run's requests, results and
# output over one stream to a worker Slurm started on the node, with its host named.
worker=$(dirname "$cli")/cuda-workbook-worker
t3=$(now)
through=$("$cli" run "$src/lessons/01_vector_add.json" --step 1 --solution --case ragged --backend cpu \
  --worker "srun --quiet --unbuffered --ntasks=1 $worker --stdio" 2>&1) || fail "a run through srun failed: $through"
grep -q "^result  passed" <<<"$through" || fail "a run through srun did not pass: $through"
grep -q "^where   on $(hostname)" <<<"$through" || fail "a run through srun does not say where it ran: $through"
echo "ok: a run through --worker \"srun ... --stdio\" passed on $(hostname) in $(took "$t3") s"
echo "measured: whole test $(took "$t0") s"
