#!/bin/bash
# Fifty-ninth session, call 2: the `_rw2` / `_rs2` warp rows (a warp's 2 rows
# 8 apart, w kept in registers / shared memory) pinned side by side in
# turns against the picks where call 1's kp tune put them ahead: add+RMSNorm
# odd 513-777, 16384 x 1001; RMSNorm at 513 / 777 (call 1's tune ran out
# before them).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "add bf16"
pins add add_rmsnorm bf16 131072x513,131072x601,131072x777,65536x1001,16384x1001 2 200 \
  add_rmsnorm_bf16_warp_v8_n4 add_rmsnorm_bf16_warp_v8_n4_t_rs2 add_rmsnorm_bf16_warp_v8_n4_t_rw2
el "rms bf16"
pins rms rmsnorm bf16 131072x513,131072x601,131072x777,16384x1001 2 330 \
  rmsnorm_bf16_warp_v8_n4_t rmsnorm_bf16_warp_v8_n4_t_rs2 rmsnorm_bf16_warp_v8_n4_t_rw2
el "add f16"
pins add16 add_rmsnorm f16 131072x513,131072x601,131072x777 1 420 \
  add_rmsnorm_f16_warp_v8_n4 add_rmsnorm_f16_warp_v8_n4_t_rs2
lanes_finish
