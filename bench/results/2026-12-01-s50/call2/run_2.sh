#!/bin/bash
# fiftieth session, call 2: call 1's experimental pack plus RMSNorm+SwiGLU
# register blocks of 512 x 4, 1024 x 2, 1024 x 3 (rows to 16K / 24K
# outputs) -- float64 over every RMSNorm+SwiGLU variant; kp tune killed by
# SIGTERM in its second task (is the first task's table on disk?); kp tune
# at aligned RMSNorm+SwiGLU 13824-24576 outputs and odd 9001 / 11007,
# aligned add+RMSNorm 18944-24576 and odd 16385 / 20481; memcheck and
# racecheck over the softmax stage shapes of 48 / 32 KiB (forty-ninth
# session), the add+RMSNorm stage shapes of 20 / 24 KiB over 2 CTAs and
# RMSNorm+SwiGLU's 512 x 3
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="rmsnorm_swiglu_" \
  timeout $(left 60) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases" $R/var.log | head -12 | cut -c1-250
el "tune killed"
timeout 24 stdbuf -oL build/bin/kp tune -o $R/inc.tune --dtypes bf16 --shapes build/carry/tinc.txt --reps 10 > $R/inc.log 2>&1
echo "inc rc=$? lines=$(grep -c ' softmax_' $R/inc.tune 2>/dev/null) keys=$(awk '/^softmax/{print $3}' $R/inc.tune 2>/dev/null | sort -u | tr '\n' ' ')"
grep -E "default .* best|elapsed" $R/inc.log | cut -c1-160
el "tune"
timeout $(left 330) stdbuf -oL build/bin/kp tune -o $R/t2.tune --dtypes bf16 --shapes build/carry/t2.txt \
  --reps 10 --time-budget 240 > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default .* best" $R/tune.log | cut -c1-200
S="softmax_bf16_stage_t512_v8_u2_s48|softmax_f16_stage_t512_v8_u2_s48|softmax_bf16_stage_t256_v8_u2_s32|add_rmsnorm_bf16_stage_t256_v8_u2_s20_c2|add_rmsnorm_f16_stage_t512_v8_u2_s24_c2|rmsnorm_swiglu_bf16_block_t512_v8_n3"
el "memcheck"; san memcheck variants_gpu "$S" memcheck.log 440
el "racecheck"; san racecheck variants_gpu "$S" racecheck.log 570
lanes_finish
