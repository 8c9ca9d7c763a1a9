#!/bin/bash
# GPU call for branch `fa3-snake` (written 2026-11-26, tenth session, not yet
# run): the `_ps` variants (persistent FA3 for masked calls, tiles most keys
# first dealt out snake-wise, heads chunked to 16 MB of K and V;
# bench/attn_sched_model.py models 0.97-1.00 of
# even work against `_pc`'s 0.87-0.97). Lane 0: attention_gpu over `_ps`,
# then the causal prefill with `_pc` and `_ps` pinned beside the default
# picks (d128: `_pc`; d64: `_pc` up to 1K, the 192-row plain kernel past);
# lane 1: memcheck, synccheck over `_ps`. ~60 s of wall on two H100s.
# Copy to build/carry/ with the packs (bench/lanes.sh).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: attention_gpu _ps"; KP_TEST_ONLY=_ps gpu_suite att_ps.log 120 attention_gpu
  el "lane0: causal pinned"
  timeout $(left 290) python3 bench/attn_bench.py --no-decode --reps 20 --variants '_p[cs]$' --json $R/prefill_ps.json 2>&1 | grep -vE "$F" > $R/prefill_ps.log; echo "prefill rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1
  san memcheck attention_gpu _ps san_ps_memcheck.log 170
  san synccheck attention_gpu _ps san_ps_synccheck.log 290
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE "_ps: [0-9]+ cases|Checks" $R/att_ps.log
grep -E "True|best at" $R/prefill_ps.log | head -40
lanes_finish
