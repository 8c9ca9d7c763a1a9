#!/bin/bash
# GPU call 1 (2026-11-26, fourteenth session): issue 12's m = 128 question
# (bench/results/next/run_1.sh: the table's shapes in one process, m = 128
# first / in place / last, with and without torch's caching allocator) and
# issue 14's long odd rows under ncu (softmax, rmsnorm, add_rmsnorm,
# rmsnorm_swiglu at 512 x 199999 and friends: DRAM bytes against the ideal,
# L2 hit rate, occupancy, stalls), plus odd against aligned side by side.
# (As run; the ncu logs of one op overwrote each other: each ncu_*_odd.log
# holds the op's last odd shape.)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
S='128,4096,4096;4096,4096,4096;8192,8192,8192;4096,11008,4096;4096,4096,11008;4096,14336,4096'
S="$S;128,4096,4096;128,11008,4096;16,4096,4096;1,4096,4096;128,4096,4096"
one() { CUDA_VISIBLE_DEVICES=$1 timeout 200 env $3 python3 bench/gemm_bench.py --dtypes $2 \
  --shapes "$S" 2>&1 | grep -vE "$F" | grep -E "^(bfloat16|float16) " | sed "s/^/[$4] /"; }
NS="--section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats"
prof() { # op shape tag
  CUDA_VISIBLE_DEVICES=$GPU timeout 60 ncu $NS -k "regex:^$1_bf16_" -s 3 -c 1 python3 bench/side_by_side.py \
    --ops $1 --shapes $2 --no-compile --reps 3 --warmup 2 > $R/ncu_$1_$3.log 2>&1
  echo "ncu $1 $2 rc=$? $(grep -E 'Duration|DRAM Throughput' $R/ncu_$1_$3.log | tr -s ' ' | tr '\n' ' ')"
}
lane0() {
  GPU=0
  el "gemm bf16"; one 0 bf16 "" cached; one 0 bf16 PYTORCH_NO_CUDA_MEMORY_CACHING=1 nocache
  el "ncu"
  prof softmax 512x199999 odd; prof softmax 512x200000 al; prof softmax 1024x128257 odd
  prof rmsnorm 512x199999 odd; prof add_rmsnorm 512x199999 odd
  prof rmsnorm_swiglu 512x199999 odd; prof rmsnorm_swiglu 8192x11007 odd; prof rmsnorm_swiglu 8192x11008 al
  el "lane0 done"
}
lane1() {
  GPU=1
  el "gemm f16"; one 1 f16 "" cached; one 1 f16 PYTORCH_NO_CUDA_MEMORY_CACHING=1 nocache
  el "side by side odd / aligned"
  CUDA_VISIBLE_DEVICES=1 timeout $(left 400) python3 bench/side_by_side.py --ops softmax,rmsnorm,add_rmsnorm,rmsnorm_swiglu \
    --shapes 512x199999,512x200000,1024x128257,1024x128256,8192x11007,8192x11008,131072x1001,131072x1000 \
    --no-compile --reps 50 --json $R/side.json 2>&1 | grep -vE "$F" > $R/side.log; echo "side rc=$?"
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
P0=$!
lane1 > $R/lane1.log 2>&1 &
P1=$!
wait $P0 $P1
cat $R/lane0.log $R/lane1.log | cut -c1-400
grep -E "^---|  (ours|eager|F) " $R/side.log | head -80
lanes_finish
