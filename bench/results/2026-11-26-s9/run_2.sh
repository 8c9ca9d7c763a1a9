#!/bin/bash
# GPU call 2 (2026-11-26, ninth session): the split-KV decode's warps take the tile's key
# blocks from a counter as they go (was: static equal shares; ncu showed the SMs' active
# cycles spread 77-102K of 106K at batch 1). Lane 0: attention_gpu, decode beside SDPA
# (d128 and d64, three runs), pinned sk vs c16; lane 1: sanitizers over _sk, then every
# other suite (call 1's full suite ran out of time on the H100).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
M=sm__cycles_active.min,sm__cycles_active.max,sm__cycles_active.avg,sm__cycles_elapsed.max,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: attention_gpu"; gpu_suite tests_attention_gpu.log 150 attention_gpu
  for i in 1 2 3; do
    el "lane0: decode $i"
    timeout 60 python3 bench/attn_bench.py --decode-only --decode-dims 128,64 --reps 30 --json $R/decode$i.json 2>&1 | grep -vE "$F" > $R/decode$i.log; echo "decode rc=$?"
  done
  el "lane0: pinned"
  timeout 60 python3 bench/attn_bench.py --decode-only --reps 30 --variants 'bf16_d128_dec_w4x16_s3_(c16|sk)$' --json $R/decode_pinned.json 2>&1 | grep -vE "$F" > $R/decode_pinned.log; echo "pinned rc=$?"
  timeout 60 ncu --clock-control none --metrics $M -k 'regex:attention_' python3 bench/ncu_attn.py 1 32 8 1 32768 128 --paged 16 > $R/ncu_dec1.log 2>&1; echo "ncu1 rc=$?"
  timeout 60 ncu --clock-control none --metrics $M -k 'regex:attention_' python3 bench/ncu_attn.py 8 32 8 1 32768 128 > $R/ncu_dec8.log 2>&1; echo "ncu8 rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1
  san racecheck attention_gpu _sk san_sk_racecheck.log 120
  san synccheck attention_gpu _sk san_sk_synccheck.log 200
  san memcheck attention_gpu _sk san_sk_memcheck.log 260
  for s in ops_gpu variants_gpu jit gemm_gpu graph_gpu concurrency regen api sass; do el "$s"; gpu_suite tests_$s.log 520 $s; done
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE "decode:|^bfloat16" $R/decode?.log
grep -E " us|best" $R/decode_pinned.log | head
grep -E "attention_|sm__|gpu__time|dram__" $R/ncu_dec1.log $R/ncu_dec8.log | cut -c1-150 | head -60
lanes_finish
