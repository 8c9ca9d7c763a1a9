#!/bin/bash
# Twenty-sixth session, call 5 (asks for an H100): the m = 128 ranking of
# calls 2-4 (H200) on an H100 -- kp tune over the m = 128 shapes and m = 64
# / 32 ones (shapes_c5.txt), the issue's GEMM table side by side, the m =
# 128 tiles pinned beside cuBLAS.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
el "tune gemm"
timeout $(left 200) build/bin/kp tune --device 0 --families gemm --dtypes bf16,f16 \
  --shapes build/carry/shapes_c5.txt -o $R/gemm.tune > $R/tune_gemm.log 2>&1
echo "tune rc=$?"; grep -E "default" $R/tune_gemm.log | cut -c1-200
el "issue table"
timeout $(left 330) python3 bench/gemm_bench.py --json $R/gemm_issue.json > $R/gemm_issue.log 2>&1
echo "bench rc=$?"; grep -vE "^check" $R/gemm_issue.log | cut -c1-150
el "pinned m=128"
timeout $(left 420) python3 bench/gemm_bench.py --reps 40 --variants \
  --only 'wg_128x128_s6_e128|128x88|128x112|64x256' \
  --shapes "128,11008,4096;128,14336,4096" --json $R/pinned128.json > $R/pinned128.log 2>&1
echo "bench rc=$?"; grep -E "^(bfloat16|float16)|  gemm_|best:" $R/pinned128.log | cut -c1-130
lanes_finish
