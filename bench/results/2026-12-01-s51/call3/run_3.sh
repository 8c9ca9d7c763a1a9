#!/bin/bash
# fifty-first session, call 3: call 2's pack -- kp tune at odd 1501-4095
# for add+RMSNorm, and softmax at 4095 (what call 2's time budget left)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "tune"
timeout $(left 330) stdbuf -oL build/bin/kp tune -o $R/t3.tune --dtypes bf16 --shapes build/carry/t3.txt \
  --reps 10 --time-budget 300 > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default .* best" $R/tune.log | cut -c1-200
lanes_finish
