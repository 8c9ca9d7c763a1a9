#!/bin/bash
# For the next session (written by the fifty-fourth, bench/NOTES.md 89):
# the fifty-fourth's call 1 again on its code.  Before kp_keep, bf16's
# RMSNorm blocks held 40 registers and the hinted loops led them by 3-12% at
# 512-1024 rows (f16's blocks were the best there); kp_keep took them to
# 32 (side by side: 1024 x 4096 44.9 -> 48.4% of copy).  This `kp tune`
# says whether any loop still leads, and where add+RMSNorm's bf16 blocks
# (40 registers: kp_keep went both ways there) trail f16's.  Build whole
# packs (make packs-whole), carry them as bench/lanes.sh says, copy this
# script and rms_rows.txt to build/carry/ and run it.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
for dt in bf16 f16; do
  el "tune $dt"
  timeout $(left $([ $dt = bf16 ] && echo 230 || echo 400)) stdbuf -oL build/bin/kp tune \
    -o $R/rows_$dt.tune --dtypes $dt --shapes build/carry/rms_rows.txt --reps 20 \
    --time-budget 200 > $R/tune_$dt.log 2>&1
  echo "tune $dt rc=$?"; grep -E "default .* best" $R/tune_$dt.log | cut -c1-200
  grep -v '^#' build/carry/rms_rows.txt | while read f r c; do echo "== $dt $f $r x $c"; grep "^$f $dt ${r}x$c " $R/rows_$dt.tune | sort -k6 -g | head -4 | awk '{print $5, $6}'; done
done
lanes_finish
