#!/bin/bash
# GPU call 6 of the twelfth session: ping-pong (`_pp`) inside the persistent
# FA3 kernels on the TMA-store epilogue (bf16 experiment variants: d128
# `_pp_p` / `_pp_pc` / `_pp_ps`, d64 128-row `_pp_p` / `_pp_pc`): their
# correctness (attention_gpu narrowed; memcheck, synccheck, racecheck over
# two), then every persistent variant pinned beside cuDNN and the table.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
ONLY='_pp_p|f16_d128_wg_128x128_s2_p'
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: attention_gpu (pp)"; KP_TEST_ONLY="$ONLY" gpu_suite att.log 120 attention_gpu
  el "lane0: pinned"
  timeout $(left 400) python3 bench/attn_bench.py --reps 20 --no-decode \
    --variants 'd128_wg_128x128_s2_(pp_)?p[cs]?$|d64_wg_128x128_s3_(pp_)?p[c]?$|d64_wg_192x128_s3_p$' --table-peers \
    --json $R/attn.json 2>&1 | grep -vE "$F" > $R/attn.log; echo "attn rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1
  san memcheck attention_gpu "bf16_d128_wg_128x128_s2_pp_p|bf16_d64_wg_128x128_s3_pp_p|f16_d128_wg_128x128_s2_pc" san_memcheck.log 150
  san synccheck attention_gpu "bf16_d128_wg_128x128_s2_pp_p|bf16_d64_wg_128x128_s3_pp_p|f16_d128_wg_128x128_s2_pc" san_synccheck.log 260
  san racecheck attention_gpu "bf16_d128_wg_128x128_s2_pp_pc|f16_d64_wg_128x128_s3_pc" san_racecheck.log 390
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE "Checks|:[EF]:" $R/att.log | head
grep -E "True|False" $R/attn.log | head -16
grep -E "^  attention|best at" $R/attn.log | cut -c1-150
lanes_finish
