#!/bin/bash
# Twenty-second session, call 5 (one H100): the split-KV decode's bytes in
# flight an SM between the ladder's steps -- 3 warps at 2 stages (48 KB an
# SM) and at 3 (96 KB) -- against `_s2_sk` (64 KB) and `_s3_sk` (128 KB),
# d128, batch 16 .. 1, three rounds; ncu SM active cycles at batch 8.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
export KP_TEST_ONLY=d128_dec_w3 CK_RUN_CASE=attention
gpu_suite t_att_w3.log 100 attention_gpu
unset KP_TEST_ONLY CK_RUN_CASE
for rd in 1 2 3; do
  el "round $rd"
  timeout $(left 200) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 128 \
    --decode-batches 16,8,4,2,1 --variants 'dec_w[34]x16_s[23]_sk$' \
    --json $R/w3_$rd.json 2>&1 | grep -vE "$F" > $R/w3_$rd.log
done
M=sm__cycles_active.min,sm__cycles_active.avg,sm__cycles_active.max,sm__cycles_elapsed.max,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum
for v in w4x16_s2_sk w3x16_s2_sk w3x16_s3_sk; do
  el "ncu $v"
  KP_VARIANT=attention_bf16_d128_dec_$v timeout $(left 280) ncu --metrics $M \
    -k regex:'attention_' -c 3 python3 bench/ncu_attn.py 8 32 8 1 32768 128 > $R/ncu_$v.log 2>&1
done
grep -E "Checks|:[EF]:" $R/t_att_w3.log | head -5
for f in $R/w3_*.log; do echo "== $f"; grep -E "^bfloat16|  attention" $f | cut -c1-100; done
for f in $R/ncu_*.log; do echo "== $f"; grep -E "^  [a-zA-Z_].*\(|sm__cycles|dram__|gpu__time" $f | cut -c1-110; done
lanes_finish
