#!/bin/bash
# forty-sixth session, call 7 (the code that lands): gemm_gpu's selection
# case (gemm_calls: any call, large shapes, rejects), then the skinny bar
# shapes (default picks beside cuBLAS) in four rounds
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
CK_RUN_CASE=gemm_calls gpu_suite gemm_calls.log 200 gemm_gpu
S="1,11008,4096;16,11008,4096;1,14336,4096;16,14336,4096;1,4096,4096;16,4096,4096"
for k in 1 2 3 4; do
  el "skinny round $k"
  timeout $(left $((200 + 50 * k))) python3 bench/gemm_bench.py --reps 30 --shapes "$S" \
    --json $R/skinny_$k.json > $R/skinny_$k.log 2>&1
  echo "round $k rc=$?"; grep -E "^(bfloat16|float16)" $R/skinny_$k.log | cut -c1-84
done
lanes_finish
