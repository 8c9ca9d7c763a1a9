#!/bin/bash
# Twenty-sixth session, call 6: m <= 64 with the 64x128 4-CTA split demoted.
# The new 64x256 twins (s4, s4_e128: the first BM = 64 tile with the
# shared-memory epilogue) against float64 (every-variant case), memcheck and
# racecheck over them, kp tune over m = 32-64 shapes (shapes_c6.txt).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
el "gemm_gpu (new)"
KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=gemm_gpu CK_RUN_CASE=gemm KP_TEST_ONLY="64x256_s4" \
  timeout $(left 90) build/tests/check_kernpack > $R/t_gemm_new.log 2>&1
echo "rc=$? $(grep -E '^[0-9]+%: Checks' $R/t_gemm_new.log)"; grep -E ':[EF]:|cases' $R/t_gemm_new.log | head -8 | cut -c1-250
san memcheck gemm_gpu "64x256_s4" san_memcheck.log 160
san racecheck gemm_gpu "64x256_s4" san_racecheck.log 240
el "tune gemm"
timeout $(left 400) build/bin/kp tune --device 0 --families gemm --dtypes bf16,f16 \
  --shapes build/carry/shapes_c6.txt -o $R/gemm.tune > $R/tune_gemm.log 2>&1
echo "tune rc=$?"; grep -E "default" $R/tune_gemm.log | cut -c1-200
for s in 64x11008x4096 64x14336x4096 64x8192x4096 64x5120x4096 64x11008x11008 32x11008x4096 32x14336x4096 48x28672x4096; do
  echo "== $s: $(grep "bf16 ${s}x1 " $R/gemm.tune | head -6 | awk '{printf "%s %s; ", $5, $6}')"; done
lanes_finish
