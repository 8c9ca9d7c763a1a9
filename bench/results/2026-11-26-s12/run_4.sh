#!/bin/bash
# GPU call 4 of the twelfth session: cross-tile (`x`) on top of the TMA-store
# epilogue (bf16 experiment variants: d128 `_px` / `_pcx`, d64 `_px` at 192
# and 128 rows, d64 128-row `_psx`): their correctness (attention_gpu
# narrowed, memcheck and racecheck over `_px`), then every persistent
# variant pinned beside cuDNN and the table; GEMM table on the other GPU.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
ONLY='bf16_d128_wg_128x128_s2_px|bf16_d128_wg_128x128_s2_pcx|bf16_d64_wg_192x128_s3_px|bf16_d64_wg_128x128_s3_px|bf16_d64_wg_128x128_s3_psx|f16_d128_wg_128x128_s2_psx'
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: attention_gpu (x)"; KP_TEST_ONLY="$ONLY" gpu_suite att.log 150 attention_gpu
  el "lane0: pinned"
  timeout $(left 450) python3 bench/attn_bench.py --reps 20 \
    --variants 'd128_wg_128x128_s2_p(c|x|cx|s|sx)?$|d64_wg_(192|128)x128_s3_p(x|s|sx)?$' --table-peers \
    --json $R/attn.json 2>&1 | grep -vE "$F" > $R/attn.log; echo "attn rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1
  san memcheck attention_gpu "bf16_d128_wg_128x128_s2_px|bf16_d64_wg_192x128_s3_px|f16_d128_wg_128x128_s2_psx" san_memcheck.log 120
  san racecheck attention_gpu "bf16_d128_wg_128x128_s2_px|f16_d128_wg_128x128_s2_psx" san_racecheck.log 240
  el "lane1: gemm table"
  CUDA_VISIBLE_DEVICES=1 timeout $(left 450) python3 bench/gemm_bench.py --json $R/gemm.json 2>&1 | grep -vE "$F" > $R/gemm.log; echo "gemm rc=$?"
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE "Checks|:[EF]:" $R/att.log | head
grep -E "True|False" $R/attn.log | head -16
grep -E "^  attention" $R/attn.log | sort -k2,5 | cut -c1-150
grep -E "best at" $R/attn.log
grep -E "^(bfloat16|float16)" $R/gemm.log | head -30
lanes_finish
