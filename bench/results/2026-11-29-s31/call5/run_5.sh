#!/bin/bash
# Thirty-first session, call 5: the new RMSNorm+SwiGLU rankings (warp rows
# of U 8 for 513-1024, U 4 for 1025-1920; the 128-thread pairs loop for
# 1921-3072, of U 8 for 3073-4608; 256 threads of U 8 for 4609-6144):
# - variants_gpu over every RMSNorm+SwiGLU variant (every dtype) against
#   float64; ops_gpu and graph_gpu (the picks);
# - RMSNorm+SwiGLU side by side at the odd lengths the change touched.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY=rmsnorm_swiglu \
  timeout $(left 90) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:" $R/var.log | head -4 | cut -c1-250
gpu_suite ops.log 150 ops_gpu
gpu_suite graph.log 190 graph_gpu
el "side by side"
timeout $(left 420) python3 bench/side_by_side.py --ops rmsnorm_swiglu \
  --shapes 131072x1001,65536x2001,32768x3001,16384x4097,16384x6001,8192x11007 \
  --json $R/side.json 2>&1 | grep -vE "$F" > $R/side.log; echo "side rc=$?"
grep -E "^(rmsnorm_sw|copy)|x[0-9]" $R/side.log | cut -c1-170 | head -20
lanes_finish
