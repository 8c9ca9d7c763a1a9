#!/bin/bash
# Thirty-seventh session, call 7: GEMM at m = 128 (issue 12's weakest bar
# shapes, 0.93-0.95x bf16 / 0.85-0.95x f16 in call 6) with every (k, n)-
# major B variant pinned (bench/gemm_bench.py --variants --only _nk), both
# dtypes: is any variant ahead of the pick on an H200?
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "m128 pinned"
S="128,4096,4096;128,11008,4096;128,4096,11008;128,14336,4096"
CUDA_VISIBLE_DEVICES=0 timeout $(left 250) python3 bench/gemm_bench.py --dtypes bf16,f16 --reps 15 --shapes "$S" \
  --variants --only "_nk" --json $R/gemm_m128.json 2>&1 | grep -vE "$F" > $R/gemm_m128.log
echo "m128 rc=$?"; grep -E "^(bfloat16|float16)|best:" $R/gemm_m128.log | cut -c1-110
lanes_finish
