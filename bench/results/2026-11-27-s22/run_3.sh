#!/bin/bash
# Twenty-second session, call 3 (one H200): the split-KV decode at d128 with
# 2 stages (`_s2_sk`, ranked) against 3 (`_s3_sk`, now the tuner's twin) --
# call 2 found 2 stages 0.8-2% faster on the H100 (its SMs end together);
# does the H200, with 43% more bandwidth to fill, agree?  Batch 16 .. 1,
# d128 / d64, three rounds, then ncu SM active cycles of both at batch 8;
# attention_gpu's every-variant case over the split-KV kernels first.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
export KP_TEST_ONLY=_sk CK_RUN_CASE=attention
gpu_suite t_att_sk.log 120 attention_gpu
unset KP_TEST_ONLY CK_RUN_CASE
for rd in 1 2 3; do
  el "round $rd"
  timeout $(left 220) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 128,64 \
    --decode-batches 16,8,4,2,1 --variants 'dec_w4x16_s[23]_sk$' \
    --json $R/sk_$rd.json 2>&1 | grep -vE "$F" > $R/sk_$rd.log
done
M=sm__cycles_active.min,sm__cycles_active.avg,sm__cycles_active.max,sm__cycles_elapsed.max,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum
for v in s2 s3; do
  el "ncu $v"
  KP_VARIANT=attention_bf16_d128_dec_w4x16_${v}_sk timeout $(left 290) ncu --metrics $M \
    -k regex:'attention_' -c 3 python3 bench/ncu_attn.py 8 32 8 1 32768 128 > $R/ncu_$v.log 2>&1
done
el "ncu sdpa"
timeout $(left 320) ncu --metrics $M -k regex:'flash|cudnn' -c 6 \
  python3 bench/ncu_attn.py 8 32 8 1 32768 128 --sdpa > $R/ncu_sdpa.log 2>&1
cat $R/t_att_sk.log | grep -E "Checks|:[EF]:" | head -5
for f in $R/sk_*.log; do echo "== $f"; grep -E "^bfloat16|  attention" $f | cut -c1-100; done
for f in $R/ncu_*.log; do echo "== $f"; grep -E "^  [a-zA-Z_].*\(|sm__cycles|dram__|gpu__time" $f | cut -c1-110; done
lanes_finish
