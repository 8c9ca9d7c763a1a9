#!/bin/bash
# s39 call 4: the TMA GEMV's staged, rolled epilogue (and LDS ring reads):
# every GEMV variant against the reference, the timeline against cuBLAS,
# the skinny shapes of the issue table (both dtypes)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "gemv variants"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_FORK=no CK_RUN_SUITE=gemm_gpu CK_RUN_CASE=gemm \
  KP_TEST_ONLY="s3_tma|s5_tma|s10_tma|k2_tma|k4_tma" timeout $(left 90) build/tests/check_kernpack > $R/gemv_check.log 2>&1
echo "check rc=$? $(grep -E '^[0-9]+%: Checks' $R/gemv_check.log)"; grep -E ':[EF]:|cases' $R/gemv_check.log | head -8 | cut -c1-250
el "clk"
CUDA_VISIBLE_DEVICES=0 timeout $(left 200) python3 bench/gemv_clk.py --reps 9 --variants n128_s5,n64_s5 > $R/clk.log 2>&1
echo "clk rc=$?"; grep -E "^[0-9]|^  n" $R/clk.log | cut -c1-150
el "skinny table"
CUDA_VISIBLE_DEVICES=0 timeout $(left 330) python3 bench/gemm_bench.py --reps 15 \
  --shapes "1,4096,4096;1,11008,4096;1,4096,11008;1,14336,4096;16,4096,4096;16,11008,4096;16,4096,11008;16,14336,4096" \
  --json $R/skinny.json > $R/skinny.log 2>&1
echo "skinny rc=$?"; grep -E "^(bfloat16|float16|bf16|f16)|check\(s\)" $R/skinny.log | cut -c1-110
lanes_finish
