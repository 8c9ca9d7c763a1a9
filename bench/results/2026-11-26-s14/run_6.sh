#!/bin/bash
# GPU call 6 (2026-11-26, fourteenth session): the code that lands -- as
# call 5 plus rmsnorm_swiglu's 512 x 4 loop over 8 CTAs ranked past 64K
# outputs.  Lane 0: the odd-row sweep of every family side by side
# (torch.compile in), aligned long rmsnorm_swiglu rows, the default shapes of
# every family (no slower than before), the Python GPU tests.  Lane 1: every
# GPU suite.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "odd sweep"
  timeout $(left 250) python3 bench/side_by_side.py --shapes-file bench/shapes_odd.txt \
    --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log; echo "odd rc=$?"
  el "aligned long rmsnorm_swiglu, default shapes"
  timeout $(left 320) python3 bench/side_by_side.py --ops rmsnorm_swiglu --shapes 512x200000,1024x128256 \
    --no-compile --json $R/side_rsw_al.json 2>&1 | grep -vE "$F" > $R/side_rsw_al.log; echo "rsw al rc=$?"
  timeout $(left 400) python3 bench/side_by_side.py --json $R/side_default.json 2>&1 \
    | grep -vE "$F" > $R/side_default.log; echo "default rc=$?"
  el "python"; (cd python && timeout $(left 470) python3 tests/run_tests.py > $R/python_gpu.log 2>&1; echo "python rc=$? $(tail -1 $R/python_gpu.log)")
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  for s in ops_gpu variants_gpu graph_gpu api jit regen concurrency gemm_gpu attention_gpu; do
    gpu_suite t_$s.log 470 $s
  done
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
P0=$!
lane1 > $R/lane1.log 2>&1 &
P1=$!
wait $P0 $P1
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/t_*.log | head
grep -E "^(softmax|rmsnorm|add_|swiglu|geglu|rope)" $R/side_odd.log $R/side_rsw_al.log $R/side_default.log | cut -c1-160
lanes_finish
