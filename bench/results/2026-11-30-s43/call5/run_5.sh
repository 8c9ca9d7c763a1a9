#!/bin/bash
# Call 5 (forty-third session): (1) the host overhead per call with the TMA
# map cache's encodes counted (the 3-map GEMM ran +1.75 us over a raw launch
# in call 4); (2) the long odd rows against their row count: is what RMSNorm
# and softmax lose at 512 x 151937 a tail (it would shrink with more rows)?
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el kpbench
CUDA_VISIBLE_DEVICES=0 timeout $(left 100) build/bin/kpbench --op rmsnorm --shape small --dtype bf16 \
  --overhead-n 10000 > $R/kpbench.log 2>&1; echo "kpbench rc=$?"
grep -A16 "^host overhead" $R/kpbench.log | cut -c1-200
el "rows sweep"
CUDA_VISIBLE_DEVICES=0 timeout $(left 400) python3 bench/side_by_side.py --ops rmsnorm,softmax --no-compile --reps 30 \
  --shapes 256x151937,512x151937,1024x151937,2048x151937,512x151936,2048x151936,1024x50257,2048x50257,8192x50257 \
  --json $R/rows.json > $R/rows.log 2>&1; echo "sbs rc=$?"
grep -vE "$F" $R/rows.log | tail -40 | cut -c1-180
lanes_finish
