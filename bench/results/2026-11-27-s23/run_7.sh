#!/bin/bash
# Twenty-third session, call 7 (one H100): d96's split-KV decode at 3
# stages (a twin for the tuner) against 2 (ranked), batch 16 .. 1, two
# rounds; the every-variant case and memcheck over the twin first.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
export KP_TEST_ONLY='d96_dec_w4x16_s3_sk' CK_RUN_CASE=attention
gpu_suite t_att_s3.log 60 attention_gpu
el "memcheck"; san memcheck attention_gpu "$KP_TEST_ONLY" san_mem.log 100
unset KP_TEST_ONLY CK_RUN_CASE
for rd in 1 2; do
  el "round $rd"
  timeout $(left 200) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 96 \
    --decode-batches 16,8,4,2,1 --variants 'bf16_d96_dec_w4x16_s[23]_sk$' \
    --json $R/sk_$rd.json 2>&1 | grep -vE "$F" > $R/sk_$rd.log
done
grep -E "attention_.*cases" $R/t_att_s3.log $R/san_mem.log | cut -c1-150
for f in $R/sk_*.log; do echo "== $f"; grep -E "^bfloat16|  attention" $f | cut -c1-130; done
lanes_finish
