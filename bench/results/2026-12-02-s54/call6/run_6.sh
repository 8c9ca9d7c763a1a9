#!/bin/bash
# fifty-fourth session, call 6: the committed code (5443a9d: kp_pers_*
# shared by both `_pers` families) -- float64 over every `_pers` and every
# RMSNorm / RMSNorm+SwiGLU variant, racecheck over two `_pers`, ops_gpu
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="rmsnorm_bf16|rmsnorm_f16|rmsnorm_f32|rmsnorm_swiglu" \
  timeout $(left 150) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases|ran no" $R/var.log | head -12 | cut -c1-300
el "racecheck"; san racecheck variants_gpu "rmsnorm_bf16_pers_t512_b3_w3200_c8|rmsnorm_swiglu_f16_pers_t512_b3_s25_c4|rmsnorm_f32_block_t128_v4_n1" racecheck.log 330
gpu_suite ops.log 420 ops_gpu
lanes_finish
