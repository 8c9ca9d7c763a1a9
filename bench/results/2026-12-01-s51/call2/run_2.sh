#!/bin/bash
# fifty-first session, call 2: an experimental sm_90a pack (67bd8e8 plus,
# for the tuner, a warp a row of 6 / 8 vectors a lane and one-CTA stages of
# 4-8 KiB at 64 / 128 threads for softmax, RMSNorm, add+RMSNorm) -- kp tune
# at odd 1001-4095 (the range between the odd sweep's 1001 and 4097, run
# by register kernels never tuned at odd lengths); float64 over the new
# variants
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="f32_block_t128_v4_n1|_warp_v8_n6|_warp_v8_n8|_u2_s4|_u2_s6|_u2_s8" \
  timeout $(left 90) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases" $R/var.log | head -12 | cut -c1-250
el "tune"
timeout $(left 570) stdbuf -oL build/bin/kp tune -o $R/t2.tune --dtypes bf16 --shapes build/carry/t2.txt \
  --reps 10 --time-budget 480 > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default .* best" $R/tune.log | cut -c1-200
lanes_finish
