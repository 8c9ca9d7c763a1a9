#!/bin/bash
# Twenty-sixth session, call 7 (asks for an H100): the final GEMM ranking.
# gemm_gpu whole (every variant against float64), ops_gpu; m = 32 / 64 side
# by side with cuBLAS, the pick beside the 4-CTA split it replaced (pinned)
# and the other m <= 64 tiles; the issue's table.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
gpu_suite t_gemm_gpu.log 200 gemm_gpu
gpu_suite t_ops_gpu.log 260 ops_gpu
el "m <= 64"
timeout $(left 380) python3 bench/gemm_bench.py --reps 30 --variants --dtypes bf16 \
  --only '64x128_s8_k4|64x64_s13|64x256_s5' \
  --shapes "64,4096,4096;64,4096,11008;64,5120,4096;64,8192,4096;64,11008,4096;64,14336,4096;32,11008,4096;32,14336,4096" \
  --json $R/small_m.json > $R/small_m.log 2>&1
echo "bench rc=$?"; grep -E "^(bfloat16|float16)|  gemm_|best:" $R/small_m.log | cut -c1-130
el "issue table"
timeout $(left 585) python3 bench/gemm_bench.py --json $R/gemm_issue.json > $R/gemm_issue.log 2>&1
echo "bench rc=$?"; grep -E "^(kernpack|copy|bfloat16|float16)" $R/gemm_issue.log | cut -c1-150
lanes_finish
