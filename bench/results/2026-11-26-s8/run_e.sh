#!/bin/bash
# GPU call E (2026-11-26, eighth session): what lands. Lane 0: the full GPU suite, then
# decode beside SDPA three times, the Python GPU tests; lane 1: racecheck, then synccheck, over the split-KV
# decode (`_sk`, the merge spread over warps and lanes).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: full suite"; gpu_suite tests.log 330
  for i in 1 2 3; do
    el "lane0: decode $i"
    timeout 30 python3 bench/attn_bench.py --decode-only --reps 30 --json $R/decode$i.json 2>&1 | grep -vE "$F" > $R/decode$i.log; echo "decode rc=$?"
  done
  el "lane0: python"
  CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 timeout $(left 430) python3 python/tests/run_gpu.py > $R/python_gpu.log 2>&1; echo "python rc=$?"; tail -2 $R/python_gpu.log
  el "lane0 done"
}
lane1() {
  GPU=1
  san racecheck attention_gpu _sk san_sk_racecheck.log 300
  san synccheck attention_gpu _sk san_sk_synccheck.log 420
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE "decode:" $R/decode?.log
lanes_finish
