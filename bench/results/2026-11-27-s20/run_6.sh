#!/bin/bash
# racecheck over the split-KV decode with the 16-partial merge (call 5's ran
# out of time): d128 on GPU 0, d64 then the decode rows on GPU 1.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() { GPU=0; san racecheck attention_gpu d128_dec_w4x16_s3_sk san_race_d128.log 470; el "lane0 done"; }
lane1() {
  GPU=1; san racecheck attention_gpu d64_dec_w4x16_s3_sk san_race_d64.log 380
  export CUDA_VISIBLE_DEVICES=1
  el "decode rows"
  timeout $(left 470) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 128,64 \
    --decode-batches 8,1 --json $R/dec.json 2>&1 | grep -vE "$F" > $R/dec.log
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE "Race reported|RACECHECK SUMMARY" $R/san_*.log | sort | uniq -c | head
grep -E "^bfloat16|decode:" $R/dec.log | cut -c1-200
lanes_finish
