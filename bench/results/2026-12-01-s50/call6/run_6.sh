#!/bin/bash
# fiftieth session, call 6: an experimental sm_90a pack (0ca9489 plus
# RMSNorm+SwiGLU pairs stages over 2 CTAs of 256 threads with 17 / 18 / 22
# KiB slices, and its 16-byte-grid stages of 20 / 24 KiB over 2) -- float64
# over every RMSNorm+SwiGLU variant; memcheck / racecheck over the new
# ones; kp tune at odd 16385-21001 and aligned 18944 / 20480 outputs; then
# at each shape the tuner's best pinned (KP_VARIANT) against the default
# pick side by side, in turns, two rounds
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="rmsnorm_swiglu_" \
  timeout $(left 40) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases" $R/var.log | head -6 | cut -c1-250
export KP_TEST_TIMES=1
S="rmsnorm_swiglu_f32_block_t512_v4_n2|_stage_t256_v8_u2_s17_c2_pairs|_stage_t256_v8_u2_s18_c2_pairs|_stage_t256_v8_u2_s22_c2_pairs|bf16_stage_t256_v8_u2_s20_c2|f16_stage_t256_v8_u2_s24_c2"
el "memcheck"; san memcheck variants_gpu "$S" memcheck.log 70
el "racecheck"; san racecheck variants_gpu "$S" racecheck.log 100
el "tune"
timeout $(left 230) stdbuf -oL build/bin/kp tune -o $R/t6.tune --dtypes bf16 --shapes build/carry/t6.txt \
  --reps 10 --time-budget 125 > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default .* best" $R/tune.log | cut -c1-200
el "pinned"
for s in 4096x17001 4096x18001 4096x20481 4096x21001 4096x16385; do
  best=$(grep "^rmsnorm_swiglu bf16 $s " $R/t6.tune | sort -k6 -n | head -1 | awk '{print $5}')
  [ -z "$best" ] && continue
  for round in 1 2; do
    for pin in "" "$best"; do
      KP_VARIANT=$pin timeout $(left 280) python3 bench/side_by_side.py --ops rmsnorm_swiglu --shapes $s --no-compile \
        --reps 20 --warmup 4 > $R/pin_${s}_${round}_${pin:-default}.log 2>&1
      echo "$s r$round ${pin:-default}: $(grep -E '^ *rmsnorm_swiglu ' $R/pin_${s}_${round}_${pin:-default}.log | awk -F'|' '{print $6}')"
    done
  done
done
lanes_finish
