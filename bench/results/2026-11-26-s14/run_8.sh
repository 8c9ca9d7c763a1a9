#!/bin/bash
# GPU call 8 (2026-11-26, fourteenth session): where the peeling RMSNorm's
# extra instructions are -- ncu source counters (executed instructions per
# SASS instruction) for rmsnorm 8192 x 11007 (odd rows) and 8192 x 11008
# (the aligned twin), exported as CSV (the code of call 6).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
src() { # shape tag
  CUDA_VISIBLE_DEVICES=$GPU timeout 90 ncu --section SourceCounters --section WarpStateStats -o $R/rep_$2 \
    -k "regex:^rmsnorm_bf16_" -s 3 -c 1 python3 bench/side_by_side.py --ops rmsnorm --shapes $1 --no-compile \
    --reps 3 --warmup 2 > $R/ncu_$2.log 2>&1
  echo "ncu $1 rc=$?"
  timeout 60 ncu -i $R/rep_$2.ncu-rep --page source --csv --print-source sass > $R/src_$2.csv 2> $R/src_$2.err
  echo "export $2 rc=$? $(wc -l < $R/src_$2.csv) lines"
  rm -f $R/rep_$2.ncu-rep
}
GPU=0; src 8192x11007 odd > $R/lane0.log 2>&1 &
P0=$!
GPU=1; src 8192x11008 al > $R/lane1.log 2>&1 &
P1=$!
wait $P0 $P1
cat $R/lane0.log $R/lane1.log
head -3 $R/src_odd.csv | cut -c1-300
lanes_finish
