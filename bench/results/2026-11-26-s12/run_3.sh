#!/bin/bash
# GPU call 3 of the twelfth session: the persistent FA3 kernels store O
# through shared memory and TMA (and read no varlen offsets): attention_gpu
# (every variant, both dtypes, the 2-SM grid pass), memcheck / synccheck /
# racecheck over them, then the persistent variants pinned beside cuDNN
# and the table, and ncu's source counters on d128 `_p` at 1K again.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
ONLY='f16_d128_wg_128x128_s2_p|f16_d64_wg_192x128_s3_p|f16_d64_wg_128x128_s3_ps'
RACE='f16_d128_wg_128x128_s2_psx|f16_d64_wg_128x128_s3_ps'
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: attention_gpu"; gpu_suite att.log 200 attention_gpu
  while [ ! -e $R/san.done ] && [ $(left 330) -gt 5 ]; do sleep 2; done
  el "lane0: attention table, persistent variants pinned"
  timeout $(left 500) python3 bench/attn_bench.py --reps 20 --variants '_p[cs]?x?$' --table-peers \
    --json $R/attn.json 2>&1 | grep -vE "$F" > $R/attn.log; echo "attn rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1
  san memcheck attention_gpu "$ONLY" san_memcheck.log 110
  san synccheck attention_gpu "$ONLY" san_synccheck.log 210
  san racecheck attention_gpu "$RACE" san_racecheck.log 320
  touch $R/san.done
  export CUDA_VISIBLE_DEVICES=1
  el "lane1: ncu source counters, d128 1K"
  timeout $(left 420) ncu --clock-control none --section SourceCounters --section WarpStateStats \
    -k 'regex:attention_' --launch-skip 2 -c 1 -o $R/src_1024 python3 bench/ncu_attn.py 16 16 16 1024 1024 128 \
    > $R/ncu_src_1024.log 2>&1; echo "ncu src rc=$?"
  ncu -i $R/src_1024.ncu-rep --page source --csv --print-source sass > $R/sass_1024.csv 2>&1
  rm -f $R/src_1024.ncu-rep
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE "Checks|:[EF]:" $R/att.log | head
grep -E "True|False" $R/attn.log | head -16
grep -E "^  attention|best at" $R/attn.log
lanes_finish
