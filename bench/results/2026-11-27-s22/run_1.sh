#!/bin/bash
# Twenty-second session, call 1: the twenty-first's next/run_1.sh (the
# decode's K/V loads with L2's prefetch-size hint, l2hint.patch applied:
# `_sk_pf` / `_c16_pf` twins) plus the GPU suites on main's code since the
# last suite run (21c930a's slot guard, ctx.c's pack choice, 8c2496a's
# every-variant / selection test cases).
# (lane 0) attention_gpu whole (every variant incl. the twins, then the
# selection's case); the twins pinned against `_sk` / `_c16`, two rounds;
# racecheck over the d64 split-KV pair (its summary line, 8c2496a's mend).
# (lane 1) memcheck over the twins; every other GPU suite and the Python
# GPU tests; two rounds; ncu of `_sk`, `_sk_pf` and SDPA at batch 8 d128.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
pf() {
  for rd in 1 2; do
    el "pf round $rd"
    timeout $(left $1) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 128,64 \
      --decode-batches 16,8,4,2,1 --variants 'dec_w4x16_s3_(sk|c16)(_pf)?$' \
      --json $R/pf_g${GPU}_$rd.json 2>&1 | grep -vE "$F" > $R/pf_g${GPU}_$rd.log
  done
}
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  gpu_suite t_attention_gpu.log 240 attention_gpu
  pf 300
  san racecheck attention_gpu d64_dec_w4x16_s3_sk san_race.log 560
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  san memcheck attention_gpu _pf san_mem.log 90
  for s in ops_gpu graph_gpu api jit concurrency variants_gpu gemm_gpu regen tune; do gpu_suite t_$s.log 330 $s; done
  el "python"
  (cd python && timeout $(left 350) python3 tests/run_tests.py > $R/python_gpu.log 2>&1; echo "python rc=$? $(tail -1 $R/python_gpu.log)")
  pf 400
  for v in sk sk_pf; do
    el "ncu $v"
    KP_VARIANT=attention_bf16_d128_dec_w4x16_s3_$v timeout $(left 570) ncu --section SpeedOfLight \
      --section MemoryWorkloadAnalysis -k regex:'attention_|flash|fmha|cudnn' -c 16 \
      python3 bench/ncu_attn.py 8 32 8 1 32768 128 --sdpa > $R/ncu_b8_$v.log 2>&1
  done
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/t_*.log $R/san*.log | head -8 | cut -c1-300
for f in $R/pf_g*.log; do echo "== $f"; grep -E "^bfloat16|  attention" $f | cut -c1-112; done
grep -hE "^  [a-z_]+.*\(|DRAM Throughput|Memory Throughput|L2 Hit Rate|Duration" $R/ncu_b8_sk.log | head -40
lanes_finish
