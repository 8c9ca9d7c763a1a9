#!/bin/bash
# fifty-fifth session, call 3: softmax `_pers` at two CTAs an SM (kp tune);
# ncu's stall samples on softmax's `_pers` against its stage pick at 512 x
# 199999; the odd sweep (issue 14's bar) with add+RMSNorm's `_pers` ranked;
# ops_gpu and graph_gpu over the packs
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "float64 p2"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="_c8_p2|softmax_f32_block_t128_v4_n2" \
  timeout $(left 40) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases|ran no" $R/var.log | head -12 | cut -c1-300
el "tune"
timeout $(left 110) stdbuf -oL build/bin/kp tune -o $R/p.tune --dtypes bf16 --shapes build/carry/sm.txt \
  --reps 20 --time-budget 60 > $R/tune.log 2>&1
echo "tune rc=$?"
while read f r c; do echo "== $f $r x $c"; grep "^$f *bf16 *${r}x$c " $R/p.tune | sort -k6 -g | head -2 | awk '{print $5, $6}'; grep "^$f *bf16 *${r}x$c .*_pers_" $R/p.tune | sort -k6 -g | head -8 | awk '{print $5, $6}'; done < build/carry/sm.txt
NS="--clock-control none --section SourceCounters --section WarpStateStats --section SpeedOfLight --import-source no"
prof() { # NAME KERNEL-REGEX DEADLINE COMMAND...
  local n=$1 k=$2 dl=$3; shift 3
  el "ncu $n"
  timeout $(left $dl) ncu --target-processes all $NS -k "regex:$k" -s 3 -c 1 -o $R/$n "$@" > $R/$n.log 2>&1
  echo "$n rc=$?"
  ncu -i $R/$n.ncu-rep --page source --csv --print-source sass > $R/$n.csv 2>/dev/null
  python3 bench/ncu_stalls.py $R/$n.csv --top 3
  ncu -i $R/$n.ncu-rep --page details --csv > $R/${n}_d.csv 2>/dev/null
  grep -E '"(Duration|DRAM Throughput|Issue Slots Busy|Executed Ipc Active|No Eligible|Executed Instructions|Compute \(SM\) Throughput)"' \
    $R/${n}_d.csv | awk -F'","' '{print $(NF-3)" | "$(NF-1)" "$NF}' | cut -c1-120
  xz -T4 -9 $R/$n.csv
}
KP_VARIANT=softmax_bf16_pers_t512_b4_w3200_c8 prof sm_pers "^softmax_bf16_" 200 python3 bench/side_by_side.py --ops softmax --shapes 512x199999 \
  --no-compile --reps 4 --warmup 2
prof sm_stage "^softmax_bf16_" 260 python3 bench/side_by_side.py --ops softmax --shapes 512x199999 \
  --no-compile --reps 4 --warmup 2
el "odd sweep"
timeout $(left 480) python3 bench/side_by_side.py --ops softmax,rmsnorm,add_rmsnorm,swiglu,geglu_tanh,geglu_erf,rmsnorm_swiglu \
  --shapes-file bench/shapes_odd.txt --no-compile --reps 20 --warmup 4 --json $R/odd.json > $R/odd.log 2>&1
echo "odd rc=$?"
gpu_suite ops.log 540 ops_gpu
gpu_suite graph.log 590 graph_gpu
lanes_finish
