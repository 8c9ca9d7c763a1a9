#!/bin/bash
# Seventy-first session, call 2: the FA3 softmax's causal fast path (the right
# bound alone: row 1's tests taken from row 0's, 34 compares a masked tile
# where there were 128) -- float64 over every FA3 variant, then issue 13's
# prefill shapes and the short ones, d64 / d128, in turns with main's pack
# (f59c384), two rounds.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
old_pack || exit 1
GPU=0
el "float64 FA3"; f64 "_wg_" 230 attention_gpu
n=0
for k in 1 2; do
  for which in old new; do
    n=$((n + 1))
    el "ab $which $k"
    if [ $which = old ]; then pd=$PWD/build/packs_old; else pd=$PWD/build/packs; fi
    KP_PACK_DIR=$pd timeout $(left $((230 + 85 * n))) \
      python3 bench/attn_bench.py --dims 64,128 --seqs 128,256,1024,4096 --no-decode --reps 20 \
      --json $R/ab_${which}_$k.json > $R/ab_${which}_$k.log 2>&1
    echo "ab $which $k rc=$?"
  done
done
python3 - "$R" <<'PY'
import json, sys, glob
R = sys.argv[1]
rows = {}
for f in sorted(glob.glob(f"{R}/ab_*.json")):
    tag = f.split("/")[-1][3:-5]
    for r in json.load(open(f))["perf"]:
        k = (r["dim"], r["seq_q"], r["causal"])
        rows.setdefault(k, {})[tag] = (r["kp_us"], r.get("cudnn_us", 0))
for k, v in sorted(rows.items()):
    print(k, " ".join(f"{t}={a:.1f}/{c:.1f}" for t, (a, c) in sorted(v.items())))
PY
lanes_finish
