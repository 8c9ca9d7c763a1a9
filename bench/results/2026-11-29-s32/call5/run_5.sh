#!/bin/bash
# Thirty-second session, call 5: the new RMSNorm+SwiGLU picks on sm_90a
# (image warps: 16 x 2 of 1K for 513-1024, 8 x 3 of 1536 for 1025-1536, 8 x 3
# of 2K with 16-bit weights for 1537-2048).
# - float64 over every RMSNorm+SwiGLU variant; ops_gpu and graph_gpu;
# - side by side: the odd sweep (bench/shapes_odd.txt, every op) and
#   RMSNorm+SwiGLU at odd rows of 769-2001.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY='rmsnorm_swiglu' \
  timeout $(left 80) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:" $R/var.log | head -3 | cut -c1-250
gpu_suite ops.log 140 ops_gpu
gpu_suite graph.log 180 graph_gpu
el "side rmsnorm_swiglu"
timeout $(left 260) python3 bench/side_by_side.py --ops rmsnorm_swiglu \
  --shapes 131072x769,131072x1001,131072x1201,98304x1501,65536x1801,65536x2001 \
  --json $R/side.json 2>&1 | grep -vE "$F" > $R/side.log; echo "side rc=$?"
grep -E "^rmsnorm_sw" $R/side.log | cut -c1-170
el "side odd"
timeout $(left 540) python3 bench/side_by_side.py --shapes-file bench/shapes_odd.txt \
  --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log; echo "side_odd rc=$?"
grep -E "^(softmax|rmsnorm|add_rms|swiglu|geglu|rope) " $R/side_odd.log | cut -c1-170
lanes_finish
