#!/bin/bash
# fiftieth session, call 1: an experimental sm_90a pack (every ranked
# odd-row variant's max_align lifted, so aligned rows may take them; new
# add+RMSNorm stage shapes of 20-48 KiB for 16K-24K columns; RMSNorm+SwiGLU
# 512 x 3 registers) -- float64 over every variant of the four row norms /
# softmax; kp tune killed mid-way (its table saved task by task?); kp tune
# at aligned softmax 26K-32K, aligned RMSNorm+SwiGLU 10K-28K outputs, odd
# add+RMSNorm / RMSNorm 17K-24K
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="rmsnorm_|softmax_" \
  timeout $(left 120) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases" $R/var.log | head -12 | cut -c1-250
el "tune killed"
timeout 22 stdbuf -oL build/bin/kp tune -o $R/inc.tune --dtypes bf16 --shapes build/carry/tinc.txt --reps 10 > $R/inc.log 2>&1
echo "inc rc=$? lines=$(grep -c ' softmax_' $R/inc.tune 2>/dev/null) keys=$(awk '/^softmax/{print $3}' $R/inc.tune 2>/dev/null | sort -u | tr '\n' ' ')"
grep -E "default .* best" $R/inc.log | cut -c1-160
el "tune"
timeout $(left 560) stdbuf -oL build/bin/kp tune -o $R/t1.tune --dtypes bf16 --shapes build/carry/t1.txt \
  --reps 10 --time-budget 400 > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default .* best" $R/tune.log | cut -c1-200
lanes_finish
