#!/bin/bash
# forty-seventh session, call 13: the landed `_pairs_wp` (call 12's code
# under its name): float64 over every `_wp` variant, ops_gpu and graph_gpu,
# and the default picks side by side at the rows they take
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="_pairs_wp" \
  timeout $(left 90) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|left out" $R/var.log | head -6 | cut -c1-250
gpu_suite ops.log 200 ops_gpu
gpu_suite graph.log 260 graph_gpu
el "side by side"
timeout $(left 330) python3 bench/side_by_side.py --ops rmsnorm_swiglu --shapes 512x199999,1024x199999,512x170001 \
  --no-compile --reps 40 --warmup 5 > $R/sbs.log 2>&1
echo "sbs rc=$?"; grep -E '^ *rmsnorm_swiglu ' $R/sbs.log | cut -c1-150
el end
lanes_finish
