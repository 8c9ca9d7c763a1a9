#!/bin/bash
# fifty-first session, call 7: main's tip -- kp tune at aligned 65536 x
# 2560 (call 6: softmax / RMSNorm at 90% of copy there, 96-99 at 1536 /
# 3584); the tuner times the odd rows' ranked variants on aligned rows too
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "tune"
timeout $(left 170) stdbuf -oL build/bin/kp tune -o $R/t7.tune --dtypes bf16 --shapes build/carry/t7.txt \
  --reps 10 --time-budget 150 > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default .* best" $R/tune.log | cut -c1-200
for f in rmsnorm softmax; do grep "^$f bf16 65536x2560 " $R/t7.tune | sort -k6 -g | head -5 | awk '{print $5, $6}'; done
lanes_finish
