#!/bin/bash
# forty-eighth session, call 5: compute-sanitizer memcheck and racecheck over
# every variant the kp_st16 stores reach (add+RMSNorm's single-CTA staged
# kernels, softmax's register rows), float64 as the suite checks them
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
ONLY="add_rmsnorm_bf16_stage_t|add_rmsnorm_f16_stage_t|add_rmsnorm_f32_stage_t|softmax_bf16_warp|softmax_f16_warp|softmax_f32_warp|softmax_bf16_lanes|softmax_f16_lanes|softmax_f32_lanes|softmax_bf16_block|softmax_f16_block|softmax_f32_block"
el memcheck; san memcheck variants_gpu "$ONLY" memcheck.log 280
grep -E "cases|variants" $R/memcheck.log | head -6 | cut -c1-200
el racecheck; san racecheck variants_gpu "$ONLY" racecheck.log 560
grep -E "cases|variants" $R/racecheck.log | head -6 | cut -c1-200
el end
lanes_finish
