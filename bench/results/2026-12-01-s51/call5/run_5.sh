#!/bin/bash
# fifty-first session, call 5: main's tip (1c3e1a8: the odd rows of
# 1025-4096 ranked) -- the odd sweep (bench/shapes_odd.txt, 2001 / 3001
# added) of the row ops side by side with eager and F.* (no torch.compile);
# graph_gpu
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "odd sweep"
timeout $(left 230) python3 bench/side_by_side.py --ops softmax,rmsnorm,add_rmsnorm,swiglu,geglu_tanh,geglu_erf,rmsnorm_swiglu \
  --shapes-file bench/shapes_odd.txt --no-compile --reps 20 --warmup 4 --json $R/odd.json > $R/odd.log 2>&1
echo "odd rc=$?"; grep -E "^ *(softmax|rmsnorm|add_rmsnorm|swiglu|geglu_tanh|geglu_erf|rmsnorm_swiglu) " $R/odd.log | cut -c1-110
gpu_suite graph.log 320 graph_gpu
lanes_finish
