#!/bin/bash
# Nineteenth session, call 4 (2 GPUs): racecheck over the d128 `_pc`
# variants in their new form (call 3's run stopped at its deadline), a lane
# a dtype; then the decode rows with `_sk` and `_c16` pinned (which wins at
# batch 1 on this host).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  san racecheck attention_gpu "bf16_d128_wg_128x128_s2_pc" san_rc_pc_bf16.log 300
  el "decode rows"
  timeout $(left 420) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 128,64 \
    --variants 'dec_w4x16_s3_sk$|dec_w4x16_s3_c16$' --json $R/dec.json 2>&1 | grep -vE "$F" > $R/dec.log
  echo "dec rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  san racecheck attention_gpu "_f16_d128_wg_128x128_s2_pc" san_rc_pc_f16.log 300
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane*.log
grep -hE "Race reported" $R/san_*.log | sort | uniq -c | head
grep -hE ": [0-9]+ cases" $R/san_*.log | head
grep -vE "^\s*$" $R/dec.log | cut -c1-170 | head -40
lanes_finish
