#!/bin/bash
# Twenty-second session, call 4 (one H100): the split-KV decode with K and V
# loaded in turn (`_sk_alt`, flash's order: V(nb) lands while S and its
# softmax run, K(nb + W) while P V runs -- one of them in flight a warp), at
# 16- and 32-key tiles, against `_s2_sk` / `_s3_sk`: batch 16 .. 1, d128 /
# d64, three rounds; ncu SM active cycles of each at batch 8 d128.
# attention_gpu's every-variant case over the split-KV kernels first.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
export KP_TEST_ONLY=_sk CK_RUN_CASE=attention
gpu_suite t_att_sk.log 120 attention_gpu
unset KP_TEST_ONLY CK_RUN_CASE
for rd in 1 2 3; do
  el "round $rd"
  timeout $(left 240) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 128,64 \
    --decode-batches 16,8,4,2,1 --variants 'dec_w4x(16|32)_s[23]_sk(_alt)?$' \
    --json $R/alt_$rd.json 2>&1 | grep -vE "$F" > $R/alt_$rd.log
done
M=sm__cycles_active.min,sm__cycles_active.avg,sm__cycles_active.max,sm__cycles_elapsed.max,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum
for v in w4x16_s2_sk w4x16_s2_sk_alt; do
  el "ncu $v"
  KP_VARIANT=attention_bf16_d128_dec_$v timeout $(left 320) ncu --metrics $M \
    -k regex:'attention_' -c 3 python3 bench/ncu_attn.py 8 32 8 1 32768 128 > $R/ncu_$v.log 2>&1
done
grep -E "Checks|:[EF]:" $R/t_att_sk.log | head -5
for f in $R/alt_*.log; do echo "== $f"; grep -E "^bfloat16|  attention" $f | cut -c1-100; done
for f in $R/ncu_*.log; do echo "== $f"; grep -E "^  [a-zA-Z_].*\(|sm__cycles|dram__|gpu__time" $f | cut -c1-110; done
lanes_finish
