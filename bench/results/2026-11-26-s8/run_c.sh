#!/bin/bash
# GPU call C (2026-11-26, eighth session): the split-KV decode over a caller-given
# workspace (`_sk`). Lane 0: decode checks (every variant), decode pinned beside SDPA
# (c16 and sk; three runs of the default pick), ncu of sk at batch 8 and paged batch 1;
# lane 1: attention GPU suite, memcheck + racecheck over _sk, Python GPU tests.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
NCU="ncu --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section InstructionStats"
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: decode checks"
  KP_TEST_ONLY=_dec_ gpu_suite tests_dec.log 90 attention_gpu
  el "lane0: decode pinned"
  timeout 90 python3 bench/attn_bench.py --decode-only --reps 30 --variants 'bf16_d128_dec_w4x16_s3_(c16|sk)$' --json $R/decode_pinned.json 2>&1 | grep -vE "$F" > $R/decode_pinned.log; echo "pinned rc=$?"
  for i in 1 2 3; do
    el "lane0: decode $i"
    timeout 40 python3 bench/attn_bench.py --decode-only --reps 30 --json $R/decode$i.json 2>&1 | grep -vE "$F" > $R/decode$i.log; echo "decode rc=$?"
  done
  el "lane0: ncu"
  timeout 60 $NCU -k 'regex:attention_' -c 1 python3 bench/ncu_attn.py 8 32 8 1 32768 128 > $R/ncu_dec8_sk.log 2>&1; echo "ncu8 rc=$?"
  timeout 60 $NCU -k 'regex:attention_' python3 bench/ncu_attn.py 1 32 8 1 32768 128 --paged 16 > $R/ncu_dec1p_sk.log 2>&1; echo "ncu1p rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1
  el "lane1: attention suite"
  gpu_suite tests_attn.log 200 attention_gpu
  san memcheck attention_gpu _sk san_sk_memcheck.log 300
  san racecheck attention_gpu _sk san_sk_racecheck.log 420
  el "lane1: python"
  CUDA_VISIBLE_DEVICES=1 KP_REQUIRE_GPU=1 timeout $(left 520) python3 python/tests/run_gpu.py > $R/python_gpu.log 2>&1; echo "python rc=$?"; tail -2 $R/python_gpu.log
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -E " us|best" $R/decode_pinned.log | head
grep -hE "decode:" $R/decode?.log
for f in $R/ncu_dec8_sk.log $R/ncu_dec1p_sk.log; do
  grep -E '^  [a-zA-Z_].*\(|Duration|DRAM Throughput|L2 Cache Throughput|SM Active Cycles|Elapsed Cycles|Achieved Active|Issued Warp|Executed Instructions  ' $f | cut -c1-120 | head -24
done
lanes_finish
