#!/bin/bash
# The next session's first GPU call, written at the end of the sixteenth
# (2026-11-27), whose device time ran out: (lane 0) kp tune over odd rows
# of 4K-80K (shapes_odd_mid.txt beside this script), where the register
# loops and the stage variants were close before the stage kernels'
# stepped pointers (bench/NOTES.md 46) -- the ranking may move; then the
# odd sweep side by side.  (lane 1) every GPU suite, synccheck over the
# stage variants (last run before kp_opaque), the Python GPU tests.
# Copy this script and shapes_odd_mid.txt to build/carry/ first.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "tune odd 4K-80K"
  timeout $(left 240) build/bin/kp tune --device 0 --families softmax,rmsnorm,add_rmsnorm,rmsnorm_swiglu \
    --dtypes bf16 --shapes build/carry/shapes_odd_mid.txt -o $R/odd_mid.tune > $R/tune.log 2>&1
  echo "tune rc=$?"
  el "odd sweep"
  timeout $(left 360) python3 bench/side_by_side.py --shapes-file bench/shapes_odd.txt \
    --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log; echo "odd rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  for s in ops_gpu variants_gpu graph_gpu api jit regen concurrency gemm_gpu attention_gpu; do
    gpu_suite t_$s.log 330 $s
  done
  san synccheck variants_gpu "_stage_" san_synccheck.log 420
  el "python"; (cd python && timeout $(left 450) python3 tests/run_tests.py > $R/python_gpu.log 2>&1; echo "python rc=$? $(tail -1 $R/python_gpu.log)")
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
P0=$!
lane1 > $R/lane1.log 2>&1 &
P1=$!
wait $P0 $P1
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/t_*.log $R/san*.log | head
grep default $R/tune.log
grep -E "^(softmax|rmsnorm|add_|swiglu|geglu|rope)" $R/side_odd.log | cut -c1-160
lanes_finish
