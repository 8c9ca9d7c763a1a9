#!/bin/bash
# Written by the sixty-ninth session, not run (its device time was spent;
# bench/NOTES.md 120 and Open leads): `_p_r`, d64's unmasked 192-row `_p`
# with SKIP (each consumer warpgroup only the key tiles its rows see: at Lq
# = 1K two warpgroups of a head's sixth tile are past lq) and a rotated
# deal (CTA c of round q takes the round's position (c + q) mod G, so that
# the cheap tail tiles spread over the CTAs; 132 CTAs over 6 tiles a head
# otherwise draw one tile index each).  Modelled ~5% at 1K before SKIP's
# ~2%.  Apply next/rot.patch, make packs-whole, copy this script to
# build/carry/, carry sm_90a's whole pack (bench/lanes.sh), run it; revert
# the patch afterwards unless it pays (then rank `_p_r` up to where it
# leads, drop the tuner-only rank, and add its float64 to the suite's run).
# (1) float64 over the twins; (2) racecheck, synccheck; (3) pinned beside
# `_p` at d64 unmasked 1K / 2K / 4K / 16K, bf16 and f16, two processes.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "float64"; f64 "_p_r" 120 attention_gpu
for t in racecheck synccheck; do
  el "$t"; san $t attention_gpu "_p_r" $t.log $(( $(date +%s) - T0 + 90 ))
done
for k in 1 2; do
  el "pinned $k"
  timeout $(left $((300 + 120 * k))) python3 bench/attn_bench.py --dtypes bf16,f16 --dims 64 \
    --seqs 1024,2048,4096,16384 --no-decode --reps 20 --table-peers \
    --variants 'd64_wg_192x128_s3_p(_r)?$' --json $R/pin_$k.json > $R/pin_$k.log 2>&1
  echo "pin $k rc=$?"; grep -E "^  attention|best at" $R/pin_$k.log | grep False | cut -c1-150
done
lanes_finish
