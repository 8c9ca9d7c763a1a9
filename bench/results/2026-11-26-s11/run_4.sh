#!/bin/bash
# GPU call 4 of the eleventh session (2026-11-26): main as it lands (`_ps`
# first for masked calls, d64 in 128-row `_ps` tiles up to 1K, d128 `_pc` up
# to 1K and `_psx` above; GEMM 64x64 at m <= 128): the whole GPU suite split
# over the two GPUs (lane 0 attention_gpu, lane 1 the other GPU suites), the
# Python GPU tests, then the attention table (prefill and decode) and the
# GEMM table, each alone on its GPU (no sanitizer running beside them).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: attention_gpu"; gpu_suite att.log 200 attention_gpu
  el "lane0: python"; (cd python && timeout $(left 290) python3 tests/run_tests.py > $R/python_gpu.log 2>&1; echo "python rc=$? $(tail -1 $R/python_gpu.log)")
  while [ ! -e $R/tests1.done ] && [ $(left 380) -gt 5 ]; do sleep 2; done
  el "lane0: attention table"
  timeout $(left 520) python3 bench/attn_bench.py --reps 20 --json $R/attn.json 2>&1 | grep -vE "$F" > $R/attn.log; echo "attn rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  for s in ops_gpu jit concurrency variants_gpu gemm_gpu regen graph_gpu api; do
    gpu_suite t_$s.log 370 $s
  done
  touch $R/tests1.done
  el "lane1: gemm table"
  timeout $(left 520) python3 bench/gemm_bench.py --json $R/gemm.json 2>&1 | grep -vE "$F" > $R/gemm.log; echo "gemm rc=$?"
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -E "True|False" $R/attn.log | head -20
grep -E "^(bfloat16|float16)" $R/gemm.log | head -40
lanes_finish
