#!/bin/bash
# Nineteenth session, call 1 (2 GPUs; 4 were not lent).  (a) the bulk-copy
# decode variants (`_b`): every decode variant against float64
# (attention_gpu, KP_TEST_ONLY=_dec_); racecheck and synccheck over the
# `_b` ones; the decode rows with the decode variants of interest pinned
# beside SDPA.  (b) the eighteenth session's gap, racecheck over every FA3
# variant of the landed code: d128 here (a lane per dtype), d64 later.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "decode variants, every one against float64"
  export KP_TEST_ONLY=_dec_; gpu_suite dec_tests.log 200 attention_gpu; unset KP_TEST_ONLY
  el "decode bench"
  timeout $(left 400) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 128,64 \
    --variants 'dec_w4x16_s3_sk|dec_w4x16_s3_c16|_b$' --json $R/dec.json 2>&1 | grep -vE "$F" > $R/dec.log
  echo "dec rc=$?"
  san racecheck attention_gpu "bf16_d128_wg_" san_rc_bf16_d128.log 565
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  san racecheck attention_gpu "sk_b|c16_b" san_rc_dec_b.log 200
  san synccheck attention_gpu "sk_b|c16_b" san_sc_dec_b.log 300
  san racecheck attention_gpu "_f16_d128_wg_" san_rc_f16_d128.log 565
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane*.log
grep -hE "Race reported|Barrier error|ERROR SUMMARY|RACECHECK SUMMARY" $R/san_*.log | sort | uniq -c | head -20
grep -hE ": [0-9]+ cases|variants left out" $R/san_*.log $R/dec_tests.log | cut -c1-150 | head -70
grep -vE "^\s*$" $R/dec.log | cut -c1-170 | head -90
lanes_finish
