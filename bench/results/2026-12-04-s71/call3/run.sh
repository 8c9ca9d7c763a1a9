#!/bin/bash
# Seventy-first session, call 3: the FA2 kernels' causal fast path (one test
# a value of every row: 2 (KF + 2 MI - 1) tests where kp_attn_hidden made
# five or six a value) -- float64 over every FA2 variant, then sm_80's picks
# (d128 128x32 `_qs`, d64 128x64 w4) and the 8-warp d64 / d128 ones pinned at
# 1K / 4K, causal and not, in turns with main's pack (f59c384: the same FA2
# code as b7939c5), two rounds.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
old_pack || exit 1
GPU=0
el "float64 FA2"; f64 "x64_w|x32_w|x16_w" 200 attention_gpu
n=0
for k in 1 2; do
  for which in old new; do
    n=$((n + 1))
    el "ab $which $k"
    if [ $which = old ]; then pd=$PWD/build/packs_old; else pd=$PWD/build/packs; fi
    KP_PACK_DIR=$pd timeout $(left $((200 + 95 * n))) \
      python3 bench/attn_bench.py --dims 64,128 --seqs 1024,4096 --no-decode --reps 10 \
      --variants 'd(64_128x64_w[48]_s2|128_128x32_w4_s2_qs|128_128x64_w8_s2)$' --table-peers \
      --json $R/ab_${which}_$k.json > $R/ab_${which}_$k.log 2>&1
    echo "ab $which $k rc=$?"
  done
done
for f in $R/ab_*.log; do echo "== ${f##*/}"; grep -E "^  attention_" $f | awk '{print $1, $4, $5, $6, $7}'; done | \
  awk '/^==/{t=$2; next} {k=$1" "$2" "$3" "$4; v[k]=v[k]" "t":"$5} END{for (k in v) print k, v[k]}' | sort
lanes_finish
