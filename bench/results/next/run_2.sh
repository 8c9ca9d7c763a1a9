#!/bin/bash
# NOTES item 80's lead, written by the forty-fifth session, not run: is
# instruction fetch (code first run in a call, from DRAM) part of the
# staged row kernels' fixed 6-7 us a long odd row (issue 14 part 1) and of
# the one-round GEMM's gap at m = 128 (issue 12)?  ncu's stall samples per
# SASS instruction (clocks as they come), summarised by bench/ncu_stalls.py:
# the `no_inst` share and where it sits (code run once a CTA, or in a
# loop).  The split-KV decode's merge showed ~40% `no_inst` in its run-once
# code before item 80.  Copy this script to build/carry/ and run it as the
# other calls (bench/lanes.sh).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
NS="--clock-control none --section SourceCounters --section WarpStateStats --import-source no"
prof() { # NAME KERNEL-REGEX DEADLINE COMMAND...
  local n=$1 k=$2 dl=$3; shift 3
  el "ncu $n"
  timeout $(left $dl) ncu --target-processes all $NS -k "regex:$k" -s 3 -c 1 -o $R/$n "$@" > $R/$n.log 2>&1
  echo "$n rc=$?"
  ncu -i $R/$n.ncu-rep --page source --csv --print-source sass > $R/$n.csv 2>/dev/null
  python3 bench/ncu_stalls.py $R/$n.csv --top 6
  xz -T4 -9 $R/$n.csv
}
prof rmsnorm_199999 "^rmsnorm_bf16_" 120 python3 bench/side_by_side.py --ops rmsnorm --shapes 512x199999 \
  --no-compile --reps 4 --warmup 2
prof softmax_199999 "^softmax_bf16_" 220 python3 bench/side_by_side.py --ops softmax --shapes 512x199999 \
  --no-compile --reps 4 --warmup 2
prof add_rmsnorm_151937 "^add_rmsnorm_bf16_" 320 python3 bench/side_by_side.py --ops add_rmsnorm \
  --shapes 512x151937 --no-compile --reps 4 --warmup 2
prof gemm_m128 "gemm_f16_wg_" 440 python3 bench/gemm_bench.py --dtypes f16 --reps 4 --shapes "128,11008,4096"
el end
lanes_finish
