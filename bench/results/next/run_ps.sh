#!/bin/bash
# Written by the seventy-first session, not run (its device time was spent;
# bench/NOTES.md 127): `_ps` (ORDER 2) deals a chunk of heads whose K and V
# fill ~16 MB of L2 in whole rounds -- with few tiles a head and long keys a
# chunk holds fewer tiles than CTAs (2048 queries against 32K keys at d128:
# one head, 16 tiles, 116 of 132 CTAs idle each round).  next/ps_chunk.patch
# makes all heads one chunk where the L2 rule's chunk is short of a round.  Apply it, make packs-whole, keep
# main's sm_90a pack as build/carry/packs_old.tar.xz (bench/lanes.sh's
# old_pack), copy this script to build/carry/, carry sm_90a's whole pack, run.
# (1) float64 over every `_ps`; (2) in turns with main's pack, two rounds:
# prefills against long keys (the pathology) and issue 13's causal bar
# shapes (4K / 16K: chunks of 256 tiles, unchanged by the patch's rule, but
# the cubins are new).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
old_pack || exit 1
GPU=0
el "float64 _ps"; f64 "_ps" 120 attention_gpu
el "in turns"; ab_attn ab 2 90 --dims 128,64 --seqs 2048:32768,2048:8192,4096,16384 \
  --no-decode --reps 10
# (3) the candidates pinned at the long-key shapes (the patched `_ps`, the
# non-persistent kernel: a tile a CTA in head order, `_pp`)
el "pinned"; timeout $(left 560) python3 bench/attn_bench.py --dims 128,64 \
  --seqs 2048:32768,2048:8192,512:4096 --no-decode --reps 10 --table-peers \
  --variants 'd128_wg_128x128_s2(_ps|_pp)?$|d64_wg_(128|192)x128_s3(_ps|_pp)?$' \
  --json $R/pin.json > $R/pin.log 2>&1
echo "pin rc=$?"; grep -E "^  attention_.*causal=True" $R/pin.log | awk '{print $1, $4, $5, $7}'
lanes_finish
