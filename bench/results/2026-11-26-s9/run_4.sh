#!/bin/bash
# GPU call 4 (2026-11-26, ninth session): what lands (the one-pass merge), plus _sk1 (the
# split-KV decode at one CTA an SM) to compare at batch 1. Lane 0: attention_gpu over
# _sk1, pinned c16 / sk / sk1 (d128, d64), ncu of each at batch 1 d128, the GEMM and
# prefill benchmarks for the record; lane 1: racecheck over the d128 _sk and _sk1.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
M=sm__cycles_active.min,sm__cycles_active.max,sm__cycles_active.avg,sm__cycles_elapsed.max,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: attention_gpu _sk1"; KP_TEST_ONLY=_sk1 gpu_suite tests_sk1.log 90 attention_gpu
  el "lane0: pinned"
  timeout 70 python3 bench/attn_bench.py --decode-only --decode-dims 128,64 --reps 30 --variants '_dec_w4x16_s3_(c16|sk|sk1)$' --json $R/decode_pinned.json 2>&1 | grep -vE "$F" > $R/decode_pinned.log; echo "pinned rc=$?"
  for v in c16 sk sk1; do
    KP_VARIANT=attention_bf16_d128_dec_w4x16_s3_$v timeout 30 ncu --clock-control none --metrics $M -k 'regex:attention_' python3 bench/ncu_attn.py 1 32 8 1 32768 128 > $R/ncu_dec1_$v.log 2>&1; echo "ncu $v rc=$?"
  done
  el "lane0: gemm"
  timeout 60 python3 bench/gemm_bench.py --dtypes bf16 --json $R/gemm.json > $R/gemm.log 2>&1; echo "gemm rc=$?"
  el "lane0: prefill"
  timeout $(left 320) python3 bench/attn_bench.py --reps 20 --json $R/attn.json 2>&1 | grep -vE "$F" > $R/attn.log; echo "attn rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1
  san racecheck attention_gpu d128_dec_w4x16_s3_sk san_sk_racecheck.log 330
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -E " us|best" $R/decode_pinned.log | head -16
grep -E "gpu__time|sm__cycles_active.m" $R/ncu_dec1_*.log | head -30
grep -E "^bfloat16" $R/gemm.log
grep -E "^bf|decode:" $R/attn.log
lanes_finish
