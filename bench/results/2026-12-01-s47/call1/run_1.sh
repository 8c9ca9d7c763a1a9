#!/bin/bash
# forty-seventh session, call 1: (a) rows sweep at long odd rows (fixed cost
# a call and wave quantisation: 8192 CTAs of c16 = 7.76 waves at 512 rows,
# 8 at 528); (b) ncu source counters of RMSNorm+SwiGLU's picks at 512 x
# 199999 and 4096 x 32001 and add+RMSNorm's at 512 x 199999 (instruction mix)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "rows sweep"
timeout $(left 200) python3 bench/side_by_side.py --ops rmsnorm,add_rmsnorm,rmsnorm_swiglu,softmax \
  --shapes 128x199999,256x199999,512x199999,528x199999,1024x199999,1056x151937,512x151937 \
  --no-compile --reps 30 --warmup 5 --json $R/rows.json > $R/rows.log 2>&1
echo "rows rc=$?"; grep -E "^ *(rmsnorm|add_rmsnorm|rmsnorm_swiglu|softmax)" $R/rows.log | cut -c1-150 | head -40
NS="--clock-control none --section SourceCounters --section WarpStateStats --section SpeedOfLight --section Occupancy --section LaunchStats --import-source no"
prof() { # NAME KERNEL-REGEX DEADLINE COMMAND...
  local n=$1 k=$2 dl=$3; shift 3
  el "ncu $n"
  timeout $(left $dl) ncu --target-processes all $NS -k "regex:$k" -s 3 -c 1 -o $R/$n "$@" > $R/$n.log 2>&1
  echo "$n rc=$?"
  ncu -i $R/$n.ncu-rep --page source --csv --print-source sass > $R/$n.csv 2>/dev/null
  ncu -i $R/$n.ncu-rep --page details --csv > $R/${n}_d.csv 2>/dev/null
  python3 bench/ncu_stalls.py $R/$n.csv --top 6
  xz -T4 -9 $R/$n.csv $R/${n}_d.csv
}
prof rsw_199999 "^rmsnorm_swiglu_bf16_" 330 python3 bench/side_by_side.py --ops rmsnorm_swiglu --shapes 512x199999 \
  --no-compile --reps 4 --warmup 2
prof rsw_32001 "^rmsnorm_swiglu_bf16_" 430 python3 bench/side_by_side.py --ops rmsnorm_swiglu --shapes 4096x32001 \
  --no-compile --reps 4 --warmup 2
prof addrms_199999 "^add_rmsnorm_bf16_" 530 python3 bench/side_by_side.py --ops add_rmsnorm --shapes 512x199999 \
  --no-compile --reps 4 --warmup 2
el end
lanes_finish
