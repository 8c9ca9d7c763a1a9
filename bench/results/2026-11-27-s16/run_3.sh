#!/bin/bash
# GPU call 3 (2026-11-27, sixteenth session): the code that lands (kp_shift16
# and the rankings for aligned long rows).  Lane 0: kp tune over the newly
# ranked shapes (shapes_c3.txt: default against best), the aligned long rows
# side by side (bench/shapes_aligned_long.txt), the odd sweep side by side,
# the Python GPU tests.  Lane 1: every GPU suite, synccheck over the stage
# variants.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "tune"
  timeout $(left 170) build/bin/kp tune --device 0 --families softmax,rmsnorm,rmsnorm_swiglu \
    --dtypes bf16 --shapes build/carry/shapes_c3.txt -o $R/c3.tune > $R/tune.log 2>&1
  echo "tune rc=$?"
  el "aligned long rows"
  timeout $(left 260) python3 bench/side_by_side.py --shapes-file bench/shapes_aligned_long.txt \
    --ops softmax,rmsnorm,add_rmsnorm,rmsnorm_swiglu --json $R/side_aligned.json 2>&1 \
    | grep -vE "$F" > $R/side_aligned.log; echo "aligned rc=$?"
  el "odd sweep"
  timeout $(left 380) python3 bench/side_by_side.py --shapes-file bench/shapes_odd.txt \
    --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log; echo "odd rc=$?"
  el "python"; (cd python && timeout $(left 420) python3 tests/run_tests.py > $R/python_gpu.log 2>&1; echo "python rc=$? $(tail -1 $R/python_gpu.log)")
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  for s in ops_gpu variants_gpu graph_gpu api jit regen concurrency gemm_gpu attention_gpu; do
    gpu_suite t_$s.log 330 $s
  done
  el "sanitizers"
  san synccheck variants_gpu "_stage_" san_synccheck.log 420
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
grep -E "^(softmax|rmsnorm|add_|swiglu|geglu|rope)" $R/side_aligned.log $R/side_odd.log | cut -c1-130
lanes_finish
