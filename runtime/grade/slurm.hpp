// runtime/grade/slurm.hpp — grading on a Slurm cluster: the job-array script
// that `cuda-workbook-cli grade --slurm` writes and submits, and the merge that
// `grade --collect DIR` does afterwards.
//
// The layout under the grade's --out DIR:
//   DIR/grade.sbatch                 the script (slurm_script); its "#SBATCH --array=0-M" says how many tasks
//   DIR/tasks/<I>/                   array task I: `grade --task I --chunk K --out DIR/tasks/I`, i.e. the
//                                    students [I*K, (I+1)*K) in id order; its gradebook.csv, junit.xml,
//                                    <student>/results.json and log.txt, Slurm's slurm.log, and `done`,
//                                    written by the script once grade exited 0
//   DIR/gradebook.csv, DIR/junit.xml, DIR/<student>/   what merge_task_folders makes of them
//
// Nothing here needs Slurm to be installed except submit_with_sbatch.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace wb {

struct SlurmOptions {
    // Absolute paths: a job runs on another node, in a working folder of Slurm's choosing.
    std::filesystem::path cli;          // cuda-workbook-cli
    std::filesystem::path lesson;       // LESSON.json
    std::filesystem::path submissions;  // the SUBMISSIONS folder or manifest
    std::filesystem::path out;          // the grade's --out DIR
    std::optional<std::filesystem::path> hidden;  // --hidden FILE
    std::optional<std::uint64_t> seed;             // --seed S
    std::string backend = "auto";                  // --backend auto|gpu|cpu
    int jobs = 1;                                  // --jobs N in each task; also its --cpus-per-task
    std::optional<std::string> partition;          // --partition P; unset: the cluster's default
    std::optional<std::string> gres;               // --gres, e.g. "gpu:1"; unset: none
    int chunk = 10;                                // K: submissions per array task
    int submissions_count = 0;                     // n, from 1
    std::optional<std::string> time_limit;         // --time per task, Slurm's form ("30", "01:00:00", "1-0")
    std::string job_name = "cuda-workbook-grade";
    // More of grade's options, passed on to each task as they are (each word
    // shell-quoted): {"--lang", "zh", "--timeout", "10", "--no-timing", ...}.
    std::vector<std::string> extra_args;
};

// How many array tasks n submissions make in chunks of K: ceil(n / K).
int slurm_task_count(int submissions, int chunk);

// The whole job-array script (bash). Throws wb::Error (Usage) naming the
// option when a path is not absolute, n or K or jobs is below 1, or a value
// cannot be written into an #SBATCH line (a line break; in the out folder a
// backslash, which stops sbatch replacing %a; in the other values a space,
// quote or '#').
std::string slurm_script(const SlurmOptions& options);

// Writes DIR/grade.sbatch (mode 0755) and creates DIR/tasks/0 .. DIR/tasks/M,
// which must exist before a task starts (Slurm opens slurm.log there and
// does not create folders). Returns the script's path.
std::filesystem::path write_slurm_script(const SlurmOptions& options);

// `text` as one bash word: unchanged when it has only characters the shell
// never treats specially (letters, digits, and _ @ % + = : , . / -), else in
// single quotes with each ' written '\''. The empty string is ''. Throws
// wb::Error (Usage) for a NUL byte, which no argument can hold.
std::string shell_quote(const std::string& text);

// The number of tasks the script at `script` asks for (its "#SBATCH --array=0-M"
// line, M + 1). Throws wb::Error (Io) naming the file when it has none.
int slurm_script_task_count(const std::filesystem::path& script);

// `grade --collect DIR`: checks that every task DIR/grade.sbatch lists has
// finished (its `done` and gradebook.csv are there), merges the tasks' rows
// sorted by student then step into DIR/gradebook.csv, their junit.xml into
// DIR/junit.xml (merge_junit_documents), and copies each DIR/tasks/I/<student>/
// to DIR/<student>/ (replacing an older copy, so a collect can be run again
// after a task is resubmitted). gradebook.csv is written last, so its presence
// says the collect finished. Throws wb::Error naming every missing or unfinished
// task with the sbatch command that reruns just those indices, or a student who
// appears in two tasks. Returns the merged rows' count.
std::size_t merge_task_folders(const std::filesystem::path& dir);

// One <testsuites> document holding every <testsuite> of `documents` (each a
// JUnit XML text whose top element is <testsuites> or a single <testsuite>),
// in order; tests, failures, errors, skipped and time are the sums of theirs.
// Plain text handling of the top element only: what is inside is copied as
// it is. `origins` names each document for errors (same length). Throws
// wb::Error (Io) naming the origin when a document has neither top element.
std::string merge_junit_documents(const std::vector<std::string>& documents, const std::vector<std::string>& origins,
                                  const std::string& name = "cuda-workbook-cli grade");

// Runs `sbatch --parsable SCRIPT` (posix_spawnp, no shell) and returns the job
// id it prints. Throws wb::Error when sbatch is not on PATH (saying to run on
// a login node or submit the --dry-run script by hand) or exits non-zero (its
// stderr in the message).
std::string submit_with_sbatch(const std::filesystem::path& script);

}  // namespace wb
