#!/bin/bash
# GPU call 5 of the eighteenth session (short: the device time's last
# minutes), on what lands ("A" of call 4: every consumer thread gives Q and
# its tile back, two Q buffers with two consumers): (lane 0) attention_gpu;
# (lane 1) racecheck over the d64 192-row `_ps` (one Q buffer, three
# consumers; both dtypes), whose call-4 twin with a one-thread give-back
# raced.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() { GPU=0; gpu_suite t_attention_gpu.log 170 attention_gpu; el "lane0 done"; }
lane1() {
  GPU=1
  san racecheck attention_gpu "f16_d64_wg_192x128_s3_ps" san_racecheck.log 180
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/t_*.log $R/san*.log | head
grep -hE "Race reported" $R/san_racecheck.log | sort | uniq -c | head
grep -hE "variants left out|: [0-9]+ cases" $R/san_racecheck.log | head
lanes_finish
