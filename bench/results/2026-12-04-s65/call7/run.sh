#!/bin/bash
# s65 call 7: memcheck over the sixty-fourth session's final staged kernels
# (its memcheck ran on a form not kept): the RMSNorm+SwiGLU picks at 16385
# and 18943, and one staged variant of each other family.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
san memcheck variants_gpu 'rmsnorm_swiglu_bf16_stage_t256_v8_u2_s17_c2_pairs|rmsnorm_swiglu_f16_stage_t256_v8_u2_s20_c2_pairs|add_rmsnorm_f32_stage_t512_v4_u2_s32_c2' mem.log 150
grep -E "cases|Checks" "$R/mem.log" | head -6
lanes_finish
