#!/bin/bash
# forty-ninth session, call 3: kp tune (every applicable variant) at the
# friendly and odd rows around call 2's misses (8K-25K columns), to set the
# ranking by; stdout line-buffered, a time budget
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "tune"
timeout $(left 360) stdbuf -oL build/bin/kp tune -o $R/t3.tune --dtypes bf16 --shapes build/carry/t3.txt \
  --reps 10 --time-budget 300 > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default .* best" $R/tune.log | cut -c1-200
lanes_finish
