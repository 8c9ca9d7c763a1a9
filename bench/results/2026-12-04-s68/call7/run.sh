#!/bin/bash
# s68 call 7: `_rs_lz` ranked over d64's 192-row `_p` / `_ps`, with the fp32
# row sums back behind a grid-uniform branch when the call asks for the LSE
# (bench/NOTES.md 119): float64 over every d64 192-row variant, the
# sanitizers over `_rs_lz`, the attention GPU suite, the twins pinned (bf16
# and f16, 4K / 16K), issue 13's table.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=attention_gpu CK_RUN_CASE=attention \
  KP_TEST_ONLY="d64_wg_192" timeout $(left 40) build/tests/check_kernpack > $R/f64.log 2>&1
echo "f64 rc=$?"; grep -E "Checks|FAIL" $R/f64.log | head -6 | cut -c1-250
for t in memcheck racecheck synccheck; do
  el "$t"; san $t attention_gpu "_rs_lz" $t.log $(( $(date +%s) - T0 + 60 ))
done
el "attention_gpu"; gpu_suite attention_gpu.log 330 attention_gpu
el "pinned"
timeout $(left 400) python3 bench/attn_bench.py --dtypes bf16,f16 --dims 64 --seqs 4096,16384 --no-decode \
  --reps 20 --table-peers --variants 'd64_wg_192x128_s3_ps?(_rs_lz)?$' --json $R/pin.json > $R/pin.log 2>&1
echo "pin rc=$?"; grep -E "^  attention" $R/pin.log | cut -c1-125
el "table"
timeout $(left 450) python3 bench/attn_bench.py --json "$R/attn.json" >"$R/attn.log" 2>&1
echo "attn rc=$?"; grep -E "^bfloat16|decode:" "$R/attn.log" | cut -c1-160
lanes_finish
