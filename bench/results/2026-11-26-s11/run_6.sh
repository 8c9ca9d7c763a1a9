#!/bin/bash
# GPU call 6 of the eleventh session (2026-11-26): the FA3 consumer loop back
# in the order it had before the cross-tile twins (the next tile found at
# the top of the loop, not in front of the last P V: d128 ran ~5% slower in
# calls 3-4), checked and timed as it lands: attention_gpu (every variant,
# the persistent ones also on a grid for 2 SMs), memcheck / synccheck /
# racecheck over the loop's forms (`_psx`, `_p`/`_pc`/`_ps`, `_pp`), then
# the attention table, the persistent variants pinned, and the GEMM table.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
ONLY='f16_d128_wg_128x128_s2_psx|bf16_d64_wg_192x128_s3_p|bf16_d128_wg_128x128_s2_pp|bf16_d64_wg_128x128_s3_ps'
RACE='f16_d128_wg_128x128_s2_psx|bf16_d64_wg_192x128_s3_p_'
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: attention_gpu"; gpu_suite att.log 200 attention_gpu
  while [ ! -e $R/san.done ] && [ $(left 300) -gt 5 ]; do sleep 2; done
  el "lane0: attention table, persistent variants pinned"
  timeout $(left 460) python3 bench/attn_bench.py --reps 20 --variants '_p[cs]?x?$' --table-peers \
    --json $R/attn.json 2>&1 | grep -vE "$F" > $R/attn.log; echo "attn rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1
  san memcheck attention_gpu "$ONLY" san_memcheck.log 100
  san synccheck attention_gpu "$ONLY" san_synccheck.log 190
  san racecheck attention_gpu "$RACE" san_racecheck.log 290
  touch $R/san.done
  el "lane1: gemm table"
  CUDA_VISIBLE_DEVICES=1 timeout $(left 460) python3 bench/gemm_bench.py --json $R/gemm.json 2>&1 | grep -vE "$F" > $R/gemm.log; echo "gemm rc=$?"
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE "Checks|:[EF]:" $R/att.log | head
grep -E "True|False" $R/attn.log | head -20
grep -E "best at" $R/attn.log
grep -E "^(bfloat16|float16)" $R/gemm.log | grep -E " 128 | 4096   4096   4096| 8192" 
lanes_finish
