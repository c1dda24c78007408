#!/bin/bash
# Run on the GPU machine from the repository root, with devbundle/ carried (scripts/device-bundle.sh):
#   bash bench/device/grade_proof.sh   (what it finds goes to $OUT)
# The grading proof on the GPU machine (issue 26): 100 generated submissions each of lessons 01 and 06.
# ONLY="06" grades one of them; DEADLINE (default 5) is grade's --timeout, WALL (default 330) the
# seconds each grade may take in all (an endless submission costs DEADLINE once per step).
export LD_LIBRARY_PATH=$PWD/devbundle/lib:/usr/local/cuda/lib64 XDG_CACHE_HOME=$(mktemp -d) WB_WORKER=$PWD/devbundle/bin/cuda-workbook-worker
cli=$PWD/devbundle/bin/cuda-workbook-cli
rm -rf /tmp/wb-hostile-marker ~/wb-pwned
python3 bench/make_class.py lessons/01_vector_add.json /tmp/c01 100
python3 bench/make_class.py lessons/06_matmul.json /tmp/c06 100
md5sum lessons/*.json lessons/*/* > /tmp/before.md5
touch /tmp/stamp; sleep 1
for l in 01:lessons/01_vector_add.json:"" 06:lessons/06_matmul.json:--no-timing; do
  n=${l%%:*}; rest=${l#*:}; lesson=${rest%%:*}; extra=${rest#*:}
  [[ -n "${ONLY:-}" && " $ONLY " != *" $n "* ]] && continue
  s=$SECONDS
  timeout ${WALL:-330} $cli grade $lesson /tmp/c$n --out $OUT/g$n --backend gpu --timeout ${DEADLINE:-5} --seed 777 --html --quiet $extra > $OUT/grade$n.txt 2>&1
  echo "lesson $n rc=$? wall $((SECONDS - s)) s"; grep -v "^  " $OUT/grade$n.txt | tail -6
  awk -F, 'NR>1 {c[$3" "$7]++} END {for (k in c) print "  step " k ": " c[k]}' $OUT/g$n/gradebook.csv | sort
  python3 - $n $OUT/g$n/gradebook.csv /tmp/c$n/expected.csv <<'PY'
import csv,sys,collections
rows={(r['student'],r['step']):r for r in csv.DictReader(open(sys.argv[2]))}
exp=collections.Counter()
for e in csv.DictReader(open(sys.argv[3])):
    r=rows.get((e['student'],e['step']))
    exp[(e['kind'], r['verdict'] if r else 'absent')]+=1
for k,v in sorted(exp.items()): print("  kind %-8s -> %-14s %d" % (k[0], k[1], v))
t=[float(r['time_ms']) for r in rows.values() if r['time_ms']]
if t: print("  timed passes: %d, median %.4f ms" % (len(t), sorted(t)[len(t)//2]))
PY
done
echo "== hostile: outside the scratch folders"
ls -d /tmp/wb-hostile-marker ~/wb-pwned 2>&1
md5sum -c --quiet /tmp/before.md5 && echo "lessons unchanged"
find /tmp /root /home $PWD -xdev -newer /tmp/stamp -type f 2>/dev/null | grep -v "^$OUT\|^$XDG_CACHE_HOME\|^/tmp/c0[16]/" | head -20
cd $OUT && tar czf grades.tgz g0? && rm -rf g01 g06
