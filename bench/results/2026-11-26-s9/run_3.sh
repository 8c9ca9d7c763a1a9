#!/bin/bash
# GPU call 3 (2026-11-26, ninth session): the split-KV decode's last CTA merges the
# partials in one pass (a running max; loads 16 partials ahead), static shares as in
# 5da62da (call 2's dynamic blocks reverted: no faster, and not deterministic).
# Lane 0: attention_gpu, decode beside SDPA (d128, d64; twice), pinned sk vs c16, the
# Python GPU tests, four suites; lane 1: sanitizers over _sk, the other suites.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
M=sm__cycles_active.min,sm__cycles_active.max,sm__cycles_active.avg,sm__cycles_elapsed.max,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: attention_gpu"; gpu_suite tests_attention_gpu.log 130 attention_gpu
  for i in 1 2; do
    el "lane0: decode $i"
    timeout 60 python3 bench/attn_bench.py --decode-only --decode-dims 128,64 --reps 30 --json $R/decode$i.json 2>&1 | grep -vE "$F" > $R/decode$i.log; echo "decode rc=$?"
  done
  el "lane0: pinned"
  timeout 60 python3 bench/attn_bench.py --decode-only --decode-dims 128,64 --reps 30 --variants '_dec_w4x16_s3_(c16|sk)$' --json $R/decode_pinned.json 2>&1 | grep -vE "$F" > $R/decode_pinned.log; echo "pinned rc=$?"
  timeout 40 ncu --clock-control none --metrics $M -k 'regex:attention_' python3 bench/ncu_attn.py 1 32 8 1 32768 128 > $R/ncu_dec1.log 2>&1; echo "ncu1 rc=$?"
  el "lane0: python"
  KP_REQUIRE_GPU=1 timeout $(left 380) python3 python/tests/run_gpu.py > $R/python_gpu.log 2>&1; echo "python rc=$?"; tail -2 $R/python_gpu.log
  for s in graph_gpu api ops_gpu variants_gpu; do el "$s"; gpu_suite tests_$s.log 470 $s; done
  el "lane0 done"
}
lane1() {
  GPU=1
  san racecheck attention_gpu _sk san_sk_racecheck.log 230
  san synccheck attention_gpu _sk san_sk_synccheck.log 300
  san memcheck attention_gpu _sk san_sk_memcheck.log 370
  for s in jit gemm_gpu concurrency regen; do el "$s"; gpu_suite tests_$s.log 470 $s; done
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE "decode:|^bfloat16" $R/decode?.log
grep -E " us|best" $R/decode_pinned.log | head -12
grep -E "gpu__time|sm__cycles_active.m" $R/ncu_dec1.log | head -9
lanes_finish
