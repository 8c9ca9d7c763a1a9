#!/bin/bash
# For a later session's first GPU call, on main after the nineteenth session
# (build first: make -j2 all; make KP_SUB=1 build/tests/check_kernpack
# build/bin/kp build/bin/kpbench; carry the packs as bench/lanes.sh says).
# Decode at batch 1 (issue 13's >= 0.9x bar; bench/NOTES.md 39, 49): on
# the nineteenth session's call-3 H200 host cuDNN ran Lq 1, Lk 32K, 32 / 8
# heads, d128 in 43.5 us against our 48-50 (0.85-0.88x).  Item 39 saw the
# split-KV kernel's SMs finish 25% apart with equal work.  (lane 0) the
# decode rows with `_sk` and `_c16` pinned, three rounds; (lane 1) ncu of
# `_sk`, `_c16` and SDPA's backends at batch 1: per-SM active cycles
# (min / avg / max against the elapsed), DRAM throughput, duration -- does
# cuDNN keep every SM busy to the end, and where do ours lose the time?
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
M=gpu__time_duration.sum,sm__cycles_active.min,sm__cycles_active.avg,sm__cycles_active.max
M=$M,gpc__cycles_elapsed.max,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size
M=$M,launch__registers_per_thread,launch__shared_mem_per_block_dynamic
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  for k in 1 2 3; do
    el "decode rows, round $k"
    timeout $(left 500) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 128,64 \
      --variants 'dec_w4x16_s3_sk$|dec_w4x16_s3_c16$' --json $R/dec_$k.json 2>&1 | grep -vE "$F" > $R/dec_$k.log
  done
  el "decode batches 1,2,4 (the one-wave crossover of the clusters)"
  timeout $(left 520) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 128 \
    --decode-batches 1,2,4 --variants 'dec_w4x16_s3_sk$|dec_w4x16_s3_c16$|dec_w4x16_s3_c8$' \
    --json $R/dec_b124.json 2>&1 | grep -vE "$F" > $R/dec_b124.log
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  for v in attention_bf16_d128_dec_w4x16_s3_sk attention_bf16_d128_dec_w4x16_s3_c16; do
    el "ncu $v"
    KP_VARIANT=$v timeout $(left 400) ncu --metrics $M -k regex:'attention_|fmha|cudnn|flash' \
      python3 bench/ncu_attn.py 1 32 8 1 32768 128 $([ $v = attention_bf16_d128_dec_w4x16_s3_sk ] && echo --sdpa) \
      > $R/ncu_$v.log 2>&1
    echo "ncu rc=$?"
  done
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane*.log
for f in $R/dec_*.log; do echo "== $f"; grep -E "^bfloat16|dec_w4" $f | cut -c1-160; done
for f in $R/ncu_*.log; do echo "== $f"; grep -E "^\s+[a-z_]+\(|  [a-z]+__[a-z_.]+ " $f | cut -c1-150 | tail -60; done
lanes_finish
