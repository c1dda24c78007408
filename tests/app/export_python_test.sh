#!/bin/sh
# tests/app/export_python_test.sh — Export to Python writes the editor's kernel
# (as edited, not the file on disk) as a Python file for each home into
# <data dir>/exports/, and the log says where; a home that cannot take the
# step says why, in the window's language. Each file is valid Python.
#
#   export_python_test.sh PATH/TO/cuda-workbook PATH/TO/lessons
set -eu
. "$(dirname "$0")/script_lib.sh"
make_home
edit="$home/mine.cu"
sed 's/int i = blockIdx.x \* blockDim.x + threadIdx.x;/int i = blockIdx.x * blockDim.x + threadIdx.x;  \/\/ my own line/' \
    "$2/01_vector_add/solution_step1.cu" >"$edit"
run_script "$1" "$2" <<END
emulator on
open vector_add one_thread_per_element
set-source $edit
export-python cupy
export-python torch
export-python numba
export-python cuda-core
expect-log vector_add_one_thread_per_element_cupy.py; run it with python3
expect-log vector_add_one_thread_per_element_cuda_core.py
open convolution constant_mask
export-python numba
expect-log Could not export: Step
expect-log export it to CuPy or PyTorch
END
expect_ok "four files written and the refusal said"
exports="$XDG_DATA_HOME/cuda-workbook/exports"
for f in vector_add_one_thread_per_element_cupy.py vector_add_one_thread_per_element_torch.py vector_add_one_thread_per_element_numba.py vector_add_one_thread_per_element_cuda_core.py; do
    [ -s "$exports/$f" ] || { echo "FAIL: $exports/$f was not written"; exit 1; }
    grep -q "my own line" "$exports/$f" || { echo "FAIL: $f does not hold the editor's text"; exit 1; }
    python3 -c "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')" "$exports/$f" ||
        { echo "FAIL: $f is not valid Python"; exit 1; }
done
# In Chinese, the refusal is the catalogue's sentence.
run_script "$1" "$2" --lang zh <<END
emulator on
open convolution constant_mask
export-python numba
expect-log 无法导出：第
expect-log 请导出到 CuPy 或 PyTorch
END
expect_ok "the refusal in Chinese"
echo "PASS: Export to Python writes the editor's kernel for every home and refuses in the window's language"
