#!/bin/bash
# Run on the GPU machine from the repository root, with devbundle/ carried (scripts/device-bundle.sh):
#   bash bench/device/remote_proof.sh  (what it finds goes to $OUT)
# The remote worker on a GPU (issue 26): the stdio worker through a plain local command
# (the device has no sshd), and the endless kernels of bench/make_class.py on the GPU.
export LD_LIBRARY_PATH=$PWD/devbundle/lib:/usr/local/cuda/lib64 XDG_CACHE_HOME=$(mktemp -d) WB_WORKER=$PWD/devbundle/bin/cuda-workbook-worker
cli=$PWD/devbundle/bin/cuda-workbook-cli
W="$PWD/devbundle/bin/cuda-workbook-worker --stdio"
echo "== device --worker"; timeout 60 $cli device --worker "$W" 2>&1 | head -5
echo "== 06 step 2 through --worker, then locally"
timeout 60 $cli run lessons/06_matmul.json --step 2 --solution --worker "$W" 2>&1 | grep -E "^(device|time|where|result)" 
timeout 60 $cli run lessons/06_matmul.json --step 2 --solution 2>&1 | grep -E "^(device|time|result)"
echo "== 01 memcheck through --worker"; timeout 90 $cli run lessons/01_vector_add.json --solution --memcheck --worker "$W" 2>&1 | grep -E "^(memcheck|sanitizer|where|result)" | head -4
echo "== an endless kernel through --worker, --timeout 4"
python3 bench/make_class.py lessons/01_vector_add.json /tmp/ce 1 --only endless
s=$SECONDS; timeout 90 $cli run lessons/01_vector_add.json --step 1 --source /tmp/ce/s000/step1.cu --case small --timeout 4 --worker "$W" 2>&1 | grep -E "^(where|result)"; echo "took $((SECONDS - s)) s"
echo "== a faulting kernel through --worker, then a good run on the same link"
python3 bench/make_class.py lessons/01_vector_add.json /tmp/cc 1 --only crash
timeout 90 $cli run lessons/01_vector_add.json --step 1 --source /tmp/cc/s000/step1.cu --case small --worker "$W" 2>&1 | grep -E "^result" | cut -c1-200
echo "== grade: 5 endless submissions of lesson 01 on the GPU, --timeout 2"
python3 bench/make_class.py lessons/01_vector_add.json /tmp/ce10 5 --only endless
s=$SECONDS; timeout 120 $cli grade lessons/01_vector_add.json /tmp/ce10 --out $OUT/ge --backend gpu --timeout 2 --quiet --no-timing 2>&1 | tail -2; echo "took $((SECONDS - s)) s"
cut -d, -f1,3,5,6,7 $OUT/ge/gradebook.csv | head -5
tar czf $OUT/ge.tgz -C $OUT ge && rm -rf $OUT/ge
echo "== grade through --worker: 10 generated submissions of lesson 01 on the GPU"
python3 bench/make_class.py lessons/01_vector_add.json /tmp/cw 10
s=$SECONDS; timeout 150 $cli grade lessons/01_vector_add.json /tmp/cw --out $OUT/gw --backend gpu --timeout 3 --quiet --worker "$W" 2>&1 | tail -2; echo "took $((SECONDS - s)) s"
cut -d, -f1,3,5,6,7,10,11 $OUT/gw/gradebook.csv | paste -sd' '
tar czf $OUT/gw.tgz -C $OUT gw && rm -rf $OUT/gw
