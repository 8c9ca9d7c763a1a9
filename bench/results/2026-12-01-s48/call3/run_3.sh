#!/bin/bash
# forty-eighth session, call 3: kp_st16 where call 2 found it paid (add+RMSNorm staged h, softmax warp rows)
# -- float64 over every row variant, ops_gpu, graph_gpu; then the odd sweep
# (no compile) with the old packs (packs_old.tar.xz, main before it) and the
# new ones in turns, two rounds
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
mkdir -p build/packs_old && tar -C build/packs_old -xJf build/carry/packs_old.tar.xz || exit 1
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu \
  timeout $(left 200) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|left out|cases" $R/var.log | head -12 | cut -c1-250
gpu_suite ops.log 260 ops_gpu
gpu_suite graph.log 300 graph_gpu
SH=131072x1001,16384x4097,8192x11007,4096x32001,2048x50257,1024x128257,512x151937,512x199999
i=0
for round in 1 2; do
  for which in old new; do
    i=$((i + 1))
    el "sweep $which $round"
    if [ $which = old ]; then PD=$PWD/build/packs_old/packs; else PD=$PWD/build/packs; fi
    KP_PACK_DIR=$PD timeout $(left $((300 + 90 * i))) \
      python3 bench/side_by_side.py --ops rmsnorm,add_rmsnorm,softmax,rmsnorm_swiglu --shapes $SH \
      --no-compile --reps 20 --warmup 4 --json $R/sweep_${which}_$round.json > $R/sweep_${which}_$round.log 2>&1
    echo "rc=$?"
  done
done
python3 - $R <<'PY'
import json, sys, glob
R = sys.argv[1]
def load(f):
    d = json.load(open(f)); out = {}
    for r in d.get('results', d.get('rows', [])) if isinstance(d, dict) else d:
        pass
    return d
import re
tab = {}
for f in sorted(glob.glob(R + '/sweep_*.log')):
    w = f.split('sweep_')[1][:-4]
    for line in open(f):
        m = re.match(r'^(\w+)\s+bf16\s+(\S+)\s+\|\s+(\d+)\s.*\|\s+([\d.]+)\s+\|', line)
        if m: tab.setdefault((m.group(1), m.group(2)), {})[w] = float(m.group(4))
for (op, sh), v in sorted(tab.items()):
    print(f"{op:15s} {sh:22s} " + "  ".join(f"{k} {v[k]:5.1f}" for k in sorted(v)))
PY
el "odd sweep with torch.compile (new packs)"
timeout $(left 590) python3 bench/side_by_side.py --ops rmsnorm,add_rmsnorm,softmax,rmsnorm_swiglu --shapes $SH \
  --reps 30 --warmup 5 --json $R/odd_compile.json > $R/odd_compile.log 2>&1
echo "odd rc=$?"; grep -E "^ *(rmsnorm|add_rmsnorm|softmax|rmsnorm_swiglu) " $R/odd_compile.log | cut -c1-160
el end
lanes_finish
