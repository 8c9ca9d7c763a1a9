#!/bin/bash
# Thirty-third session, call 6: the final RMSNorm+SwiGLU picks on sm_90a
# (`_blk` image warps for 513-896 and 1281-8192).
# - memcheck, racecheck, synccheck (--num-cuda-barriers 65536) over every
#   `_blk` variant; float64 over every RMSNorm+SwiGLU variant; ops_gpu,
#   graph_gpu;
# - side by side: the odd sweep (bench/shapes_odd.txt, every op) and
#   RMSNorm+SwiGLU at 8192 x 7001, 16384 x 8001, 32768 x 4097.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
san memcheck variants_gpu _blk mem.log 40
san racecheck variants_gpu _blk race.log 80
SAN_OPTS="--num-cuda-barriers 65536" san synccheck variants_gpu _blk sync.log 120
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY='rmsnorm_swiglu' \
  timeout $(left 150) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|ran no" $R/var.log | head -3 | cut -c1-250
gpu_suite ops.log 200 ops_gpu
gpu_suite graph.log 240 graph_gpu
el "side rmsnorm_swiglu"
timeout $(left 320) python3 bench/side_by_side.py --ops rmsnorm_swiglu \
  --shapes 32768x4097,8192x7001,16384x8001 \
  --json $R/side.json 2>&1 | grep -vE "$F" > $R/side.log; echo "side rc=$?"
grep -E "^rmsnorm_sw" $R/side.log | cut -c1-170
el "side odd"
timeout $(left 450) python3 bench/side_by_side.py --shapes-file bench/shapes_odd.txt \
  --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log; echo "side_odd rc=$?"
grep -E "^(softmax|rmsnorm|add_rms|swiglu|geglu|rope) " $R/side_odd.log | cut -c1-170
lanes_finish
