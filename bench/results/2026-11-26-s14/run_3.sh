#!/bin/bash
# GPU call 3 (2026-11-26, fourteenth session): the code that lands -- GLU
# calls over contiguous rows flattened to rows of <= 8192 (ops.c
# glu_flatten), the softmax picks past 16K moved to the U-vector loops,
# rmsnorm_swiglu's 4-byte-grid pass 2 ranked for odd rows of 513..16384
# (max_align: pack format 7).  Lane 0: the odd-row sweep side by side (every
# op, torch.compile in), aligned long GLU rows, the Python GPU tests.
# Lane 1: every GPU suite.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "odd sweep"
  timeout $(left 250) python3 bench/side_by_side.py --shapes-file bench/shapes_odd.txt \
    --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log; echo "odd rc=$?"
  el "aligned glu"
  timeout $(left 360) python3 bench/side_by_side.py --ops swiglu,geglu_tanh,geglu_erf \
    --shapes 32768x8192,4096x32000,1024x128256,512x200000 --json $R/side_glu_al.json 2>&1 \
    | grep -vE "$F" > $R/side_glu_al.log; echo "glu al rc=$?"
  el "python"; (cd python && timeout $(left 420) python3 tests/run_tests.py > $R/python_gpu.log 2>&1; echo "python rc=$? $(tail -1 $R/python_gpu.log)")
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  for s in ops_gpu variants_gpu graph_gpu api jit regen concurrency gemm_gpu attention_gpu; do
    gpu_suite t_$s.log 480 $s
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
grep -E "^(softmax|rmsnorm|add_|swiglu|geglu|rope)" $R/side_odd.log | cut -c1-150
grep -E "^(swiglu|geglu)" $R/side_glu_al.log | cut -c1-150
lanes_finish
