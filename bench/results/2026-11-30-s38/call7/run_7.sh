#!/bin/bash
# Thirty-eighth session, call 7: call 5 again (the _p clusters now share
# nothing in their TMA boxes too: GEMM_SHARE_NONE, runtime/ops.c), after
# the _p groups' every-variant GEMM case.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "tests _p"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_FORK=no CK_RUN_SUITE=gemm_gpu CK_RUN_CASE=gemm KP_TEST_ONLY="_p2_tma|_p4_tma|_n32_s" \
  timeout 60 build/tests/check_kernpack > $R/t_p.log 2>&1
echo "rc=$? $(grep -E '^[0-9]+%: Checks' $R/t_p.log)"; grep -E ':[EF]:|cases$' $R/t_p.log | head -12 | cut -c1-200
el "gemv place"
S="1,11008,4096;16,11008,4096;1,14336,4096;16,14336,4096;1,8448,4096;1,16896,8192"
CUDA_VISIBLE_DEVICES=0 timeout $(left 200) python3 bench/gemm_bench.py --dtypes bf16 --reps 21 --shapes "$S" \
  --variants --only "gemv_m16_n(32|64|128)_s(5|8|16)(_p[24])?_tma" --json $R/gemv_place.json > $R/gemv_place.log 2>&1
echo "gemv rc=$?"; grep -vE "$F|^check ok" $R/gemv_place.log | cut -c1-110
lanes_finish
