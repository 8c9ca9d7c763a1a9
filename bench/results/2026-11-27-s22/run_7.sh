#!/bin/bash
# Twenty-second session, call 7 (one H100 or H200): does the split-KV
# decode's time follow where q, k, v were allocated (call 6 saw 350 or 362
# us at batch 8 d128 by allocation), and does each share begun at its own
# offset (`_s2_skr`: the shares of a batch start a whole number of DRAM
# pages apart and run in step) take it out?  alloc_sweep.py; the every-
# variant case over the twins first; the twins' batch sweep, two rounds.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
export KP_TEST_ONLY=_skr CK_RUN_CASE=attention
gpu_suite t_att_skr.log 100 attention_gpu
unset KP_TEST_ONLY CK_RUN_CASE
el "alloc"
timeout $(left 300) python3 build/carry/alloc_sweep.py 2>&1 | grep -vE "$F" > $R/alloc.log
for rd in 1 2; do
  el "round $rd"
  timeout $(left 420) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 128,64 \
    --decode-batches 16,8,4,2,1 --variants 'dec_w4x16_s[23]_skr?$' \
    --json $R/skr_$rd.json 2>&1 | grep -vE "$F" > $R/skr_$rd.log
done
grep -E "Checks|:[EF]:" $R/t_att_skr.log | head -5
cat $R/alloc.log
for f in $R/skr_*.log; do echo "== $f"; grep -E "^bfloat16|  attention" $f | cut -c1-100; done
lanes_finish
