#!/bin/bash
# s68 call 3: `_lz` (the lazy max, bench/NOTES.md 116-117) on d128's FA3
# picks (persistent `_p`, `_pc`, `_ps`; tuner-only twins): float64 and the
# sanitizers over them, pinned beside their bases at d128 1K / 4K / 16K,
# two processes; then the attention GPU suite (last run whole in
# the sixty-fifth session).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=attention_gpu CK_RUN_CASE=attention \
  KP_TEST_ONLY="_lz" timeout $(left 60) build/tests/check_kernpack > $R/f64.log 2>&1
echo "f64 rc=$?"; grep -E "Checks|:[EF]:|cases" $R/f64.log | head -12 | cut -c1-200
for t in racecheck synccheck; do
  el "$t"; san $t attention_gpu "_lz" $t.log $(( $(date +%s) - T0 + 80 ))
done
for k in 1 2; do
  el "pinned $k"
  timeout $(left $((200 + 90 * k))) python3 bench/attn_bench.py --dims 128 --seqs 1024,4096,16384 --no-decode \
    --reps 20 --table-peers --variants 'd128_wg_128x128_s2_p[cs]?(_lz)?$' \
    --json $R/pin_$k.json > $R/pin_$k.log 2>&1
  echo "pin $k rc=$?"; grep -E "^  attention|best at" $R/pin_$k.log | cut -c1-150
done
el "attention_gpu"; gpu_suite attention_gpu.log 590 attention_gpu

lanes_finish
