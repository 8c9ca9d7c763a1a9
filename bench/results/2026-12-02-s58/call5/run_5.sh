#!/bin/bash
# fifty-eighth session, call 5: RMSNorm rows with their tail elements as
# scalars a lane each (`_t`: every vector whole or absent) -- float64 over
# every `_t` and `_ws` (add+RMSNorm's warp rows too); pinned side by side in turns, bf16 two rounds
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu \
  KP_TEST_ONLY="_ws_|rmsnorm_bf16_warp_v8_n4|rmsnorm_f16_warp_v8_n4|warp_v8_n6|warp_v8_n8|rmsnorm_f32_block_t128_v4_n1" \
  timeout $(left 100) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases|ran no" $R/var.log | head -8 | cut -c1-300
el "pins 1001"
pins p1 rmsnorm bf16 131072x1001,65536x1001,16384x1001,131072x777,131072x1000 2 260 \
  rmsnorm_bf16_ws_v8_n4_r16_p2 rmsnorm_bf16_ws_v8_n4_r16_p2_t rmsnorm_bf16_ws_v8_n4_r8_p5_t \
  rmsnorm_bf16_ws_v8_n4_r4_p10_t rmsnorm_bf16_warp_v8_n4 rmsnorm_bf16_warp_v8_n4_t
el "pins 2001"
pins p2 rmsnorm bf16 65536x1501,65536x2001,65536x2047 2 360 \
  rmsnorm_bf16_warp_v8_n8 rmsnorm_bf16_warp_v8_n8_t
el "pins 1501"
pins p3 rmsnorm bf16 65536x1501,65536x1201 2 400 rmsnorm_bf16_warp_v8_n6 rmsnorm_bf16_warp_v8_n6_t
el "pins add"
pins a1 add_rmsnorm bf16 131072x1001,65536x1001,16384x1001,131072x1000 2 470 \
  add_rmsnorm_bf16_warp_v8_n4 add_rmsnorm_bf16_warp_v8_n4_t
pins a2 add_rmsnorm bf16 65536x1501,65536x1201 2 520 add_rmsnorm_bf16_warp_v8_n6 add_rmsnorm_bf16_warp_v8_n6_t
lanes_finish
