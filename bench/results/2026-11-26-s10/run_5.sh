#!/bin/bash
# GPU call 5 (2026-11-26, tenth session): main after merging `next`, with `_pc`
# now first for causal d128 (and d64 up to 1K). Lane 0: attention_gpu whole,
# then the Python GPU tests; lane 1: attn_bench's default table (prefill and
# decode at d128 and d64) on the new ranking.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: attention_gpu"; gpu_suite att.log 120 attention_gpu
  el "lane0: python"
  KP_REQUIRE_GPU=1 timeout $(left 225) python3 python/tests/run_gpu.py > $R/python_gpu.log 2>&1; echo "python rc=$?"; tail -1 $R/python_gpu.log
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  el "lane1: attn_bench"
  timeout $(left 150) python3 bench/attn_bench.py --decode-dims 128,64 --reps 20 --json $R/attn.json 2>&1 | grep -vE "$F" > $R/attn.log; echo "attn rc=$?"
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -E "^(bfloat16|float16)|decode:" $R/attn.log
lanes_finish
