#!/bin/bash
# GPU call 2 (2026-11-27, sixteenth session): shifted 16-byte reads from two
# aligned chunks (kp_shift16: the staged images and the global inputs at
# another residue than the output's).  Lane 0: variants_gpu (every variant,
# every residue), then kp tune over odd rows and aligned 151936
# (shapes_c2.txt).  Lane 1: the odd sweep side by side, ops_gpu, then
# memcheck over the stage and peeling variants, racecheck over the stage
# variants.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  gpu_suite t_variants_gpu.log 120 variants_gpu
  el "tune"
  timeout $(left 420) build/bin/kp tune --device 0 --families softmax,rmsnorm,add_rmsnorm,rmsnorm_swiglu \
    --dtypes bf16 --shapes build/carry/shapes_c2.txt -o $R/c2.tune > $R/tune.log 2>&1
  echo "tune rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  el "odd sweep"
  timeout $(left 200) python3 bench/side_by_side.py --shapes-file bench/shapes_odd.txt \
    --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log; echo "odd rc=$?"
  gpu_suite t_ops_gpu.log 300 ops_gpu
  el "sanitizers"
  san memcheck variants_gpu "_stage_|_p" san_memcheck.log 450
  san racecheck variants_gpu "_stage_" san_racecheck.log 540
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
P0=$!
lane1 > $R/lane1.log 2>&1 &
P1=$!
wait $P0 $P1
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/t_*.log $R/san*.log | head
grep -E "default" $R/tune.log
grep -E "^(softmax|rmsnorm|add_|swiglu|geglu|rope)" $R/side_odd.log | cut -c1-130
lanes_finish
