#!/bin/bash
# forty-ninth session, call 2: kp tune (every applicable variant) at the
# friendly shapes call 1 found below 90% of copy; stdout line-buffered and a
# time budget, so that what was timed comes back (call 1's tune ran out)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "tune"
timeout $(left 330) stdbuf -oL build/bin/kp tune -o $R/t2.tune --dtypes bf16 --shapes build/carry/t2.txt \
  --reps 10 --time-budget 280 > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default .* best" $R/tune.log | cut -c1-200
lanes_finish
