#!/bin/bash
# Thirty-fourth session, call 2: GEMM with two commit groups a k-tile (`_h`,
# the stage released between them) against the picks, pinned beside cuBLAS.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
el "float64 _h_"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=gemm_gpu CK_RUN_CASE=gemm KP_TEST_ONLY=_h_nk \
  timeout $(left 90) build/tests/check_kernpack > $R/f64_h.log 2>&1
echo "f64 rc=$? $(grep -E '^[0-9]+%: Checks' $R/f64_h.log)"; grep -E "cases|:[EF]:" $R/f64_h.log | head -5 | cut -c1-200
el "pinned"
timeout $(left 400) python3 bench/gemm_bench.py --reps 20 --variants \
  --only 'wg_128x256_s3_e256_w0_nk|wg_128x256_s3_e256_h_nk|wg_128x256_s4_e128_h_nk|wg_128x256_s4_e128_nk|wg_256x128_s4_e128_nk|wg_256x128_s4_e128_h_nk|wg_128x192_s4_e192_nk|wg_128x192_s4_e192_h_nk' \
  --shapes "4096,4096,4096;8192,8192,8192;4096,11008,4096;4096,14336,4096;4096,4096,11008" \
  --json $R/pinned.json 2>&1 | grep -vE "$F" > $R/pinned.log
echo "bench rc=$?"; grep -E "^(bfloat16|float16)|  gemm_|best:" $R/pinned.log | cut -c1-130
el "racecheck"
san racecheck gemm_gpu bf16_wg_128x256_s3_e256_h_nk rc_h.log 500
el "synccheck"
san synccheck gemm_gpu bf16_wg_128x256_s3_e256_h_nk sc_h.log 570
lanes_finish
