#!/bin/bash
# Thirty-second session, call 3: RMSNorm+SwiGLU's image warps ranked on
# sm_90a (16 x 2 of 1K for 513-1024 outputs, 8 x 3 of 1536 for 1025-1536).
# - float64 over every RMSNorm+SwiGLU variant; ops_gpu and graph_gpu on the
#   picks;
# - kp tune (reps 9) over rows of 256-32768 at 1001 and 1501 outputs (where a
#   persistent grid of 32 or 24 warps an SM stops filling the GPU);
# - side by side against PyTorch on odd rows of 521-2001.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY='rmsnorm_swiglu' \
  timeout $(left 80) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:" $R/var.log | head -3 | cut -c1-250
gpu_suite ops.log 140 ops_gpu
gpu_suite graph.log 180 graph_gpu
for c in 1001 1501; do for r in 256 1024 2048 4096 8192 16384 32768; do
  echo "rmsnorm_swiglu $r $c"; done; done > $R/shapes.txt
el "tune"
timeout $(left 380) build/bin/kp tune --device 0 --families rmsnorm_swiglu --reps 9 \
  --dtypes bf16 --shapes $R/shapes.txt -o $R/c3.tune > $R/tune.log 2>&1
echo "tune rc=$?"
for s in $(awk '{print $3}' $R/c3.tune | grep x | sort -t x -k2,2n -k1,1n -u); do
  grep " $s " $R/c3.tune | sort -k6 -n | head -3 | awk '{print $3, $5, $6}'
  grep " $s " $R/c3.tune | grep -E "r16_p2_u4_1k_img|r8_p3_u4_1536_img|loop_warp_r4_v8_u(8|4)_pairs_p " | awk '{print "  ", $5, $6}'; done
el "side"

timeout $(left 520) python3 bench/side_by_side.py --ops rmsnorm_swiglu \
  --shapes 131072x521,131072x769,131072x1001,131072x1201,98304x1501,65536x2001 \
  --json $R/side.json 2>&1 | grep -vE "$F" > $R/side.log; echo "side rc=$?"
grep -E "^(rmsnorm_sw|copy)|x[0-9]|ours|compile" $R/side.log | cut -c1-170 | head -30
lanes_finish
