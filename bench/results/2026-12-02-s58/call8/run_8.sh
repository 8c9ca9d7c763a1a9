#!/bin/bash
# fifty-eighth session, call 8: RMSNorm's blocks by the scalar-tail form
# (`_t`, the tuner's: 128 x 4 / 256 x 2 / 512 x 1 to 4103 columns, 256 x 6 /
# 512 x 3 to 12295) -- float64 over them; pinned in turns against the pick
# (the one-CTA stages) at odd 4097 and 11007, bf16
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu \
  KP_TEST_ONLY="block_t128_v8_n4_t|block_t256_v8_n2_t|block_t512_v8_n1_t|block_t256_v8_n6_t|block_t512_v8_n3_t|rmsnorm_f32_block_t128_v4_n1" \
  timeout $(left 35) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases|ran no" $R/var.log | head -8 | cut -c1-300
el "pins 4097"
pins p4 rmsnorm bf16 16384x4097,65536x4097 2 80 rmsnorm_bf16_stage_t128_v8_u2_s9 \
  rmsnorm_bf16_block_t128_v8_n4_t rmsnorm_bf16_block_t256_v8_n2_t rmsnorm_bf16_block_t512_v8_n1_t
el "pins 11007"
pins p11 rmsnorm bf16 8192x11007 1 100 rmsnorm_bf16_stage_t256_v8_u2_s24_wc \
  rmsnorm_bf16_block_t256_v8_n6_t rmsnorm_bf16_block_t512_v8_n3_t
lanes_finish
