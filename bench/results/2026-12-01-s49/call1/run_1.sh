#!/bin/bash
# forty-ninth session, call 1: friendly (aligned) rows at LLM hidden sizes --
# item 83 found aligned 8192 x 11008 below odd 11007 for the norms. (a) the
# sweep side by side (no compile); (b) kp tune over the same shapes: every
# applicable variant's time, so the ranking's pick can be set against the best
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
SH=32768x2048,32768x3072,16384x4096,16384x5120,16384x6144,16384x7168,8192x8192,8192x11008,8192x13824,8192x14336,4096x16384,4096x18944,4096x28672
el "sweep"
timeout $(left 200) python3 bench/side_by_side.py --ops rmsnorm,add_rmsnorm,rmsnorm_swiglu,softmax \
  --shapes $SH --no-compile --reps 30 --warmup 5 --json $R/sweep.json > $R/sweep.log 2>&1
echo "sweep rc=$?"; grep -E "^ *(rmsnorm|add_rmsnorm|rmsnorm_swiglu|softmax) " $R/sweep.log | cut -c1-150
el "tune"
timeout $(left 520) build/bin/kp tune -o $R/friendly.tune --families rmsnorm,add_rmsnorm,rmsnorm_swiglu,softmax \
  --dtypes bf16 --shapes build/carry/friendly.txt --reps 15 > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default .* best" $R/tune.log | cut -c1-200
el end
lanes_finish
