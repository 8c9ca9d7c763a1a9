#!/bin/bash
# GPU call 1 (2026-11-27, fifteenth session): softmax and rmsnorm rows staged
# in shared memory by bulk copies (`_stage_` variants, sm_90a, for the tuner).
# Lane 0: kp tune over the long odd rows (every variant timed).  Lane 1:
# variants_gpu (every variant, every residue), memcheck / racecheck /
# synccheck over the stage variants, ops_gpu.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "tune"
  timeout $(left 420) build/bin/kp tune --device 0 --families softmax,rmsnorm --dtypes bf16 \
    --shapes build/carry/shapes_c1.txt -o $R/c1.tune > $R/tune.log 2>&1; echo "tune rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  gpu_suite t_variants_gpu.log 200 variants_gpu
  el "sanitizers"
  san memcheck variants_gpu "_stage_" san_memcheck.log 320
  san racecheck variants_gpu "_stage_" san_racecheck.log 420
  san synccheck variants_gpu "_stage_" san_synccheck.log 480
  gpu_suite t_ops_gpu.log 540 ops_gpu
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
P0=$!
lane1 > $R/lane1.log 2>&1 &
P1=$!
wait $P0 $P1
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/t_*.log $R/san*.log | head
grep -vE "^#|^[a-z_]+ =" $R/c1.tune | head -3
lanes_finish
