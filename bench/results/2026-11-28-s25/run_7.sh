#!/bin/bash
# Call 7 (twenty-fifth session): TMA GEMVs that fit two or four CTAs an SM (s3, s5
# rings of 128 columns, rings of 64 columns; alone and with K over 2
# CTAs), for the tuner: every TMA GEMV against float64, then kp tune over
# the skinny shapes (m = 1, 16) and the GEMVs pinned side by side with
# cuBLAS (gemm_bench --variants).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=gemm_gpu CK_RUN_CASE=gemm \
  KP_TEST_ONLY="_tma_nk" timeout $(left 120) build/tests/check_kernpack > $R/t_gemm.log 2>&1
echo "gemm_gpu rc=$? $(grep -E '^[0-9]+%: Checks' $R/t_gemm.log)"; grep -E ":[EF]:|cases" $R/t_gemm.log | head -5
el "tune"
timeout $(left 220) build/bin/kp tune --device 0 --families gemm --dtypes bf16,f16 \
  --shapes build/carry/shapes_c6.txt -o $R/c7.tune > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default" $R/tune.log | cut -c1-200
el "pinned"
timeout $(left 520) python3 bench/gemm_bench.py --dtypes bf16 --variants --only "gemv" \
  --shapes "1,4096,4096;1,11008,4096;1,4096,11008;1,14336,4096;16,4096,4096;16,11008,4096;16,4096,11008;16,14336,4096" \
  --json $R/pinned.json > $R/pinned.log 2>&1; echo "pinned rc=$?"
grep -vE "^check" $R/pinned.log | tail -40 | cut -c1-160
lanes_finish
