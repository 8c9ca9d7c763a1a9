#!/bin/bash
# Call 13 (for the next session): the single-round mid-m shapes still at
# 0.91-0.95x (512 / 1024 x 4096 x 4096, 1024 x 4096 x 11008): every sm_90a
# (n, k) tile pinned, the c2 / 256x128 / s4 ones included, and cuBLAS's kernels.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
el "single-round mid m"
S="512,4096,4096;1024,4096,4096;1024,4096,11008;512,5120,5120;1024,8192,8192"
timeout $(left 560) python3 bench/gemm_bench.py --dtypes bf16 --reps 15 --shapes "$S" --peer-kernels \
  --variants --only "_wg_.*_nk" --json $R/gemm_1round.json 2>&1 | grep -vE "$F" > $R/gemm_1round.log
grep -E "^bfloat16|wg_|best:|cuBLAS:" $R/gemm_1round.log | cut -c1-130
lanes_finish
