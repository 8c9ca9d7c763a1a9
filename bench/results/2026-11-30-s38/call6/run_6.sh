#!/bin/bash
# Thirty-eighth session, call 6: which new GEMV variant hung call 5 -- the
# GPU suite's every-variant GEMM case over each group, 40 s each.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
for only in "bf16_gemv_m16_n128_s5_p2" "bf16_gemv_m16_n64_s5_p2" "bf16_gemv_m16_n128_s5_p4" "bf16_gemv_m16_n32_s8_tma" "bf16_gemv_m16_n32_s16_tma"; do
  el "$only"
  CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_FORK=no CK_RUN_SUITE=gemm_gpu CK_RUN_CASE=gemm KP_TEST_ONLY=$only \
    timeout 40 build/tests/check_kernpack > $R/t_$only.log 2>&1
  echo "rc=$? $(grep -E '^[0-9]+%: Checks' $R/t_$only.log)"; grep -E ':[EF]:|cases' $R/t_$only.log | head -3 | cut -c1-200
done
lanes_finish
