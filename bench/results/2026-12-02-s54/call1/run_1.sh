#!/bin/bash
# fifty-fourth session, call 1 (written by the fifty-third, bench/NOTES.md 88): the
# hinted loop of 256 x 2 took 7.39 us against the block's 8.5 at RMSNorm bf16
# 1024 x 4096 in one `kp tune` run (call 6) -- a prefill's common call.
# Before ranking anything: `kp tune` over 256-8192 rows of the common hidden
# sizes, both dtypes, then the side-by-side table at the row counts where a
# loop wins, in turns with main's pack.  Build whole packs (make
# packs-whole), carry them as bench/lanes.sh says, copy this script and
# rms_rows.txt to build/carry/ and run it.
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
