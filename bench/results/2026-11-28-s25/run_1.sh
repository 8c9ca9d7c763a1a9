#!/bin/bash
# Call 1 (twenty-fifth session): RMSNorm+SwiGLU's stage variants with the
# write pass on y's 4-byte grid (`_pairs`, rmsnorm_swiglu_stage_pairs):
# every stage variant against float64 at every residue, memcheck and
# racecheck over the new ones, then kp tune over the odd sweep and the
# aligned long rows (every variant timed).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
KP_TEST_ONLY="rmsnorm_swiglu_bf16_stage|rmsnorm_swiglu_f16_stage" gpu_suite t_variants.log 120 variants_gpu
grep -E "cases" $R/t_variants.log | head -5
el "tune"
timeout $(left 400) build/bin/kp tune --device 0 --families rmsnorm_swiglu --dtypes bf16 \
  --shapes build/carry/shapes_c1.txt -o $R/c1.tune > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default" $R/tune.log | cut -c1-200
el "sanitizers"
san memcheck variants_gpu "_stage_t512_v8_u2_s32_c2_pairs|_stage_t256_v8_u1_s16_pairs" san_memcheck.log 480
san racecheck variants_gpu "_stage_t512_v8_u2_s32_c2_pairs|_stage_t256_v8_u1_s16_pairs" san_racecheck.log 540
lanes_finish
