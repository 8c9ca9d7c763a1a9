#!/bin/bash
# Written by the seventy-first session, not run (its device time was spent;
# bench/NOTES.md 127): `_ps` (ORDER 2) deals a chunk of heads whose K and V
# fill ~16 MB of L2 in whole rounds -- with few tiles a head and long keys a
# chunk holds fewer tiles than CTAs (2048 queries against 32K keys at d128:
# one head, 16 tiles, 116 of 132 CTAs idle each round).  next/ps_chunk.patch
# makes a chunk at least a round of tiles.  Apply it, make packs-whole, keep
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
el "in turns"; ab_attn ab 2 100 --dims 128,64 --seqs 2048:32768,2048:8192,4096,16384 \
  --no-decode --reps 10
lanes_finish
