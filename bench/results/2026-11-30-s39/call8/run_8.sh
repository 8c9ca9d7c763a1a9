#!/bin/bash
# s39 call 8: the TMA GEMV's new epilogue (plain calls store from the
# fragments, the others staged and rolled; LDS ring reads): four variants
# (CL 1, 2, 4; 64 and 128 columns) through the every-variant case, both
# dtypes; then the 64- and 128-column rings pinned over n (bf16, k 4096)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "gemv variants"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_FORK=no CK_RUN_SUITE=gemm_gpu CK_RUN_CASE=gemm \
  KP_TEST_ONLY="gemv_m16_n128_s5_tma|gemv_m16_n64_s5_tma|gemv_m16_n64_s10_k2_tma|gemv_m16_n128_s10_k4_tma" \
  timeout $(left 150) build/tests/check_kernpack > $R/gemv_check.log 2>&1
echo "check rc=$? $(grep -E '^[0-9]+%: Checks' $R/gemv_check.log)"; grep -E ':[EF]:|cases' $R/gemv_check.log | head -12 | cut -c1-250
el "n sweep"
CUDA_VISIBLE_DEVICES=0 timeout $(left 420) python3 bench/gemm_bench.py --reps 11 --dtypes bf16 --variants \
  --only "gemv_m16_n(64|128)_s5_tma_nk" \
  --shapes "1,8192,4096;1,11008,4096;1,14336,4096;1,16896,4096;1,22016,4096;1,28672,4096;1,57344,4096;1,128256,4096;16,8192,4096;16,11008,4096;16,14336,4096;16,28672,4096;16,128256,4096" \
  > $R/nsweep.log 2>&1
echo "sweep rc=$?"; grep -E "^bf16|^ +(gemm|best)|check\(s\)|FAIL" $R/nsweep.log | grep -v "^ *check" | cut -c1-120
lanes_finish
