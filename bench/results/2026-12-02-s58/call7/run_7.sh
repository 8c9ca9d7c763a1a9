#!/bin/bash
# fifty-eighth session, call 7: the final packs (`_ws` no longer ranked:
# the scalar-tail warp rows take odd 513-1024 at every row count) -- float64
# over the changed variants; side by side in turns with main's pack at
# 513-1024; ops_gpu
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
old_pack || exit 1
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu \
  KP_TEST_ONLY="_ws_|warp_v8_n4|warp_v8_n6|rmsnorm_f32_block_t128_v4_n1" \
  timeout $(left 50) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases|ran no" $R/var.log | head -8 | cut -c1-300
el "ab"
ab ab rmsnorm bf16 131072x513,131072x640,131072x768,16384x640,16384x1001,131072x1001 2 120
el "ops"
gpu_suite ops.log 150 ops_gpu
lanes_finish
