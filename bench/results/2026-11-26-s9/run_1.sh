#!/bin/bash
# GPU call 1 (2026-11-26, ninth session): main (5da62da, the tidy) + branch gemv-sk merged.
# Lane 0: the full GPU suite, the Python GPU tests; lane 1: ncu's SM-activity spread of the
# split-KV decode (b1, b8), sanitizers over the split GEMV (_sk_), memcheck over the
# decode's final merge, synccheck over the TMA GEMV, the GEMV variants side by side.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
M=sm__cycles_active.min,sm__cycles_active.max,sm__cycles_active.avg,sm__cycles_elapsed.max,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: full suite"; gpu_suite tests.log 330
  el "lane0: python"
  KP_REQUIRE_GPU=1 timeout $(left 420) python3 python/tests/run_gpu.py > $R/python_gpu.log 2>&1; echo "python rc=$?"; tail -2 $R/python_gpu.log
  el "lane0: gemm bench"
  timeout $(left 560) python3 bench/gemm_bench.py --dtypes bf16 --json $R/gemm.json > $R/gemm.log 2>&1; echo "gemm rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  el "lane1: ncu"
  timeout 60 ncu --clock-control none --metrics $M -k 'regex:attention_|Memset|memset' python3 bench/ncu_attn.py 1 32 8 1 32768 128 > $R/ncu_dec1.log 2>&1; echo "ncu1 rc=$?"
  timeout 60 ncu --clock-control none --metrics $M -k 'regex:attention_' python3 bench/ncu_attn.py 8 32 8 1 32768 128 > $R/ncu_dec8.log 2>&1; echo "ncu8 rc=$?"
  san memcheck gemm_gpu _sk_ san_gsk_memcheck.log 150
  san racecheck gemm_gpu _sk_ san_gsk_racecheck.log 220
  san synccheck gemm_gpu _sk_ san_gsk_synccheck.log 270
  el "lane1: gemv variants"
  timeout $(left 330) python3 bench/gemm_bench.py --variants --only 'gemv_m16_n(32_w8_s4|128_s10_(tma|sk))_nk' --dtypes bf16 --shapes '1,4096,4096;1,11008,4096;1,4096,11008;1,14336,4096;16,4096,4096;16,11008,4096;16,4096,11008;16,14336,4096' --json $R/gemv.json > $R/gemv.log 2>&1; echo "gemv rc=$?"
  san memcheck attention_gpu _sk san_ask_memcheck.log 450
  san synccheck gemm_gpu _tma_nk san_tma_synccheck.log 540
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -E "attention_|Memset|sm__|gpu__time|dram__" $R/ncu_dec1.log $R/ncu_dec8.log | cut -c1-150 | head -60
grep -E "^bfloat16|gemv|best" $R/gemv.log | head -40
grep -E "^bfloat16" $R/gemm.log
lanes_finish
