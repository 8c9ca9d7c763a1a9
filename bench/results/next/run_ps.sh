#!/bin/bash
# Written by the seventy-second session (no device lent; bench/NOTES.md 127,
# 128), not run.  `_ps` (ORDER 2) deals a chunk of heads whose K and V fill
# ~16 MB of L2 in whole rounds: with few tiles a head and long keys a chunk
# holds fewer tiles than CTAs (2048 queries against 32K keys at d128: one
# head, 16 tiles; 32 of 132 CTAs ever get one).  next/ps_deal.patch adds
# three candidates beside `_ps` as variants of their own (rank 300: never the
# pick, every other cubin unchanged): `_psc` deals the chunks' tiles as one
# sequence where two chunks hold fewer tiles than CTAs (a head's tiles stay
# side by side, sharing its K and V in L2); `_psr`, where one chunk holds
# fewer, gives each chunk a step of its own, its tiles round-robin from
# where the last chunk's ended; `_psa` makes all heads one chunk where one
# chunk holds fewer (round 0: each head's first tile alone, K and V read
# once a CTA -- the DRAM risk the model shows, bench/attn_sched_model.py
# --kv).  Apply it, make packs-whole, copy this script
# to build/carry/, carry sm_90a's whole pack (bench/lanes.sh), run.
# (1) float64 over every `_ps*`; (2) pinned side by side, one process a
# shape list: the pathology's shapes, the square bar shapes (where `_psc` is
# `_ps`'s deal, the cubin another); (3) racecheck / synccheck over the two.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "float64 _ps*"; f64 "_ps" 130 attention_gpu
el "pinned, long keys"
timeout $(left 330) python3 bench/attn_bench.py --dims 128,64 \
  --seqs 2048:32768,2048:8192,4096:32768,8192:32768 --no-decode --reps 10 --table-peers \
  --variants 'd128_wg_128x128_s2(_ps|_psc|_psa|_psr|_pp)?$|d64_wg_192x128_s3(_ps|_psc|_psa|_psr)$|d64_wg_128x128_s3_pp$' \
  --json $R/pin_kv.json > $R/pin_kv.log 2>&1
echo "pin_kv rc=$?"; grep -E "^  attention_.*causal=True" $R/pin_kv.log | awk '{print $1, $4, $5, $7}'
el "pinned, square"
timeout $(left 450) python3 bench/attn_bench.py --dims 128,64 --seqs 4096,16384 --no-decode \
  --reps 10 --variants 'd128_wg_128x128_s2(_ps|_psc|_psr)$|d64_wg_192x128_s3(_ps|_psc|_psr)$' \
  --json $R/pin_sq.json > $R/pin_sq.log 2>&1
echo "pin_sq rc=$?"; grep -E "^  attention_.*causal=True" $R/pin_sq.log | awk '{print $1, $4, $5, $7}'
el "racecheck"; san racecheck attention_gpu "_psc|_psa|_psr" race.log 520
el "synccheck"; san synccheck attention_gpu "_psc|_psa|_psr" sync.log 590
lanes_finish
