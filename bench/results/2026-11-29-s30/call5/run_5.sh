#!/bin/bash
# Thirtieth session, call 5: RMSNorm+SwiGLU's new rankings (a warp a row
# capped at 48 registers for 513-2048, the 4-byte-grid loop of 512 threads for
# 8193-16384) and the warp rows' write pass loading both words of every pair
# (no predicated loads).  float64 over every RMSNorm+SwiGLU variant, memcheck
# and racecheck over the pairs loops, the op suite; the picks under kp tune,
# the odd sweep side by side, the aligned rows beside it.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
el "float64 every rmsnorm_swiglu variant"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY=rmsnorm_swiglu \
  timeout $(left 100) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"; grep -E "Checks|:[EF]:" $R/var.log | head -4 | cut -c1-250
gpu_suite ops.log 150 ops_gpu
san memcheck variants_gpu "loop_warp_r|_pairs_p" mem.log 220
san racecheck variants_gpu "loop_warp_r|_pairs_p" race.log 280
cat > $R/shapes.txt <<'S'
rmsnorm_swiglu 131072 1001
rmsnorm_swiglu 98304 1501
rmsnorm_swiglu 65536 2001
rmsnorm_swiglu 8192 11007
rmsnorm_swiglu 4096 16001
S
el "tune"
timeout $(left 420) build/bin/kp tune --device 0 --families rmsnorm_swiglu \
  --dtypes bf16 --shapes $R/shapes.txt -o $R/t.tune > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default" $R/tune.log | cut -c1-220
el "side by side"
timeout $(left 560) python3 bench/side_by_side.py --ops rmsnorm_swiglu --shapes-file bench/shapes_odd.txt \
  --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log; echo "odd rc=$?"
grep -E "^rmsnorm_sw" $R/side_odd.log | cut -c1-150
timeout $(left 590) python3 bench/side_by_side.py --ops rmsnorm_swiglu --shapes 32768x8192,131072x1000 \
  --json $R/side_al.json 2>&1 | grep -vE "$F" > $R/side_al.log; echo "al rc=$?"
grep -E "^rmsnorm_sw" $R/side_al.log | cut -c1-150
lanes_finish
