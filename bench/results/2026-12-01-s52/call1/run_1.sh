#!/bin/bash
# fifty-second session, call 1: main's tip (b0e10f2) -- kp tune at aligned
# 65536 x 2304 / 2560 / 3072 (the `_w` 256 x 2 block part idle there; item
# 86's lead: a one-CTA stage 1.07-1.09x at 2560)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "tune"
timeout $(left 420) stdbuf -oL build/bin/kp tune -o $R/t1.tune --dtypes bf16 --shapes build/carry/t1.txt \
  --reps 10 --time-budget 400 > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default .* best" $R/tune.log | cut -c1-200
while read f r c; do echo "== $f $c"; grep "^$f bf16 ${r}x$c " $R/t1.tune | sort -k6 -g | head -6 | awk '{print $5, $6}'; done < build/carry/t1.txt
lanes_finish
