#!/bin/bash
# GPU call D (2026-11-26, eighth session): the split-KV merge spread over the warps
# (rows) and lanes (partials); lane 0: decode pinned (c16, sk) and the default pick
# twice beside SDPA, ncu of sk at batch 1 paged; lane 1: decode checks, racecheck over
# _sk, GEMM checks (the TMA GEMV now ranked for n >= 8192) and the GEMM benchmark.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
NCU="ncu --section SpeedOfLight --section Occupancy --section LaunchStats --section SchedulerStats --section InstructionStats"
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: decode pinned"
  timeout 60 python3 bench/attn_bench.py --decode-only --reps 30 --variants 'bf16_d128_dec_w4x16_s3_(c16|sk)$' --json $R/decode_pinned.json 2>&1 | grep -vE "$F" > $R/decode_pinned.log; echo "pinned rc=$?"
  for i in 1 2; do
    el "lane0: decode $i"
    timeout 40 python3 bench/attn_bench.py --decode-only --reps 30 --json $R/decode$i.json 2>&1 | grep -vE "$F" > $R/decode$i.log; echo "decode rc=$?"
  done
  el "lane0: ncu"
  timeout 60 $NCU -k 'regex:attention_' python3 bench/ncu_attn.py 1 32 8 1 32768 128 --paged 16 > $R/ncu_dec1p_sk.log 2>&1; echo "ncu1p rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1
  el "lane1: checks"
  KP_TEST_ONLY=_dec_ gpu_suite tests_dec.log 60 attention_gpu
  san racecheck attention_gpu _sk san_sk_racecheck.log 150
  gpu_suite tests_gemm.log 200 gemm_gpu
  el "lane1: gemm bench"
  CUDA_VISIBLE_DEVICES=1 timeout $(left 280) python3 bench/gemm_bench.py --dtypes bf16 --json $R/gemm.json > $R/gemm.log 2>&1; echo "gemm rc=$?"
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -E " us|best" $R/decode_pinned.log | head
grep -hE "decode:" $R/decode?.log
grep -E '^  [a-zA-Z_].*\(|Duration|SM Active Cycles|Elapsed Cycles' $R/ncu_dec1p_sk.log | cut -c1-120 | head -24
grep -E "^bfloat16" $R/gemm.log
lanes_finish
