// tests/slurm/slurm_tool.cpp — grade/slurm.hpp from the command line, for
// cluster_test.sh (until `cuda-workbook-cli grade --slurm` and `--collect` do the same):
//
//   wb_slurm_tool script CLI LESSON SUBMISSIONS OUT N CHUNK BACKEND   writes OUT/grade.sbatch, prints its path
//   wb_slurm_tool submit SCRIPT                                        sbatch --parsable; prints the job id
//   wb_slurm_tool collect OUT                                          merge_task_folders; prints the rows' count
//
// An error is printed as wb::Error describes it, with exit status 1.
#include "core/error.hpp"
#include "grade/slurm.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
    const std::string command = argc > 1 ? argv[1] : "";
    try {
        if (command == "script" && argc == 10) {
            wb::SlurmOptions o;
            o.cli = argv[2];
            o.lesson = argv[3];
            o.submissions = argv[4];
            o.out = argv[5];
            o.submissions_count = std::atoi(argv[6]);
            o.chunk = std::atoi(argv[7]);
            o.backend = argv[8];
            o.time_limit = "5";
            o.job_name = argv[9];
            std::printf("%s\n", wb::write_slurm_script(o).c_str());
        } else if (command == "submit" && argc == 3) {
            std::printf("%s\n", wb::submit_with_sbatch(argv[2]).c_str());
        } else if (command == "collect" && argc == 3) {
            std::printf("%zu\n", wb::merge_task_folders(argv[2]));
        } else {
            std::fprintf(stderr,
                         "usage: wb_slurm_tool script CLI LESSON SUBMISSIONS OUT N CHUNK BACKEND JOB_NAME\n"
                         "       wb_slurm_tool submit SCRIPT\n"
                         "       wb_slurm_tool collect OUT\n");
            return 2;
        }
    } catch (const wb::Error& e) {
        std::fprintf(stderr, "%s\n", e.describe().c_str());
        return 1;
    }
    return 0;
}
