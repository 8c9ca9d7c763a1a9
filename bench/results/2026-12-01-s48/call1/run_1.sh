#!/bin/bash
# forty-eighth session, call 1: the near misses of issue 14 part 1 at short
# and mid odd rows (RMSNorm / add+RMSNorm at 1001-11007, 86-88% of copy):
# (a) odd against aligned lengths side by side, no compile (the residue's
# cost at each length); (b) ncu of the odd picks and one aligned twin
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "sweep"
timeout $(left 170) python3 bench/side_by_side.py --ops rmsnorm,add_rmsnorm,rmsnorm_swiglu \
  --shapes 131072x1001,131072x1000,131072x1024,16384x4097,16384x4096,8192x11007,8192x11008 \
  --no-compile --reps 30 --warmup 5 --json $R/sweep.json > $R/sweep.log 2>&1
echo "sweep rc=$?"; grep -E "^ *(rmsnorm|add_rmsnorm|rmsnorm_swiglu) " $R/sweep.log | cut -c1-150
NS="--clock-control none --section SourceCounters --section WarpStateStats --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis --import-source no"
prof() { # NAME KERNEL-REGEX DEADLINE OP SHAPE
  local n=$1 k=$2 dl=$3
  el "ncu $n"
  timeout $(left $dl) ncu --target-processes all $NS -k "regex:$k" -s 3 -c 1 -o $R/$n \
    python3 bench/side_by_side.py --ops $4 --shapes $5 --no-compile --reps 4 --warmup 2 > $R/$n.log 2>&1
  echo "$n rc=$?"
  ncu -i $R/$n.ncu-rep --page source --csv --print-source sass > $R/$n.csv 2>/dev/null
  ncu -i $R/$n.ncu-rep --page details --csv > $R/${n}_d.csv 2>/dev/null
  python3 bench/ncu_stalls.py $R/$n.csv --top 4 2>&1 | head -30
  grep -E '"(Duration|DRAM Throughput|L2 Cache Throughput|L1/TEX Cache Throughput|Compute \(SM\) Throughput|Issue Slots Busy|Executed Ipc Active|Registers Per Thread|Achieved Occupancy|Theoretical Occupancy|L1/TEX Hit Rate|L2 Hit Rate|Mem Busy)"' $R/${n}_d.csv | awk -F'","' '{print "   "$(NF-3)": "$NF}' | tr -d '"'
  xz -T4 -9 $R/$n.csv $R/${n}_d.csv; rm -f $R/$n.ncu-rep
}
prof rms_1001 "^rmsnorm_bf16_" 230 rmsnorm 131072x1001
prof rms_1024 "^rmsnorm_bf16_" 280 rmsnorm 131072x1024
prof add_1001 "^add_rmsnorm_bf16_" 330 add_rmsnorm 131072x1001
prof add_4097 "^add_rmsnorm_bf16_" 380 add_rmsnorm 16384x4097
prof add_11007 "^add_rmsnorm_bf16_" 430 add_rmsnorm 8192x11007
prof rsw_4097 "^rmsnorm_swiglu_bf16_" 480 rmsnorm_swiglu 16384x4097
el end
lanes_finish
