#!/bin/bash
# Seventy-first session, call 1: (a) the owed sanitizers over the seventieth
# session's kernels -- memcheck over `_p_r` and every rotated `_pc`, racecheck
# and synccheck over the rotated `_pc`; (b) next/pm.patch's `_p_rm` twins:
# float64, then pinned beside `_pc` / `_p` at Lq 128 / 256 / 384, d64 / d128.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "float64 _p_rm"; f64 "_p_rm" 120 attention_gpu
for k in 1 2; do
  el "pinned $k"
  timeout $(left $((120 + 70 * k))) python3 bench/attn_bench.py --dims 64,128 --seqs 128,256,384 \
    --no-decode --reps 20 --variants 'd(64|128)_wg_128x128_s[23]_p(c|_rm)?$' \
    --json $R/pin_$k.json > $R/pin_$k.log 2>&1
  echo "pin $k rc=$?"; grep -E "best at" $R/pin_$k.log | cut -c1-150
done
el "memcheck _p_r|_pc"; san memcheck attention_gpu "_p_r|_pc" memcheck.log 330
el "racecheck _pc|_p_rm"; san racecheck attention_gpu "_pc|_p_rm" racecheck.log 450
el "synccheck _pc|_p_r"; san synccheck attention_gpu "_pc|_p_r" synccheck.log 570
lanes_finish
