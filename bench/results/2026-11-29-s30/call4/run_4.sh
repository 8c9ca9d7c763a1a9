#!/bin/bash
# Thirtieth session, call 4: RMSNorm+SwiGLU's math in fewer instructions
# (every variant: (a ga)(b gb) / (i + i 2^(c a ga))), its 4-byte-grid write
# pass stepped and unguarded (rmsnorm_swiglu_pstep), a warp a row ranked for
# 513-1536.  float64 over every RMSNorm+SwiGLU variant, the op suite,
# memcheck and racecheck over the pairs loops, kp tune, the side by side.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
el "float64 every rmsnorm_swiglu variant"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY=rmsnorm_swiglu \
  timeout $(left 100) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"; grep -E "Checks|:[EF]:" $R/var.log | head -4 | cut -c1-250
el "ops_gpu, graph_gpu"
gpu_suite ops.log 160 ops_gpu
gpu_suite graph.log 190 graph_gpu
san memcheck variants_gpu "loop_warp_r|_pairs_p" mem.log 260
san racecheck variants_gpu "loop_warp_r|_pairs_p" race.log 330
cat > $R/shapes.txt <<'S'
rmsnorm_swiglu 131072 1001
rmsnorm_swiglu 98304 1501
rmsnorm_swiglu 65536 2001
rmsnorm_swiglu 32768 3001
rmsnorm_swiglu 16384 4097
rmsnorm_swiglu 8192 11007
rmsnorm_swiglu 131072 1000
rmsnorm_swiglu 32768 8192
S
el "tune"
timeout $(left 450) build/bin/kp tune --device 0 --families rmsnorm_swiglu \
  --dtypes bf16 --shapes $R/shapes.txt -o $R/t.tune > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default" $R/tune.log | cut -c1-220
el "side by side"
timeout $(left 585) python3 bench/side_by_side.py --ops rmsnorm_swiglu --shapes-file bench/shapes_odd.txt \
  --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log; echo "odd rc=$?"
grep -E "^rmsnorm_sw" $R/side_odd.log | cut -c1-150
timeout $(left 595) python3 bench/side_by_side.py --ops rmsnorm_swiglu --shapes 32768x8192,131072x1000 \
  --json $R/side_al.json 2>&1 | grep -vE "$F" > $R/side_al.log; echo "al rc=$?"
grep -E "^rmsnorm_sw" $R/side_al.log | cut -c1-150
lanes_finish
