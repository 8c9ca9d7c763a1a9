#!/bin/bash
# s68 call 2: `_rs_lz` ranked over d64's 192-row `_p` / `_ps` (bench/NOTES.md
# 117): float64 over every d64 192-row variant; memcheck, racecheck and
# synccheck over the `_rs_lz` ones; the attention GPU suite; issue 13's
# table on the new ranking; the f16 twins pinned at d64 4K / 16K.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=attention_gpu CK_RUN_CASE=attention \
  KP_TEST_ONLY="d64_wg_192" timeout $(left 90) build/tests/check_kernpack > $R/f64.log 2>&1
echo "f64 rc=$?"; grep -E "Checks|:[EF]:|cases|variants" $R/f64.log | head -12 | cut -c1-200
for t in memcheck racecheck synccheck; do
  el "$t"; san $t attention_gpu "_rs_lz" $t.log $(( $(date +%s) - T0 + 90 ))
  grep -E "variants|cases" $R/$t.log | head -3 | cut -c1-200
done
el "attention_gpu"; gpu_suite attention_gpu.log 460 attention_gpu
el "table"
timeout $(left 560) python3 bench/attn_bench.py --json "$R/attn_1.json" >"$R/attn_1.log" 2>&1
echo "attn rc=$?"; grep -vE "^ *(ok|check)" "$R/attn_1.log" | tail -32 | cut -c1-200
el "f16 pinned"
timeout $(left 595) python3 bench/attn_bench.py --dtypes f16 --dims 64 --seqs 4096,16384 --no-decode \
  --reps 20 --table-peers --variants 'd64_wg_192x128_s3_ps?(_rs_lz)?$' --json $R/pin_f16.json > $R/pin_f16.log 2>&1
echo "pin rc=$?"; grep -E "^  attention|best at" $R/pin_f16.log | cut -c1-150
lanes_finish
