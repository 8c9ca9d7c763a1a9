#!/bin/bash
# GPU call 4 for branch `next` (2026-11-26, tenth session): the `_pc` variants
# after their register fix (call 3 hung in them: setmaxnreg asked for more
# than the CTA's pool). Lane 0: attention_gpu over `_pc`, then the causal
# prefill with `_pc` pinned beside the default picks; lane 1: memcheck and
# synccheck over `_pc`.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: attention_gpu _pc"; KP_TEST_ONLY=_pc gpu_suite att_pc.log 120 attention_gpu
  el "lane0: causal pinned"
  timeout $(left 290) python3 bench/attn_bench.py --no-decode --reps 20 --variants '_pc$' --json $R/prefill_pc.json 2>&1 | grep -vE "$F" > $R/prefill_pc.log; echo "prefill rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1
  san memcheck attention_gpu _pc san_pc_memcheck.log 170
  san synccheck attention_gpu _pc san_pc_synccheck.log 290
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE "_pc: [0-9]+ cases|Checks" $R/att_pc.log
grep -E "True|best at" $R/prefill_pc.log | head -30
lanes_finish
