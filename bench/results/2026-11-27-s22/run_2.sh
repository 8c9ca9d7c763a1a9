#!/bin/bash
# Twenty-second session, call 2: the split-KV decode's bytes in flight an SM
# against its SMs' balance.  Call 1's ncu at batch 8 d128 (H100): `_sk`'s SMs
# active 87% of the elapsed cycles, flash's split-KV kernel (the same 256
# shares of 8K keys, two CTAs an SM) 97%.  Twins of `_sk` (tuner-only):
# s2 (one tile ahead a warp), s4, w2 (2 warps), w4x32 s2.
# (lane 0) attention_gpu's every-variant case over `_sk` and the twins;
# the twins pinned, batch 16 .. 1, d128 / d64, two rounds.  (lane 1) two
# rounds; ncu of each twin and of SDPA's kernels at batch 8 d128: SM active
# cycles min / avg / max, DRAM throughput.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
V='dec_w(4x16_s[234]|2x16_s3|4x32_s2)_sk$'
tw() {
  for rd in 1 2; do
    el "twins round $rd"
    timeout $(left $1) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 128,64 \
      --decode-batches 16,8,4,2,1 --variants "$V" \
      --json $R/tw_g${GPU}_$rd.json 2>&1 | grep -vE "$F" > $R/tw_g${GPU}_$rd.log
  done
}
M=sm__cycles_active.min,sm__cycles_active.avg,sm__cycles_active.max,sm__cycles_elapsed.max,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum,dram__bytes_read.sum
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  export KP_TEST_ONLY=_sk CK_RUN_CASE=attention
  gpu_suite t_att_sk.log 150 attention_gpu
  unset KP_TEST_ONLY CK_RUN_CASE
  tw 260
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  tw 60
  for v in w4x16_s3 w4x16_s2 w4x16_s4 w2x16_s3 w4x32_s2; do
    el "ncu $v"
    KP_VARIANT=attention_bf16_d128_dec_${v}_sk timeout $(left 240) ncu --metrics $M \
      -k regex:'attention_' -c 3 python3 bench/ncu_attn.py 8 32 8 1 32768 128 > $R/ncu_$v.log 2>&1
  done
  el "ncu sdpa"
  timeout $(left 270) ncu --metrics $M -k regex:'flash|cudnn' -c 8 \
    python3 bench/ncu_attn.py 8 32 8 1 32768 128 --sdpa > $R/ncu_sdpa.log 2>&1
  el "lane1 done"
}
export -f lane0 lane1 tw
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/t_*.log | head -8 | cut -c1-300
for f in $R/tw_g*.log; do echo "== $f"; grep -E "^bfloat16|  attention" $f | cut -c1-100; done
for f in $R/ncu_*.log; do echo "== $f"; grep -E "^  [a-zA-Z_].*\(|sm__cycles|dram__|gpu__time" $f | cut -c1-110; done
lanes_finish
