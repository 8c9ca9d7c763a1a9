#!/bin/bash
# GPU call 3 (2026-11-27, fifteenth session): softmax and rmsnorm `_stage_`
# variants ranked for 16-bit rows off the grid (max_align 8); add_rmsnorm
# `_stage_` variants (two images) for the tuner.  Lane 0: kp tune over the
# odd add_rmsnorm rows, the odd-row sweep of every family side by side
# (torch.compile in), the default shapes, the Python GPU tests.  Lane 1:
# every GPU suite, then memcheck / synccheck / racecheck over the stage
# variants.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "tune"
  timeout $(left 200) build/bin/kp tune --device 0 --families add_rmsnorm --dtypes bf16 \
    --shapes build/carry/shapes_c3.txt -o $R/c3.tune > $R/tune.log 2>&1; echo "tune rc=$?"
  el "odd sweep"
  timeout $(left 360) python3 bench/side_by_side.py --shapes-file bench/shapes_odd.txt \
    --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log; echo "odd rc=$?"
  el "default shapes"
  timeout $(left 420) python3 bench/side_by_side.py --json $R/side_default.json 2>&1 \
    | grep -vE "$F" > $R/side_default.log; echo "default rc=$?"
  el "python"; (cd python && timeout $(left 470) python3 tests/run_tests.py > $R/python_gpu.log 2>&1; echo "python rc=$? $(tail -1 $R/python_gpu.log)")
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  for s in ops_gpu variants_gpu graph_gpu api jit regen concurrency gemm_gpu attention_gpu; do
    gpu_suite t_$s.log 330 $s
  done
  el "sanitizers"
  san memcheck variants_gpu "_stage_" san_memcheck.log 400
  san synccheck variants_gpu "_stage_" san_synccheck.log 460
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
grep -E "^(softmax|rmsnorm|add_|swiglu|geglu|rope)" $R/side_odd.log | cut -c1-160
lanes_finish
