#!/bin/bash
# Written by the seventieth session, not run (its device time was spent;
# bench/NOTES.md 122 and Open leads): `_p_rm`, the 128-row persistent `_p`
# (d64 and d128) with the rotated deal and masked calls allowed, against the
# short causal cells under cuDNN (d64 causal 128 0.90x, 256 0.94x; d128
# causal 256 0.93x) -- at Lq 128 a head is one tile, so a static deal is
# even; at 256 two (1 and 2 key tiles), which the rotation alternates.  Apply
# next/pm.patch, make packs-whole, copy this script to build/carry/, carry
# sm_90a's whole pack (bench/lanes.sh), run it; revert the patch unless it
# pays (then rank `_p_rm` where it leads -- max_lq 128 or 256 -- in place of
# the plain 128-row `_p`'s ranks if it costs nothing unmasked).
# (1) float64 over the twins, racecheck; (2) pinned beside `_pc` (causal)
# and `_p` (unmasked) at 128 / 256 / 384, d64 and d128, bf16.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "float64"; f64 "_p_rm" 150 attention_gpu
el "racecheck"; san racecheck attention_gpu "_p_rm" racecheck.log $(( $(date +%s) - T0 + 90 ))
for k in 1 2; do
  el "pinned $k"
  timeout $(left $((250 + 80 * k))) python3 bench/attn_bench.py --dims 64,128 --seqs 128,256,384 \
    --no-decode --reps 20 --variants 'd(64|128)_wg_128x128_s[23]_p(c|_rm)?$' \
    --json $R/pin_$k.json > $R/pin_$k.log 2>&1
  echo "pin $k rc=$?"; grep -E "best at" $R/pin_$k.log | cut -c1-150
done
lanes_finish
