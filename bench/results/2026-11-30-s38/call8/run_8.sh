#!/bin/bash
# Thirty-eighth session, call 8: the TMA GEMV with its maps prefetched (_f)
# and each tile's k loop rotated (_r): every-variant case, then pinned.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "tests _r _f"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_FORK=no CK_RUN_SUITE=gemm_gpu CK_RUN_CASE=gemm KP_TEST_ONLY="_r_tma|_f_tma" \
  timeout 60 build/tests/check_kernpack > $R/t_rf.log 2>&1
echo "rc=$? $(grep -E '^[0-9]+%: Checks' $R/t_rf.log)"; grep -E ':[EF]:|variants on' $R/t_rf.log | head -4 | cut -c1-200
el "gemv rf"
S="1,11008,4096;16,11008,4096;1,14336,4096;16,14336,4096;1,8448,4096"
CUDA_VISIBLE_DEVICES=0 timeout $(left 200) python3 bench/gemm_bench.py --dtypes bf16 --reps 21 --shapes "$S" \
  --variants --only "gemv_m16_n(64|128)_s5(_r|_f)*_tma" --json $R/gemv_rf.json > $R/gemv_rf.log 2>&1
echo "gemv rc=$?"; grep -vE "$F|^check ok" $R/gemv_rf.log | cut -c1-110
lanes_finish
