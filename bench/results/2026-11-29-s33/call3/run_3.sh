#!/bin/bash
# Thirty-third session, call 3: the new RMSNorm+SwiGLU picks on sm_90a (the
# bulk-copy image warps `_blk` for 513-896 and 1281-6144; the `_db` variants
# of call 2 removed).
# - float64 over every RMSNorm+SwiGLU variant; synccheck over every `_blk`
#   variant (call 2's synccheck overflowed its barrier tracking with the
#   `_db` variants in); ops_gpu and graph_gpu;
# - side by side: RMSNorm+SwiGLU at odd rows of 521-6001.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY='rmsnorm_swiglu' \
  timeout $(left 80) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|ran no" $R/var.log | head -3 | cut -c1-250
san synccheck variants_gpu _blk sync.log 120
grep -E "Warning|ABORT" $R/sync.log | head -3 | cut -c1-200
gpu_suite ops.log 200 ops_gpu
gpu_suite graph.log 240 graph_gpu
el "side rmsnorm_swiglu"
timeout $(left 500) python3 bench/side_by_side.py --ops rmsnorm_swiglu \
  --shapes 131072x521,131072x769,131072x1001,131072x1201,98304x1501,65536x1801,65536x2001,65536x2501,65536x3001,32768x3501,16384x4097,32768x5001,16384x6001 \
  --json $R/side.json 2>&1 | grep -vE "$F" > $R/side.log; echo "side rc=$?"
grep -E "^rmsnorm_sw" $R/side.log | cut -c1-170
lanes_finish
