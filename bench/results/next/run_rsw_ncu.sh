#!/bin/bash
# RMSNorm+SwiGLU's odd staged rows, instruction by instruction (bench/NOTES.md
# 102-104: issue-bound, 107.5M instructions at 4096 x 18943 against the
# aligned loop's 71.2M at 18944; 13% fewer in the pair loop moved nothing):
# ncu's source counters over the odd pick and the aligned pick, exported as
# SASS-level CSVs.  Afterwards, here: `python3 bench/ncu_segments.py
# r/rsw_18943_src.csv` (one CSV: runs classified by execution count) -- the
# sum pass's, the write pass's and the per-row fixed work's shares of the
# executed instructions say where the next cut is.  (The kernel call to
# skip, -s 12, as the sixty-second session's calls 2-4 found the pick.)
# Benchmark-only: carry sm_90a's pack alone (bench/lanes.sh).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
for n in 18943 18944; do
  el "ncu $n"
  timeout "$(left $((n == 18943 ? 200 : 380)))" ncu --section SourceCounters --section InstructionStats \
    -k regex:rmsnorm_swiglu -s 12 -c 1 -o "$R/rsw_$n" python3 bench/side_by_side.py \
    --ops rmsnorm_swiglu --shapes "4096x$n" --no-compile --reps 20 >"$R/ncu_$n.log" 2>&1
  echo "ncu $n rc=$?"
  ncu -i "$R/rsw_$n.ncu-rep" --page source --csv --print-source sass >"$R/rsw_${n}_src.csv" 2>&1
  ncu -i "$R/rsw_$n.ncu-rep" --page details --csv >"$R/rsw_${n}_details.csv" 2>&1
  xz -T4 "$R/rsw_${n}_src.csv"
  grep -o '"Executed Instructions","[^"]*","[^"]*"' "$R/rsw_${n}_details.csv" | head -2
done
lanes_finish
