#!/bin/bash
# fiftieth session, call 4: an experimental sm_90a pack (call 3's ranking
# plus add+RMSNorm stage shapes over 2 CTAs of 6-12 KiB, RMSNorm+SwiGLU
# pairs stage shapes over 2 CTAs of 20 / 24 KiB and over 4 of 8 / 12 KiB,
# for the tuner) -- float64 over every add+RMSNorm / RMSNorm+SwiGLU
# variant; kp tune at the odd sweep's RMSNorm+SwiGLU lengths 4097-50257
# (their ranking from 22529 up was set on an H100) and add+RMSNorm's 4097 /
# 11007
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="rmsnorm_swiglu_|add_rmsnorm_" \
  timeout $(left 60) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases" $R/var.log | head -12 | cut -c1-250
el "tune"
timeout $(left 330) stdbuf -oL build/bin/kp tune -o $R/t4.tune --dtypes bf16 --shapes build/carry/t4.txt \
  --reps 10 --time-budget 260 > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default .* best" $R/tune.log | cut -c1-200
lanes_finish
