#!/bin/bash
# s70 call 6: causal d64 at lengths whose tiles leave a tail (call 5: 640
# ran 0.80x cuDNN on the 192-row `_ps`): the masked candidates pinned --
# 128-row `_pc` (its whole rounds now rotated), 192-row `_ps` / `_pc` (SKIP),
# 128-row `_ps` -- at 384-1024, bf16; then d128's `_pc` / `_ps` at 640-1536.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "pinned d64"
timeout $(left 200) python3 bench/attn_bench.py --dims 64 --seqs 384,512,576,640,704,768,896,960,1024 --no-decode \
  --reps 20 --variants 'd64_wg_(128x128_s3_p[cs]|192x128_s3_p[cs])$' --json $R/pin64.json > $R/pin64.log 2>&1
echo "pin64 rc=$?"; grep -E "^  attention|best at" $R/pin64.log | grep "True" | cut -c1-120
el "pinned d128"
timeout $(left 330) python3 bench/attn_bench.py --dims 128 --seqs 640,960,1536,2048 --no-decode \
  --reps 20 --variants 'd128_wg_128x128_s2_p[cs]$' --json $R/pin128.json > $R/pin128.log 2>&1
echo "pin128 rc=$?"; grep -E "^  attention|best at" $R/pin128.log | grep "True" | cut -c1-120
lanes_finish
