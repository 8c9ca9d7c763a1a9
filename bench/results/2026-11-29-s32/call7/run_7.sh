#!/bin/bash
# Thirty-second session, call 7: the image warps with 16-bit weights ranked
# for 1025-1280 (1280, 8 x 4), 2049-2560 (2560, 8 x 2) and 2561-3072 (3K,
# 8 x 2) on sm_90a.
# - float64 over every RMSNorm+SwiGLU variant; ops_gpu, graph_gpu;
# - side by side at odd rows of 1201-3001.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY='rmsnorm_swiglu' \
  timeout $(left 80) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:" $R/var.log | head -3 | cut -c1-250
gpu_suite ops.log 140 ops_gpu
gpu_suite graph.log 180 graph_gpu
el "side"
timeout $(left 240) python3 bench/side_by_side.py --ops rmsnorm_swiglu \
  --shapes 131072x1201,65536x2501,32768x3001 \
  --json $R/side.json 2>&1 | grep -vE "$F" > $R/side.log; echo "side rc=$?"
grep -E "^rmsnorm_sw" $R/side.log | cut -c1-170
lanes_finish
